"""The pages of no area: home (each role to its start), the favicon, the language switch."""
from __future__ import annotations

from flask import Blueprint, Flask, redirect, render_template, request, send_from_directory, session, url_for
from flask_login import current_user

from ..access import scope
from ..games.models import GamesStatus
from ..roles import SCOPED_STAFF, Role
from ..web import LANGS, safe_next

bp = Blueprint("site", __name__)


@bp.post("/lang")
def set_language():
    lang = request.form.get("lang")
    if lang in LANGS:
        session["lang"] = lang
        if current_user.is_authenticated:  # the portal's e-mail to this person follows it
            from ..accounts.services import set_language
            set_language(current_user._get_current_object(), lang)
    return redirect(safe_next(request.form.get("next")))


def init(app: Flask) -> None:
    @app.route("/favicon.ico")
    def favicon():
        return send_from_directory(app.static_folder, "favicon.ico", mimetype="image/vnd.microsoft.icon",
                                   max_age=86400)

    @app.route("/")
    def home():
        if not current_user.is_authenticated:
            return redirect(url_for("accounts.login"))
        if current_user.role == Role.LEADER:
            if current_user.delegation is not None and current_user.delegation.games.status == GamesStatus.DRAFT:
                return render_template("errors/not_published.html")  # made early, before publication
            if current_user.delegation_id:
                return redirect(url_for("workflow.dashboard", delegation_id=current_user.delegation_id))
            return render_template("errors/no_delegation.html")
        if current_user.role in SCOPED_STAFF and not scope.visible_games_ids():
            return render_template("errors/no_games.html")  # an account no Games was given yet
        if current_user.role == Role.ACCOUNTANT:
            return redirect(url_for("money.overview"))
        return redirect(url_for("workflow.overview"))

"""The accountants' pages and the leader's statement (filled in by the money work)."""
from __future__ import annotations

from flask import Blueprint, render_template

from ..accounts.access import roles

bp = Blueprint("money", __name__, url_prefix="/money")


@bp.get("/")
@roles("accountant", "organiser", "admin")
def overview():
    return render_template("money/overview.html")

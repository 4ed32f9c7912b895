"""JSON API. `POST /api/v1/check` judges a delegation document and changes nothing."""
from __future__ import annotations

from flask import Blueprint, jsonify, request
from flask_login import current_user

from ..cli_support import parse_instant
from ..delegations.services import UNUSABLE, check_document
from ..extensions import api_limit, csrf
from ..rules.jsontext import JsonTextError, load_json
from ..rules.violations import report, schema_error

bp = Blueprint("api", __name__, url_prefix="/api/v1")


@bp.post("/check")
@api_limit
@csrf.exempt  # stateless and read-only: no session, no cookie, nothing changed
def check():

    try:
        at = parse_instant(request.args.get("at"))
    except Exception as exc:  # click.BadParameter
        rep = report(None, None, [schema_error("at", "时间格式无效", str(getattr(exc, "message", exc)))])
        return jsonify(rep), 400
    try:
        data = load_json(request.get_data(cache=False))
    except JsonTextError as exc:
        rep = report(None, None, [schema_error("", "请求正文" + exc.zh, "the request body is " + exc.en)])
        return jsonify(rep), 400
    # Without an account the document is judged on its own: no stored identity numbers or
    # sanctions, so the API can never tell a stranger who is registered.
    user = current_user if current_user.is_authenticated else None
    rep, status = check_document(data, at, stored=user is not None,
                                 reveal=user is not None and user.role in ("organiser", "admin"),
                                 drafts=user is not None and user.is_admin)
    return jsonify(rep), 400 if status == UNUSABLE else 200


from . import v1, v1_events, v1_money  # noqa: E402, F401  (version 1's resources, on this blueprint)

"""Starting a login session, and the signed cookie that remembers a browser."""
from __future__ import annotations

import time

from flask import current_app, session
from flask_login import login_user

from . import throttle


def remember_device(response, user, device: str) -> None:
    """The signed cookie that tells this browser apart from a stranger's at the next login
    (throttle.py): failures elsewhere never make it wait."""
    response.set_cookie(throttle.DEVICE_COOKIE, throttle.device_cookie_for(user.id, device),
                        max_age=throttle.DEVICE_DAYS * 86400, httponly=True, samesite="Lax",
                        secure=current_app.config.get("PREFERRED_URL_SCHEME") == "https")


def start_session(user, *, second_factor: bool = False) -> None:
    """`second_factor`: the login passed the authenticator's code (or enrolled it). A staff
    session without it is no session where staff need two steps (site/sessions.py)."""
    login_user(user)
    session.pop("timed_out", None)
    session["auth_at"] = session["seen_at"] = time.time()
    if second_factor:
        session["second_factor"] = True
    else:
        session.pop("second_factor", None)


def passed_second_factor() -> bool:
    return bool(session.get("second_factor"))

"""The user of the current request as every service names its actor (pretix's `user=`):
display name and account, address and role, for the audit log."""
from __future__ import annotations

from flask import request
from flask_login import current_user

from .services import Actor


def actor() -> Actor:
    return Actor(current_user.display_name + f" ({current_user.username})", user_id=current_user.id,
                 ip=request.remote_addr, role=current_user.role)

"""The accounts area's blueprint: logins (with the second factor), passwords,
invitations and the organisers' account pages."""
from flask import Blueprint

bp = Blueprint("accounts", __name__)

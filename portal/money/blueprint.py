"""The money area's blueprint: the accountants' pages under /money, and a delegation's
statement and rooms in its workspace (/d/<id>/...)."""
from flask import Blueprint

bp = Blueprint("money", __name__)

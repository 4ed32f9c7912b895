"""The delegation workspace's blueprint: every page of one delegation, under /d/<id>."""
from flask import Blueprint

bp = Blueprint("delegations", __name__, url_prefix="/d")

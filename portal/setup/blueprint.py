from flask import Blueprint

bp = Blueprint("setup", __name__)

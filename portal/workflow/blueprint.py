"""The workflow area's blueprint: the organising committee's pages under /org, and
self-registration for Games that take individuals (/register/<slug>)."""
from flask import Blueprint

bp = Blueprint("workflow", __name__)

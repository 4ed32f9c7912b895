"""Helpers for the attack tests: log in as a role, request inside an app context."""
from __future__ import annotations

from builders import logged_in

PASSWORD = "a-long-test-passphrase-42"


def login(app, username, password=PASSWORD, client=None):
    """builders.logged_in with the attack tests' password."""
    return logged_in(app, username, password, client=client)


def get(app, client, url, **kw):
    with app.app_context():
        return client.get(url, **kw)


def post(app, client, url, **kw):
    with app.app_context():
        return client.post(url, **kw)

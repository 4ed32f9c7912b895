"""Helpers for the attack tests: log in as a role, request inside an app context."""
from __future__ import annotations

PASSWORD = "a-long-test-passphrase-42"


def login(app, username, password=PASSWORD, client=None):
    client = client or app.test_client()
    was = app.config["WTF_CSRF_ENABLED"]
    app.config["WTF_CSRF_ENABLED"] = False
    try:
        with app.app_context():
            resp = client.post("/login", data={"username": username, "password": password})
    finally:
        app.config["WTF_CSRF_ENABLED"] = was
    assert resp.status_code == 302, resp.get_data(as_text=True)[:300]
    return client


def get(app, client, url, **kw):
    with app.app_context():
        return client.get(url, **kw)


def post(app, client, url, **kw):
    with app.app_context():
        return client.post(url, **kw)

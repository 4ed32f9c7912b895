"""The REST API, version 1 (issue 24, 3): per-account tokens (shown once, stored hashed,
scoped, expiring, revocable, every use audited); the same rules as the pages for every
role's token; the document read with its version and written back through the same
service; errors as problem+json; the OpenAPI document generated from the routes."""
import datetime as dt
import json
import re

from builders import account, csrf_token, doc, individual, logged_in, person, stored

CHINA = dt.timezone(dt.timedelta(hours=8))


def _token_for(app, username, scope="read"):
    client = logged_in(app, username)
    with app.app_context():
        page = client.get("/account/tokens").get_data(as_text=True)
    token = csrf_token(page)
    with app.app_context():
        made = client.post("/account/tokens", data={"csrf_token": token, "name": "省体育局系统", "scope": scope,
                                                    "days": "30"}).get_data(as_text=True)
    return re.search(r'<code id="new-token">([^<]+)</code>', made).group(1)


def _call(app, method, url, token=None, **kwargs):
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    headers.update(kwargs.pop("headers", {}))
    with app.app_context():
        return app.test_client().open(url, method=method, headers=headers, **kwargs)


def _world(app, db, monkeypatch):
    monkeypatch.setitem(app.config, "FIXED_NOW", dt.datetime(2019, 8, 20, 10, tzinfo=CHINA))
    mine = stored("nmsg-2019", doc("nmsg-2019", people=[person("p1", year=2019, name="陈立")],
                                   entries=[individual("chess.MI", "p1")]), dt.datetime(2019, 5, 1, tzinfo=CHINA))
    theirs = stored("nmsg-2019", doc("nmsg-2019", unit="jiangsu", people=[person("p1", year=2019, unit="jiangsu", name="周华")]),
                    dt.datetime(2019, 5, 1, tzinfo=CHINA))
    account("api-leader", "leader", delegation=mine)
    account("api-org", "organiser", games=["nmsg-2019"])
    account("api-acc", "accountant", games=["nmsg-2019"])
    account("api-other", "organiser", games=["youth-gomoku-2015"])
    db.session.commit()
    return mine.id, theirs.id


def test_a_token_is_shown_once_stored_hashed_and_answers_only_with_a_bearer(app, db, monkeypatch):
    from portal.api.models import ApiToken
    _world(app, db, monkeypatch)
    token = _token_for(app, "api-leader")
    assert token.startswith("pt_")
    db.session.rollback()
    row = db.session.query(ApiToken).one()
    assert row.token_hash != token and token not in json.dumps([row.token_hash, row.prefix, row.name])
    nobody = _call(app, "GET", "/api/v1/games")
    assert nobody.status_code == 401 and nobody.mimetype == "application/problem+json"
    assert nobody.get_json()["status"] == 401
    # A browser's session is no API client.
    browser = logged_in(app, "api-leader")
    with app.app_context():
        assert browser.get("/api/v1/games").status_code == 401
    assert _call(app, "GET", "/api/v1/games", token).status_code == 200
    assert _call(app, "GET", "/api/v1/games", token[:-1] + ("y" if token.endswith("x") else "x")).status_code == 401
    # Revoked: refused at once.
    client = logged_in(app, "api-leader")
    with app.app_context():
        page = client.get("/account/tokens").get_data(as_text=True)
    csrf = csrf_token(page)
    with app.app_context():
        assert client.post(f"/account/tokens/{row.id}/revoke", data={"csrf_token": csrf}).status_code == 302
    assert _call(app, "GET", "/api/v1/games", token).status_code == 401


def test_every_role_sees_through_the_api_what_it_sees_on_the_pages(app, db, monkeypatch):
    from portal.audit.models import AuditLog
    mine, theirs = _world(app, db, monkeypatch)
    tokens = {name: _token_for(app, name) for name in ("api-leader", "api-org", "api-acc", "api-other")}
    games = {n: [g["slug"] for g in _call(app, "GET", "/api/v1/games", t).get_json()["games"]] for n, t in tokens.items()}
    assert games["api-leader"] == ["nmsg-2019"] and games["api-org"] == ["nmsg-2019"]
    assert games["api-other"] == ["youth-gomoku-2015"]
    listed = {n: sorted(d["id"] for d in _call(app, "GET", "/api/v1/delegations", t).get_json()["delegations"])
              for n, t in tokens.items()}
    assert listed == {"api-leader": [mine], "api-org": sorted([mine, theirs]), "api-acc": sorted([mine, theirs]),
                      "api-other": []}
    for name, want in (("api-leader", {mine: 200, theirs: 404}), ("api-org", {mine: 200, theirs: 200}),
                       ("api-other", {mine: 404, theirs: 404})):
        for delegation_id, status in want.items():
            for path in (f"/api/v1/delegations/{delegation_id}", f"/api/v1/delegations/{delegation_id}/document"):
                assert _call(app, "GET", path, tokens[name]).status_code == status, (name, path)
    assert _call(app, "GET", "/api/v1/games/nmsg-2019", tokens["api-other"]).status_code == 404
    detail = _call(app, "GET", "/api/v1/games/nmsg-2019", tokens["api-org"]).get_json()
    assert detail["definition"]["slug"] == "nmsg-2019"
    assert any(x["zh"] == "每单位国际象棋男子个人限报 4 人" and x["clause"] == "五(二)" for x in detail["read_back"])
    # The accountant's document has masked numbers, as on his pages; the leader's in full.
    own = _call(app, "GET", f"/api/v1/delegations/{mine}/document", tokens["api-leader"]).get_json()
    masked = _call(app, "GET", f"/api/v1/delegations/{mine}/document", tokens["api-acc"]).get_json()
    assert "*" not in own["people"][0]["id_number"] and "*" in masked["people"][0]["id_number"]
    db.session.rollback()
    uses = db.session.query(AuditLog).filter_by(action="api.request").count()
    assert uses >= 20  # every call recorded


def test_the_document_written_back_with_its_version(app, db, monkeypatch):
    mine, _theirs = _world(app, db, monkeypatch)
    read_only, writer = _token_for(app, "api-leader"), _token_for(app, "api-leader", scope="write")
    got = _call(app, "GET", f"/api/v1/delegations/{mine}/document", writer)
    etag, document = got.headers["ETag"], got.get_json()
    document["people"][0]["name"] = "陈力"
    body = json.dumps(document, ensure_ascii=False).encode()
    assert _call(app, "PUT", f"/api/v1/delegations/{mine}/document", read_only, data=body,
                 headers={"If-Match": etag}).status_code == 403
    assert _call(app, "PUT", f"/api/v1/delegations/{mine}/document", writer, data=body).status_code == 428
    saved = _call(app, "PUT", f"/api/v1/delegations/{mine}/document", writer, data=body, headers={"If-Match": etag})
    assert saved.status_code == 200, saved.get_data(as_text=True)
    assert saved.get_json()["ok"] is True and saved.headers["ETag"] != etag
    # The same version again: someone (this very call) changed it meanwhile.
    stale = _call(app, "PUT", f"/api/v1/delegations/{mine}/document", writer, data=body, headers={"If-Match": etag})
    assert stale.status_code == 412 and stale.get_json()["code"] == "stale"
    # A document the rules refuse is answered with the same codes as the pages.
    document["people"][0]["birth_date"] = "not a date"
    bad = _call(app, "PUT", f"/api/v1/delegations/{mine}/document", writer,
                data=json.dumps(document, ensure_ascii=False).encode(), headers={"If-Match": saved.headers["ETag"]})
    assert bad.status_code == 422 and bad.mimetype == "application/problem+json"
    assert any(v["code"] == "SCHEMA_INVALID" for v in bad.get_json()["violations"])
    after = _call(app, "GET", f"/api/v1/delegations/{mine}/document", writer).get_json()
    assert after["people"][0]["name"] == "陈力"
    accountant = _token_for(app, "api-acc", scope="write")
    assert _call(app, "PUT", f"/api/v1/delegations/{mine}/document", accountant, data=body,
                 headers={"If-Match": saved.headers["ETag"]}).status_code == 403


def test_the_openapi_document_describes_every_route(app, db):
    spec = _call(app, "GET", "/api/v1/openapi.json").get_json()
    assert spec["openapi"].startswith("3.") and spec["info"]["version"] == "v1"
    from openapi_spec_validator import validate
    validate(spec)  # the OpenAPI 3 schema itself, by a maintained validator
    # Every route of the blueprint is described, the check too (issue 39, 11); the
    # document and its page are not resources.
    routes = {re.sub(r"<(?:int:)?(\w+)>", r"{\1}", r.rule) for r in app.url_map.iter_rules()
              if r.endpoint.startswith("api.") and r.endpoint not in ("api.openapi", "api.docs")}
    assert set(spec["paths"]) == routes and len(routes) == 11
    assert "security" in spec["paths"]["/api/v1/check"]["post"]  # and it needs no token: []
    assert spec["paths"]["/api/v1/check"]["post"]["security"] == []
    assert "/api/v1/games/{slug}/events/{event}/results" in routes
    assert set(spec["paths"]["/api/v1/games/{slug}/events/{event}/results"]) == {"get", "put"}
    assert set(spec["paths"]["/api/v1/delegations/{delegation_id}/document"]) == {"get", "put"}
    schemas = spec["components"]["schemas"]
    refs = re.findall(r'"\$ref": "#/components/schemas/([^"]+)"', json.dumps(spec))
    assert refs and all(r in schemas for r in refs)  # every reference resolves
    assert spec["components"]["securitySchemes"]["token"]["scheme"] == "bearer"
    page = _call(app, "GET", "/api/v1/docs").get_data(as_text=True)
    assert "/api/v1/delegations/{delegation_id}/document" in page

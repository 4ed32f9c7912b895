"""Two web nodes, each with its own instance folder, on one database (issue 23): what one
node keeps, the other finds. An upload confirmed on the other node, a job's output
downloaded from the other node."""
import io
import json
import os

import pytest
from builders import account, doc, individual, logged_in, person

pytestmark = pytest.mark.usefixtures("no_csrf")


@pytest.fixture
def node_b(app, tmp_path, monkeypatch):
    """A second node: another process's app, its own instance folder, the same database and secret."""
    from portal import create_app
    monkeypatch.setenv("INSTANCE_PATH", str(tmp_path / "node-b"))
    other = create_app({key: app.config[key] for key in (
        "TESTING", "SECRET_KEY", "SQLALCHEMY_DATABASE_URI", "RATE_LIMIT_LOGIN", "RATE_LIMIT_LOGIN_ADDRESS",
        "RATE_LIMIT_FORMS", "RATE_LIMIT_API", "RATE_LIMIT_REGISTER", "STAFF_TWO_FACTOR", "JOBS_BACKEND", "JOBS_QUEUE")}
        | {"WTF_CSRF_ENABLED": False, "FIXED_NOW": app.config.get("FIXED_NOW")})
    assert other.instance_path != app.instance_path
    yield other
    from portal.extensions import db
    with other.app_context():
        db.engine.dispose()


def _follow(client_a, client_b):
    """The browser goes on to the other node with its cookie (the load balancer's choice)."""
    client_b.set_cookie("session", client_a.get_cookie("session").value)


def test_an_upload_kept_on_one_node_is_confirmed_on_the_other(app, db, node_b, monkeypatch):
    import datetime as dt

    from portal.audit.services import Actor
    from portal.delegations.services import export_document
    from portal.games.services import find_games
    from portal.workflow.services import new_delegation, save
    china = dt.timezone(dt.timedelta(hours=8))
    monkeypatch.setitem(app.config, "FIXED_NOW", dt.datetime(2019, 5, 20, tzinfo=china))
    node_b.config["FIXED_NOW"] = app.config["FIXED_NOW"]
    document = doc("nmsg-2019", unit="hainan", people=[person("p1", year=2019, unit="hainan", name="林一")],
                   entries=[individual("chess.MI", "p1")])
    d = save(new_delegation(find_games("nmsg-2019"), "hainan"), document, Actor("t"),
             dt.datetime(2019, 5, 1, tzinfo=china)).delegation
    account("hn-node", "leader", delegation=d)
    a = logged_in(app, "hn-node")
    changed = json.loads(json.dumps(export_document(d)))
    changed["people"][0]["name"] = "林二"
    with app.app_context():
        page = a.post(f"/d/{d.id}/upload", data={"file": (io.BytesIO(json.dumps(changed, ensure_ascii=False).encode()),
                                                          "d.json")}, content_type="multipart/form-data")
    html = page.get_data(as_text=True)
    token = html.split('name="token"', 1)[1].split('value="', 1)[1].split('"', 1)[0]
    b = node_b.test_client()
    _follow(a, b)
    with node_b.app_context():
        r = b.post(f"/d/{d.id}/upload/confirm", data={"token": token, "version": str(d.version)})
    assert r.status_code == 302 and "/upload" not in r.headers["Location"], r.get_data(as_text=True)[:300]
    db.session.rollback()
    assert export_document(d)["people"][0]["name"] == "林二"


def test_a_job_output_made_on_one_node_downloads_from_the_other(app, db, node_b):
    account("node-org", "organiser")
    a = logged_in(app, "node-org")
    with app.app_context():  # made on node A (its job runner)
        r = a.post("/org/games/nmsg-2019/export/workbook", data={})
    job_id = int(r.headers["Location"].rstrip("/").split("/")[-1])
    b = node_b.test_client()
    _follow(a, b)
    import time
    for _ in range(100):
        with node_b.app_context():
            status = b.get(f"/jobs/{job_id}/status").get_json()
        if status["status"] in ("done", "failed"):
            break
        time.sleep(0.1)
    assert status["status"] == "done", status
    with node_b.app_context():
        got = b.get(f"/jobs/{job_id}/download")
    assert got.status_code == 200 and got.get_data()[:2] == b"PK"


def test_a_photo_uploaded_on_one_node_is_served_and_printed_by_the_other(app, db, node_b, monkeypatch):
    """Issue 23 (1): an ID photo taken by node A is no file of A's disk: node B shows it to the
    organiser and puts it on the card."""
    import datetime as dt

    from PIL import Image

    from portal.audit.services import Actor
    from portal.delegations.files import UploadedFile
    from portal.games.services import find_games
    from portal.workflow.services import approve, new_delegation, save, submit
    china = dt.timezone(dt.timedelta(hours=8))
    monkeypatch.setitem(app.config, "FIXED_NOW", dt.datetime(2019, 5, 20, tzinfo=china))
    node_b.config["FIXED_NOW"] = app.config["FIXED_NOW"]
    d = save(new_delegation(find_games("nmsg-2019"), "hainan"), doc(
        "nmsg-2019", unit="hainan", people=[person("p1", year=2019, unit="hainan", name="林一")],
        entries=[individual("chess.MI", "p1")]), Actor("t"), dt.datetime(2019, 5, 1, tzinfo=china)).delegation
    account("hn-photo", "leader", delegation=d)
    account("photo-org", "organiser")
    buffer = io.BytesIO()
    Image.new("RGB", (300, 400), "white").save(buffer, "PNG")
    leader = logged_in(app, "hn-photo")
    with app.app_context():
        r = leader.post(f"/d/{d.id}/people/p1/documents", content_type="multipart/form-data",
                        data={"version": d.version, "kind": "photo", "file": (io.BytesIO(buffer.getvalue()), "me.png")})
    assert r.status_code == 302
    db.session.rollback()
    f = db.session.query(UploadedFile).filter_by(delegation_id=d.id).one()
    assert not os.path.exists(os.path.join(app.config["UPLOAD_FOLDER"], str(d.id), f"{f.sha256}.png"))
    assert submit(d, Actor("t"), dt.datetime(2019, 5, 21, tzinfo=china)).ok
    assert approve(d, Actor("组委会"), dt.datetime(2019, 8, 2, tzinfo=china)).ok
    # Plain ids from here: node A's rows, read inside node B's context, would borrow B's pool.
    delegation_id, file_id = d.id, f.id
    organiser = logged_in(node_b, "photo-org")
    with node_b.app_context():
        shown = organiser.get(f"/d/{delegation_id}/files/{file_id}")
    assert shown.status_code == 200 and shown.get_data() == buffer.getvalue()
    assert shown.headers["Content-Disposition"].startswith("inline")
    from portal.venue.cards import cards_for
    with node_b.app_context():
        [card] = cards_for(find_games("nmsg-2019"), delegation_id)
        pdf = organiser.get(f"/org/games/nmsg-2019/cards.pdf?delegation={delegation_id}")
    assert card.name == "林一" and card.photo_problem is None and card.photo_key
    assert pdf.status_code == 200 and b"/Subtype /Image" in pdf.get_data()

"""Personal data seen only where needed, and every look recorded (issue 8, 3)."""
from __future__ import annotations

import datetime as dt
import io
import os
import re
import stat
import time
import zipfile

import pytest

from security.attack import get, login

ROLES = ("leader_a", "leader_b", "organiser", "accountant")


def _text(resp) -> str:
    data = resp.get_data()
    if data[:2] == b"PK":  # a workbook: read the XML parts
        with zipfile.ZipFile(io.BytesIO(data)) as z:
            return "".join(z.read(n).decode("utf-8", "replace") for n in z.namelist() if n.endswith(".xml"))
    return data.decode("utf-8", "replace")


def _get_urls(app, world):
    values = {"delegation_id": world["a"].id, "ref": "p1", "slug": "nmsg-2019", "kind": "roster", "fmt": "xlsx",
              "filename": "app.css", "token": "x", "file_id": 0, "job_id": 0,
              "event": "chess.MI", "index": 0, "message_id": 0, "number": 1, "impact_id": 0, "part": "fees", "name": "money"}
    urls = []
    for rule in app.url_map.iter_rules():
        if "GET" not in rule.methods or rule.endpoint == "static":
            continue
        for delegation_id in (world["a"].id, world["b"].id):
            url = rule.rule
            for arg in rule.arguments:
                value = delegation_id if arg == "delegation_id" else values[arg]
                url = re.sub(rf"<(?:[a-z]+:)?{arg}>", str(value), url)
            urls.append(url)
    extra = ["/org/games/nmsg-2019/export/summary.csv", "/org/games/nmsg-2019/export/chess.MI.xlsx",
             "/org/games/nmsg-2019/export/roster.csv", "/money/insurance?games=nmsg-2019&format=xlsx",
             "/money/insurance?games=nmsg-2019", "/org/audit"]
    return sorted(set(urls + extra))


@pytest.mark.parametrize("role", ROLES)
def test_no_page_or_download_shows_a_full_id_number_it_should_not(app, world, role):
    """Walk every GET page and download as each role; search each response (workbooks
    unpacked) for the full ID numbers this role may not see."""
    a, b = world["a_ids"], world["b_ids"]
    forbidden = {"leader_a": b, "leader_b": a, "organiser": [], "accountant": a + b}[role]
    client = login(app, role)
    seen = []
    for url in _get_urls(app, world):
        r = get(app, client, url)
        if r.status_code != 200:
            continue
        text = _text(r)
        seen.append(url)
        leaked = [n for n in forbidden if n in text]
        assert leaked == [], f"{role} sees full ID numbers at {url}"
        if role == "accountant" and url.endswith("/people/p1"):
            assert re.search(r"\d{4}\*{10}\d{3}[\dX]", text), url  # masked, not left out
    assert len(seen) > 10, seen


def test_full_numbers_where_needed_and_masked_in_lists(app, world):
    client = login(app, "leader_a")
    d = world["a"].id
    number = world["a_ids"][0]
    assert number in get(app, client, f"/d/{d}/people/p1").get_data(as_text=True)
    people = get(app, client, f"/d/{d}/people").get_data(as_text=True)
    assert number not in people and number[:4] + "*" * 10 + number[-4:] in people


def _access_rows(db, action=None):
    from sqlalchemy import select

    from portal.audit.models import AuditLog
    db.session.rollback()
    q = select(AuditLog).where(AuditLog.object_type == "personal_data")
    if action:
        q = q.where(AuditLog.action == action)
    return db.session.scalars(q.order_by(AuditLog.id)).all()


def test_views_downloads_and_exports_are_audited(app, world, db):
    d = world["a"]
    leader = login(app, "leader_a")
    get(app, leader, f"/d/{d.id}/people/p1")
    [view] = _access_rows(db, "personal_data.view")
    assert view.user_id == world["users"]["leader_a"].id and view.delegation_id == d.id
    assert "甲方选手一" in view.object_key and view.after["count"] == 1
    get(app, leader, f"/d/{d.id}/document.json")
    get(app, leader, f"/d/{d.id}/entry-form.xlsx")
    exports = _access_rows(db, "personal_data.export")
    assert [e.after["what"] for e in exports] == ["document.json", "entry-form.xlsx"]
    assert all(e.after["count"] == 2 for e in exports)
    # an accountant's masked download is no export of ID numbers
    accountant = login(app, "accountant")
    r = get(app, accountant, f"/d/{d.id}/document.json")
    assert r.status_code == 200 and world["a_ids"][0] not in r.get_data(as_text=True)
    assert len(_access_rows(db, "personal_data.export")) == 2
    # the organisers filter the log by person and by action
    organiser = login(app, "organiser")
    page = get(app, organiser, "/org/audit?action=personal_data&person=甲方选手一").get_data(as_text=True)
    page = page[page.index("<table"):]  # the rows, not the filter's options
    assert "personal_data.view" in page and "personal_data.export" in page and "delegation.save" not in page
    page = get(app, organiser, "/org/audit?person=秘密选手").get_data(as_text=True)
    page = page[page.index("<table"):]
    assert "personal_data.view" not in page


def test_a_document_download_is_audited(app, world, db, no_csrf, monkeypatch):
    from security.attack import post
    d = world["a"]
    leader = login(app, "leader_a")
    from PIL import Image
    buffer = io.BytesIO()
    Image.new("RGB", (200, 260), "white").save(buffer, "PNG")  # a real image: damaged ones are refused
    png = buffer.getvalue()
    monkeypatch.setitem(app.config, "FIXED_NOW", dt.datetime(2019, 5, 20, tzinfo=dt.UTC))
    r = post(app, leader, f"/d/{d.id}/people/p1/documents",
             data={"version": d.version, "kind": "photo", "file": (io.BytesIO(png), "me.png")},
             content_type="multipart/form-data")
    assert r.status_code == 302
    from sqlalchemy import select

    from portal.delegations.files import UploadedFile
    db.session.rollback()
    f = db.session.scalars(select(UploadedFile).where(UploadedFile.delegation_id == d.id)).one()
    # The bytes are in the shared store (no node's disk), named by their content.
    from portal import file_store
    assert file_store.read(f"documents/{d.id}/{f.sha256}.png") == png
    assert not os.path.exists(os.path.join(app.config["UPLOAD_FOLDER"], str(d.id), f"{f.sha256}.png"))
    organiser = login(app, "organiser")
    assert get(app, organiser, f"/d/{d.id}/files/{f.id}").status_code == 200
    [row] = _access_rows(db, "personal_data.download")
    assert row.after["what"] == "photo" and row.user_id == world["users"]["organiser"].id


def test_personal_pages_are_never_cached_and_the_server_tells_no_versions(app, world):
    client = login(app, "leader_a")
    for url in (f"/d/{world['a'].id}/people", f"/d/{world['a'].id}/document.json", "/login"):
        r = get(app, client, url)
        assert r.headers["Cache-Control"] == "no-store", url
        assert not re.search(r"\d+\.\d+", r.headers.get("Server", "")), r.headers.get("Server")


def test_instance_files_are_the_owners_only(app):
    assert stat.S_IMODE(os.stat(app.instance_path).st_mode) == 0o700
    url = app.config["SQLALCHEMY_DATABASE_URI"]
    if url.startswith("sqlite:///"):
        assert stat.S_IMODE(os.stat(url.removeprefix("sqlite:///")).st_mode) == 0o600


def test_pending_uploads_older_than_a_day_are_purged(app, tmp_path, cli):
    import datetime as dt

    from portal import file_store
    from portal.extensions import db
    from portal.retention import purge_pending
    folder = tmp_path / "pending"  # what an older portal left on this machine's disk
    folder.mkdir()
    (folder / "old.json").write_text("{}")
    (folder / "new.json").write_text("{}")
    day_ago = time.time() - 25 * 3600
    os.utime(folder / "old.json", (day_ago, day_ago))
    with app.app_context():  # and what every node keeps in the shared store
        file_store.put("pending/old-token", b"{}").created_at = dt.datetime.now(dt.UTC) - dt.timedelta(hours=25)
        file_store.put("pending/new-token", b"{}")
        db.session.commit()
        assert purge_pending(str(tmp_path)) == 2
        assert not file_store.exists("pending/old-token") and file_store.exists("pending/new-token")
        file_store.delete("pending/new-token")
        db.session.commit()
    assert [p.name for p in folder.iterdir()] == ["new.json"]
    result = cli.invoke(args=["privacy", "purge-pending"])
    assert result.exit_code == 0 and "pending uploads" in result.output


def test_retention_masks_id_numbers_and_deletes_documents_after_the_games(app, world, db, cli):
    from sqlalchemy import select

    from portal import file_store
    from portal.delegations.files import UploadedFile
    from portal.delegations.models import Person
    d = world["a"]
    # One copy in the store, and one an older portal left on this node's disk.
    file_store.put(f"documents/{d.id}/{'ab' * 32}.png", b"\x89PNG", "image/png")
    folder = os.path.join(app.config["UPLOAD_FOLDER"], str(d.id))
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, "ab" * 32 + ".png")
    with open(path, "wb") as fh:
        fh.write(b"\x89PNG")
    db.session.add(UploadedFile(delegation_id=d.id, person_ref="p1", kind="id_copy", filename="id.png",
                                content_type="image/png", size=4, sha256="ab" * 32, uploaded_by="t"))
    db.session.commit()
    # nmsg-2019 ended on 2019-11-18: with 180 days kept, 2020-05-01 is too early
    early = cli.invoke(args=["privacy", "retention", "--at", "2020-05-01", "--games", "nmsg-2019"])
    assert "no Games" in early.output
    dry = cli.invoke(args=["privacy", "retention", "--at", "2020-06-01", "--games", "nmsg-2019", "--dry-run"])
    assert "would delete 1 documents" in dry.output and "would mask 3 ID numbers" in dry.output
    db.session.rollback()
    assert os.path.exists(path) and file_store.exists(f"documents/{d.id}/{'ab' * 32}.png")
    assert all("*" not in p.id_number for p in db.session.scalars(select(Person)))
    done = cli.invoke(args=["privacy", "retention", "--at", "2020-06-01", "--games", "nmsg-2019"])
    assert done.exit_code == 0 and "deleted 1 documents" in done.output, done.output
    db.session.rollback()
    assert not os.path.exists(path) and not file_store.exists(f"documents/{d.id}/{'ab' * 32}.png")
    assert db.session.scalars(select(UploadedFile)).all() == []
    numbers = [p.id_number for p in db.session.scalars(select(Person))]
    assert numbers and all(re.fullmatch(r"\d{4}\*{10}\d{3}[\dX]", n) for n in numbers)

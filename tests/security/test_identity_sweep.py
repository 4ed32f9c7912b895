"""The 1,000-number sweep (issue 19, 1). A leader knows a child's area code and birth date
and tries every sequence number 000-999: on no path may he learn which number another
delegation holds, beyond a bounded number of numbers a day, each hit audited for the
organisers."""
from __future__ import annotations

import datetime as dt
import io
import json
import re

from builders import csrf_token, doc, person
from sqlalchemy import func, select

from security.attack import get, login, post

TAKEN = ("已在本届比赛登记", "already registered for these Games", "另一代表团")


def _sweep(world, order=None):
    """A document of a thousand people, one for each sequence number of the holder's area
    code and birth date (correct check digits: every one is a valid number)."""
    from portal.rules.idnumber import make
    holder = world["b_people"][0]
    born = dt.date.fromisoformat(holder["birth_date"])
    area = holder["id_number"][:6]
    sequences = order or list(range(1000))
    people = []
    for i, n in enumerate(sequences):
        p = person(f"s{i}", "M" if n % 2 else "F", holder["birth_date"], year=2019, name=f"试探{i:03d}")
        p["id_number"] = make(area, born, n)
        people.append(p)
    assert holder["id_number"] in {p["id_number"] for p in people}
    return doc("nmsg-2019", people=people, entries=[])


def _found(text: str) -> bool:
    return any(t in text for t in TAKEN)


def test_the_sweep_through_the_api_finds_nothing(app, world):
    client = login(app, "leader_a")
    r = post(app, client, "/api/v1/check?at=2019-05-20T00:00:00%2B08:00", json=_sweep(world))
    assert r.status_code == 200 and not _found(r.get_data(as_text=True))
    assert not [v for v in r.get_json()["violations"] if v["code"] == "DUPLICATE_PERSON"]
    anonymous = post(app, app.test_client(), "/api/v1/check?at=2019-05-20T00:00:00%2B08:00", json=_sweep(world))
    assert not _found(anonymous.get_data(as_text=True))


def test_the_sweep_through_an_upload_preview_finds_nothing_and_a_save_compares_at_most_the_allowance(
        app, world, monkeypatch):
    from portal.delegations.identity_checks import DEFAULT_PER_DAY, IdentityCheck
    from portal.extensions import db
    holder = world["b_people"][0]["id_number"]
    target = int(holder[14:17])
    # The target after the allowance: what the account may compare in a day is all it learns.
    order = [n for n in range(1000) if n != target] + [target]
    d = world["a"]
    leader_id = world["users"]["leader_a"].id
    client = login(app, "leader_a")
    monkeypatch.setitem(app.config, "FIXED_NOW", dt.datetime(2019, 5, 20, 2, 0, tzinfo=dt.UTC))
    form = get(app, client, f"/d/{d.id}/upload").get_data(as_text=True)
    token = csrf_token(form)
    data = json.dumps(_sweep(world, order), ensure_ascii=False).encode()
    r = post(app, client, f"/d/{d.id}/upload", data={"csrf_token": token, "file": (io.BytesIO(data), "sweep.json")})
    preview = r.get_data(as_text=True)
    assert r.status_code == 200 and "试探999" in preview and not _found(preview)
    confirm = dict(re.findall(r'name="(token|version|csrf_token)"[^>]*value="([^"]+)"', preview))
    r = post(app, client, f"/d/{d.id}/upload/confirm", data=confirm, follow_redirects=True)
    page = r.get_data(as_text=True)
    assert r.status_code == 200 and "已达上限" in page, page[:3000]
    for url in (f"/d/{d.id}", f"/d/{d.id}/people", f"/d/{d.id}/entries", f"/d/{d.id}/document.json"):
        assert not _found(get(app, client, url).get_data(as_text=True)), url
    db.session.rollback()
    compared = db.session.scalar(select(func.count(IdentityCheck.id)).where(IdentityCheck.user_id == leader_id))
    assert compared == DEFAULT_PER_DAY
    # Submitting says nothing either: the number was never compared.
    submit = post(app, client, f"/d/{d.id}/submit", data={"csrf_token": token}, follow_redirects=True)
    assert not _found(submit.get_data(as_text=True))
    # The organisers see the duplicate, every number compared, as they always did.
    organiser = login(app, "organiser")
    assert "江苏" in get(app, organiser, f"/org/d/{d.id}").get_data(as_text=True)


def test_a_number_compared_within_the_allowance_is_told_audited_and_shown_to_the_organisers(
        app, world, monkeypatch):
    from portal.audit.models import AuditLog
    from portal.audit.services import Actor
    from portal.delegations.services import export_document
    from portal.extensions import db
    from portal.workflow.services import save
    d = world["a"]
    leader = world["users"]["leader_a"]
    monkeypatch.setitem(app.config, "ID_CHECKS_PER_DAY", 3)
    at = dt.datetime(2019, 5, 20, 2, 0, tzinfo=dt.UTC)
    document = export_document(d)
    spy = person("p9", year=2019, name="探子")
    spy["id_number"], spy["birth_date"] = world["b_ids"][0], world["b_people"][0]["birth_date"]
    more = [person(f"q{i}", year=2019, name=f"新人{i}") for i in range(3)]
    document["people"] += [spy] + more  # the spy first: within the allowance of three
    out = save(d, document, Actor("甲 (leader_a)", user_id=leader.id, role="leader"), at)
    assert out.ok and any(v.code == "DUPLICATE_PERSON" for v in out.violations)
    assert out.message and "1 人" in out.message[0]  # of the four new numbers, one waits
    db.session.commit()
    hits = db.session.scalars(select(AuditLog).where(AuditLog.action == "identity.held_elsewhere")).all()
    assert [h.object_key for h in hits] == ["探子"] and world["b_ids"][0] not in json.dumps(hits[0].after)
    organiser = login(app, "organiser")
    audit = get(app, organiser, "/org/audit").get_data(as_text=True)
    assert "探子" in audit and "另一代表团登记" in audit
    # the next day the one left is compared
    tomorrow = at + dt.timedelta(hours=25)
    again = save(d, export_document(d), Actor("甲 (leader_a)", user_id=leader.id, role="leader"), tomorrow)
    assert again.ok and again.message is None

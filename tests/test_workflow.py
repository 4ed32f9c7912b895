"""The organisers' workflow on a real database: stages to the second, submissions,
approvals, substitutions, withdrawals and sanctions, audit."""
import datetime as dt
import json

import pytest
import yaml
from builders import doc, individual, person
from conftest import CHINA

UTC = dt.UTC


def at(s):
    return dt.datetime.fromisoformat(s)


@pytest.fixture
def svc(db):
    from portal.workflow import services
    return services


@pytest.fixture
def actor():
    from portal.audit.services import Actor
    return Actor("测试组委会", role="organiser")


def games(slug):
    from portal.games.services import find_games
    return find_games(slug)


def reg(ref, gender="M", born="1995-05-05", year=2019, **kw):
    return person(ref, gender, born, year=year, **kw)


def nmsg19(unit="zhejiang"):
    """Three registered players of the unit, two entered in the men's individual and three declared."""
    people = [reg(f"p{i}", unit=unit) for i in range(1, 4)]
    return doc("nmsg-2019", unit=unit, people=people,
               entries=[individual("chess.MI", "p1", "p2")],
               declarations=[{"event": "chess.MI", "count": 3}])


# --- stages (pure) -------------------------------------------------------------------------------
def test_stage_edges(definitions):
    from portal.rules.stages import stage_at
    s = definitions["nmsg-2019"].stages
    assert stage_at(s, at("2019-05-31T23:59:59+08:00")).stage == "declaration"
    assert stage_at(s, at("2019-06-01T00:00:00+08:00")).stage == "names"
    assert stage_at(s, at("2019-08-31T23:59:59+08:00")).stage == "names"
    assert stage_at(s, at("2019-08-31T16:00:00+00:00")).stage == "substitutions"
    assert stage_at(s, at("2019-10-31T23:59:59+08:00")).stage == "substitutions"
    assert stage_at(s, at("2019-11-01T00:00:00+08:00")).stage == "closed"
    y = definitions["youth-gomoku-2015"].stages
    assert stage_at(y, at("2015-07-08T23:59:59+08:00")).stage == "names"
    assert stage_at(y, at("2015-07-09T00:00:00+08:00")).stage == "substitutions"
    assert stage_at(y, at("2015-07-12T23:59:59+08:00")).stage == "substitutions"
    assert stage_at(y, at("2015-07-13T00:00:00+08:00")).stage == "closed"
    x = definitions["shaanxi-mind-2025"].stages
    assert stage_at(x, at("2025-09-17T21:59:59+08:00")).stage == "names"
    assert stage_at(x, at("2025-09-17T22:00:00+08:00")).stage == "closed"
    ext = {"names": at("2025-09-18T12:00:00+08:00")}
    assert stage_at(x, at("2025-09-18T11:00:00+08:00"), ext).stage == "names"


# --- deadlines to the second through the import command --------------------------------------------
def shaanxi_entrant(n):
    p = person("p1", "M" if n % 2 else "F", "1990-01-01",
               docs=("id_copy", "health_certificate", "insurance_proof", "safety_pledge"))
    return doc("shaanxi-mind-2025", unit=None, people=[p], entries=[individual("gomoku.OPEN", "p1")])


@pytest.mark.parametrize("received,code", [
    ("2025-09-17T21:59:59+08:00", 0), ("2025-09-17T22:00:00+08:00", 1),
    ("2025-09-17T13:59:59Z", 0), ("2025-09-17T14:00:00+00:00", 1)])
def test_registration_closes_at_22_00_to_the_second(cli, db, tmp_path, received, code):
    path = tmp_path / "d.json"
    path.write_text(json.dumps(shaanxi_entrant(1), ensure_ascii=False), encoding="utf-8")
    result = cli.invoke(args=["delegation", "import", str(path), "--received-at", received])
    assert result.exit_code == code, result.output
    rep = json.loads(result.output)
    if code:
        assert [v["code"] for v in rep["violations"]] == ["DEADLINE_PASSED"]
        from portal.delegations.models import Delegation
        assert db.session.query(Delegation).count() == 0  # a refused import stores nothing
    else:
        assert rep["status"] == "submitted"


def test_import_refused_by_the_rules_stores_nothing(cli, db, tmp_path):
    d = nmsg19()
    d["entries"][0]["people"] = ["p1", "p2", "p3"]
    d["people"] += [reg("p4"), reg("p5")]
    d["entries"][0]["people"] += ["p4", "p5"]
    path = tmp_path / "d.json"
    path.write_text(json.dumps(d, ensure_ascii=False), encoding="utf-8")
    result = cli.invoke(args=["delegation", "import", str(path), "--received-at", "2019-08-01T10:00:00+08:00"])
    assert result.exit_code == 1, (result.output, result.exception)
    assert "QUOTA_EXCEEDED" in [v["code"] for v in json.loads(result.output)["violations"]]
    from portal.delegations.models import Delegation
    assert db.session.query(Delegation).count() == 0


def test_import_then_export(cli, db, tmp_path):
    d = nmsg19()
    path = tmp_path / "d.json"
    path.write_text(json.dumps(d, ensure_ascii=False), encoding="utf-8")
    result = cli.invoke(args=["delegation", "import", str(path), "--received-at", "2019-08-01T10:00:00+08:00"])
    assert result.exit_code == 0, result.output
    out = cli.invoke(args=["delegation", "export", "nmsg-2019", "zhejiang"])
    exported = json.loads(out.output)
    assert exported["entries"] == d["entries"] and len(exported["people"]) == 3


def test_import_unusable_file_exits_2(cli, db, tmp_path):
    path = tmp_path / "d.json"
    path.write_text("[[[", encoding="utf-8")
    assert cli.invoke(args=["delegation", "import", str(path), "--received-at", "2019-08-01T10:00:00+08:00"]).exit_code == 2


def test_youth_gomoku_materials_count_when_received(svc, actor, db):
    kid = person("k1", "M", "2006-01-01", unit="tianjin", docs=("photo", "id_copy"))
    d = doc("youth-gomoku-2015", unit={"name": "南开少儿棋校", "kind": "school"}, people=[kid],
            entries=[individual("gomoku.MCA", "k1")])
    ok = svc.import_document(games("youth-gomoku-2015"), d, at("2015-07-08T23:59:59+08:00"), actor)
    assert ok.ok and ok.status == "submitted"
    d["unit"] = {"name": "另一棋校", "kind": "school"}
    late = svc.import_document(games("youth-gomoku-2015"), d, at("2015-07-09T00:00:00+08:00"), actor)
    assert not late.ok and [v.code for v in late.violations] == ["DEADLINE_PASSED"]


# --- saving in stages ---------------------------------------------------------------------------------
def stored(svc, actor, d, when="2019-05-01T10:00:00+08:00"):
    from portal.workflow.services import new_delegation
    out = svc.save(new_delegation(games(d["games"]), d["unit"]), d, actor, at(when))
    assert out.ok, out.violations
    return out.delegation


def test_declarations_fixed_after_31_may_names_after_31_aug(svc, actor, db):
    d = stored(svc, actor, nmsg19())
    changed = nmsg19()
    changed["declarations"].append({"event": "chess.WI", "count": 2})
    out = svc.save(d, changed, actor, at("2019-06-01T00:00:00+08:00"))
    assert not out.ok and [v.code for v in out.violations] == ["DEADLINE_PASSED"]
    same_events = nmsg19()
    same_events["entries"][0]["people"].append("p3")
    assert svc.save(d, same_events, actor, at("2019-08-31T23:59:59+08:00")).ok
    late = svc.save(d, nmsg19(), actor, at("2019-09-01T00:00:00+08:00"))
    assert not late.ok and [v.code for v in late.violations] == ["DEADLINE_PASSED"]


def test_an_extension_moves_one_units_deadline(svc, actor, db):
    d = stored(svc, actor, nmsg19())
    assert not svc.save(d, nmsg19(), actor, at("2019-09-02T10:00:00+08:00")).ok
    assert not svc.grant_extension(d, "names", at("2019-09-03T12:00:00+08:00"), "  ", actor).ok
    assert svc.grant_extension(d, "names", at("2019-09-03T12:00:00+08:00"), "洪水导致材料延误", actor).ok
    assert svc.save(d, nmsg19(), actor, at("2019-09-02T10:00:00+08:00")).ok
    assert not svc.save(d, nmsg19(), actor, at("2019-09-03T12:00:00+08:00")).ok
    other = stored(svc, actor, nmsg19(unit="jiangsu"))
    assert not svc.save(other, nmsg19(unit="jiangsu"), actor, at("2019-09-02T10:00:00+08:00")).ok


def test_a_stale_form_is_refused(svc, actor, db):
    d = stored(svc, actor, nmsg19())
    version = d.version
    assert svc.save(d, nmsg19(), actor, at("2019-05-02T10:00:00+08:00"), expected_version=version).ok
    stale = svc.save(d, nmsg19(), actor, at("2019-05-02T10:00:01+08:00"), expected_version=version)
    assert not stale.ok and "其他窗口" in stale.message[0]


def test_submit_refuses_while_errors_remain(svc, actor, db):
    bad = nmsg19()
    bad["people"][0]["gender"] = "F"
    bad["people"][0]["id_number"] = None
    d = stored(svc, actor, bad)
    out = svc.submit(d, actor, at("2019-08-01T10:00:00+08:00"))
    assert not out.ok and "GENDER_NOT_ALLOWED" in [v.code for v in out.violations]
    assert d.status == "draft"


def test_approve_locks_and_return_carries_reasons(svc, actor, db):
    from portal.audit.models import AuditLog
    from portal.workflow.models import ReviewNote
    d = stored(svc, actor, nmsg19())
    assert svc.submit(d, actor, at("2019-08-01T10:00:00+08:00")).ok
    returned = svc.return_for_changes(d, actor, [("person", "p2", "请补充注册证明")])
    assert returned.ok and d.status == "returned"
    note = db.session.query(ReviewNote).filter_by(delegation_id=d.id).one()
    assert (note.item_type, note.item_key, note.reason) == ("person", "p2", "请补充注册证明")
    assert not svc.return_for_changes(d, actor, [("person", "p2", " ")]).ok
    assert svc.submit(d, actor, at("2019-08-02T10:00:00+08:00")).ok
    assert svc.approve(d, actor, at("2019-08-03T10:00:00+08:00")).ok
    # After the names close an approved entry is locked (a substitution is the way) ...
    locked = svc.save(d, nmsg19(), actor, at("2019-09-04T10:00:00+08:00"))
    assert not locked.ok and "名单已截止" in locked.message[0] and d.status == "approved"
    # ... before, it may still change (issue 39, 3), and goes back for approval.
    changed = svc.save(d, nmsg19(), actor, at("2019-08-04T10:00:00+08:00"))
    assert changed.ok and d.status == "draft"
    actions = [a.action for a in db.session.query(AuditLog).filter_by(delegation_id=d.id).order_by(AuditLog.id)]
    assert actions == ["delegation.save", "delegation.submit", "delegation.return", "delegation.submit",
                       "delegation.approve", "delegation.save"]
    reopened = db.session.query(AuditLog).filter_by(delegation_id=d.id, action="delegation.save").order_by(
        AuditLog.id.desc()).first()
    assert reopened.before["status"] == "approved"
    ret = db.session.query(AuditLog).filter_by(delegation_id=d.id, action="delegation.return").one()
    assert ret.actor == "测试组委会" and ret.before == {"status": "submitted"} and ret.at.tzinfo is not None


# --- substitutions ----------------------------------------------------------------------------------
def test_substitution_window_edges_and_approval(svc, actor, db):
    from portal.audit.models import AuditLog
    d = stored(svc, actor, nmsg19())
    newcomer = reg("n1", name="王五")
    early = svc.request_substitution(d, "chess.MI", "p1", newcomer, "伤病", actor, at("2019-08-31T23:59:59+08:00"))
    assert not early.ok  # before the names deadline: edit directly
    ok = svc.request_substitution(d, "chess.MI", "p1", newcomer, "伤病", actor, at("2019-10-31T23:59:59+08:00"))
    assert ok.ok and ok.status == "pending"
    closed = svc.request_substitution(d, "chess.MI", "p2", reg("n2"), "伤病", actor, at("2019-11-01T00:00:00+08:00"))
    assert [v.code for v in closed.violations] == ["CHANGE_WINDOW_CLOSED"]
    from portal.workflow.models import Substitution
    sub = db.session.query(Substitution).one()
    assert svc.decide_substitution(sub, True, actor, at("2019-11-02T09:00:00+08:00")).ok
    from portal.delegations.services import export_document
    after = export_document(d)
    assert after["entries"][0]["people"] == ["n1", "p2"]
    assert "p1" not in [p["ref"] for p in after["people"]]
    assert db.session.query(AuditLog).filter_by(action="substitution.approve").count() == 1


def test_a_substitution_is_judged_as_the_delegation_would_be(svc, actor, db):
    d = stored(svc, actor, nmsg19())
    woman = reg("n1", "F")
    out = svc.request_substitution(d, "chess.MI", "p1", woman, "伤病", actor, at("2019-10-01T10:00:00+08:00"))
    assert not out.ok and [v.code for v in out.violations if v.is_error] == ["GENDER_NOT_ALLOWED"]


def test_youth_gomoku_change_fee_and_two_day_freeze(svc, actor, db):
    from portal.money.models import LedgerEntry
    kid = person("k1", "M", "2006-01-01", unit="tianjin", docs=("photo", "id_copy"))
    d = doc("youth-gomoku-2015", unit={"name": "南开少儿棋校", "kind": "school"}, people=[kid],
            entries=[individual("gomoku.MCA", "k1")])
    dl = svc.import_document(games("youth-gomoku-2015"), d, at("2015-07-01T10:00:00+08:00"), actor).delegation
    new_kid = person("k2", "M", "2007-03-03", unit="tianjin", docs=("photo", "id_copy"))
    late = svc.request_substitution(dl, "gomoku.MCA", "k1", new_kid, "生病", actor, at("2015-07-13T00:00:00+08:00"))
    assert [v.code for v in late.violations] == ["CHANGE_WINDOW_CLOSED"]
    ok = svc.request_substitution(dl, "gomoku.MCA", "k1", new_kid, "生病", actor, at("2015-07-12T23:59:59+08:00"))
    assert ok.ok
    from portal.workflow.models import Substitution
    sub = db.session.query(Substitution).one()
    assert not svc.decide_substitution(sub, False, actor, at("2015-07-13T09:00:00+08:00"), "").ok
    assert svc.decide_substitution(sub, True, actor, at("2015-07-13T09:00:00+08:00")).ok
    charge = db.session.query(LedgerEntry).filter_by(delegation_id=dl.id, kind="charge", fee_code="change").one()
    from decimal import Decimal
    assert charge.amount == Decimal("50.00") and charge.fee_code == "change"


# --- withdrawals and sanctions -----------------------------------------------------------------
@pytest.fixture
def next_nmsg(db, tmp_path):
    """A second edition of the nmsg series (the fixture of 2009 as edition 2)."""
    from portal.config import FIXTURES
    from portal.games.services import load_games
    data = yaml.safe_load((FIXTURES / "games" / "nmsg-2009.yaml").read_text(encoding="utf-8"))
    data.update(slug="nmsg-2013", edition=2)
    data["stages"] = {"declaration_closes": dt.datetime(2013, 6, 1, tzinfo=CHINA),
                      "names_closes": dt.datetime(2013, 9, 1, tzinfo=CHINA)}
    path = tmp_path / "nmsg-2013.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    g = load_games(str(path))
    yield g
    db.session.delete(g)
    db.session.commit()


def gomoku09(unit="zhejiang"):
    people = [person("m1", "M", "1990-01-01", unit=unit, year=2009, docs=("insurance_proof",))]
    return doc("nmsg-2009", unit=unit, people=people, entries=[individual("gomoku.MI", "m1")])


def test_unexcused_withdrawal_after_names_deadline_carries_to_next_edition(svc, actor, db, next_nmsg, judge):
    from portal.delegations.services import check_document
    from portal.workflow.models import Sanction
    d = stored(svc, actor, gomoku09(), "2009-05-01T10:00:00+08:00")
    out = svc.withdraw(d, "gomoku.MI", False, actor, at("2009-09-10T10:00:00+08:00"), "无故")
    assert out.ok
    s = db.session.query(Sanction).one()
    assert (s.series, s.edition, s.unit_code, s.event_code) == ("nmsg", 2, "zhejiang", "gomoku.MI")
    entry = gomoku09()
    entry["games"] = "nmsg-2013"
    entry["people"][0]["registration"]["year"] = 2013
    rep, status = check_document(entry, at("2013-05-01T10:00:00+08:00"))
    assert "SANCTIONED" in [v["code"] for v in rep["violations"]]
    other = dict(entry, unit="jiangsu")
    other["people"] = [dict(entry["people"][0], registration={"unit": "jiangsu", "year": 2009})]
    rep, _ = check_document(other, at("2013-05-01T10:00:00+08:00"))
    assert "SANCTIONED" not in [v["code"] for v in rep["violations"]]


def test_excused_or_early_withdrawal_has_no_sanction(svc, actor, db):
    from portal.workflow.models import Sanction
    d = stored(svc, actor, gomoku09(), "2009-05-01T10:00:00+08:00")
    assert svc.withdraw(d, "gomoku.MI", True, actor, at("2009-09-10T10:00:00+08:00"), "地震").ok
    d2 = stored(svc, actor, gomoku09("jiangsu"), "2009-05-01T10:00:00+08:00")
    assert svc.withdraw(d2, "gomoku.MI", False, actor, at("2009-08-31T23:59:59+08:00")).ok
    assert db.session.query(Sanction).count() == 0


def test_withdraw_command(cli, db, svc, actor):
    stored(svc, actor, gomoku09(), "2009-05-01T10:00:00+08:00")
    r = cli.invoke(args=["delegation", "withdraw", "nmsg-2009", "zhejiang", "gomoku.MI", "--excused",
                         "--at", "2009-09-10T10:00:00+08:00"])
    assert r.exit_code == 0, r.output
    from portal.workflow.models import Sanction
    assert db.session.query(Sanction).count() == 0


def test_documents_can_be_added_after_approval_and_the_deadline(svc, actor, db):
    from portal.delegations.edit import add_document_kind
    from portal.delegations.services import export_document
    d = stored(svc, actor, nmsg19())
    assert svc.submit(d, actor, at("2019-08-01T10:00:00+08:00")).ok
    assert svc.approve(d, actor, at("2019-08-02T10:00:00+08:00")).ok
    out = svc.save(d, add_document_kind(export_document(d), "p1", "insurance_proof"), actor,
                   at("2019-11-07T10:00:00+08:00"))
    assert out.ok and d.status == "approved"
    assert "insurance_proof" in export_document(d)["people"][0]["documents"]
    changed = add_document_kind(export_document(d), "p1", "photo")
    changed["people"][0]["name"] = "改名"
    assert not svc.save(d, changed, actor, at("2019-11-07T10:00:00+08:00")).ok


def test_import_of_a_malformed_document_exits_2(cli, db, tmp_path):
    d = nmsg19()
    d["people"][0]["birth_date"] = "1995/5/5"
    path = tmp_path / "d.json"
    path.write_text(json.dumps(d, ensure_ascii=False), encoding="utf-8")
    result = cli.invoke(args=["delegation", "import", str(path), "--received-at", "2019-08-01T10:00:00+08:00"])
    assert result.exit_code == 2
    assert json.loads(result.output)["violations"][0]["path"] == "people[0].birth_date"


def test_an_empty_delegation_cannot_be_submitted(svc, actor, db):
    """Nothing declared and nobody entered: submitting is refused in plain words."""
    from portal.games.services import find_games
    d = svc.save(svc.new_delegation(find_games("nmsg-2019"), "hainan"), doc("nmsg-2019", unit="hainan"), actor,
                 at("2019-05-01T10:00:00+08:00")).delegation
    out = svc.submit(d, actor, at("2019-05-02T10:00:00+08:00"))
    assert not out.ok and "还没有报任何项目" in out.message[0] and d.status == "draft"

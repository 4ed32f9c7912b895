"""`flask --app app check` and `POST /api/v1/check`, on the real database."""
import json

import pytest
from builders import doc, individual, person, team

G = "nmsg-2019"


def reg(ref, gender="M", born="1995-05-05", **kw):
    return person(ref, gender, born, year=2019, **kw)


@pytest.fixture
def write(tmp_path):
    def _write(data, name="delegation.json"):
        path = tmp_path / name
        path.write_text(data if isinstance(data, str) else json.dumps(data, ensure_ascii=False), encoding="utf-8")
        return str(path)
    return _write


def run(cli, *args):
    result = cli.invoke(args=["check", *args])
    return result.exit_code, result.output


def test_clean_document_exits_0(cli, db, write):
    d = doc(G, people=[reg("p1")], entries=[individual("chess.MI", "p1")])
    code, out = run(cli, write(d), "--at", "2019-08-01T12:00:00+08:00")
    assert code == 0, out
    rep = json.loads(out)
    assert rep == {"games": G, "unit": "zhejiang", "ok": True, "errors": 0, "warnings": 0, "violations": []}


def test_errors_exit_1_with_the_spec_report(cli, db, write):
    people = [reg(f"p{i}", "F") for i in range(3, 7)]
    d = doc(G, people=people, entries=[individual("chess.WI", "p3", "p4", "p5", "p6")])
    code, out = run(cli, write(d), "--at", "2019-08-01T00:00:00+08:00")
    assert code == 1
    rep = json.loads(out)
    assert rep["ok"] is False and rep["errors"] == 1 and rep["warnings"] == 0
    v = rep["violations"][0]
    assert v["code"] == "QUOTA_EXCEEDED" and v["severity"] == "error" and v["event"] == "chess.WI"
    assert v["team"] is None and v["people"] == ["p3", "p4", "p5", "p6"]
    assert v["message"]["zh"] and v["message"]["en"]


def test_warnings_only_exit_0(cli, db, write):
    d = doc("nmsg-2009", people=[person("p1", "M")], entries=[individual("go.AMI", "p1")])
    code, out = run(cli, write(d), "--at", "2009-08-01T00:00:00+08:00")
    assert code == 0
    assert json.loads(out)["warnings"] == 1


def test_text_format_in_both_languages(cli, db, write):
    people = [reg(f"p{i}", "F") for i in range(4)]
    path = write(doc(G, people=people, entries=[individual("chess.WI", "p0", "p1", "p2", "p3")]))
    code, out = run(cli, path, "--format", "text", "--lang", "zh", "--at", "2019-08-01T00:00:00+08:00")
    assert code == 1 and "QUOTA_EXCEEDED" in out and "最多报 3 人" in out
    code, out = run(cli, path, "--format", "text", "--lang", "en", "--at", "2019-08-01T00:00:00+08:00")
    assert code == 1 and "at most 3 per unit" in out


def test_at_is_judged_to_the_second_in_any_offset(cli, db, write):
    path = write(doc(G, people=[reg("p1")], entries=[individual("chess.MI", "p1")], declarations=[]))
    assert run(cli, path, "--at", "2019-05-31T23:59:59+08:00")[0] == 0
    assert run(cli, path, "--at", "2019-06-01T00:00:00+08:00")[0] == 1
    assert run(cli, path, "--at", "2019-05-31T15:59:59Z")[0] == 0
    assert run(cli, path, "--at", "2019-05-31T16:00:00+00:00")[0] == 1


def test_not_json_exits_2_with_a_report(cli, db, write):
    code, out = run(cli, write("{not json", "bad.json"))
    assert code == 2
    rep = json.loads(out)
    assert rep["violations"][0]["code"] == "SCHEMA_INVALID"


def test_unknown_games_exits_2(cli, db, write):
    code, out = run(cli, write(doc("nmsg-2099")))
    assert code == 2
    v = json.loads(out)["violations"][0]
    assert v["code"] == "SCHEMA_INVALID" and v["path"] == "games"


def test_missing_file_is_a_one_line_error(cli, db):
    result = cli.invoke(args=["check", "/nonexistent/file.json"])
    assert result.exit_code == 2
    assert "Traceback" not in result.output


def test_bad_at_is_a_one_line_error(cli, db, write):
    code, out = run(cli, write(doc(G)), "--at", "yesterday")
    assert code == 2 and "Traceback" not in out


@pytest.mark.parametrize("mutate,path", [
    (lambda d: d["people"][0].update(birth_date="2005/3/2"), "people[0].birth_date"),
    (lambda d: d["people"][0].update(gender="male"), "people[0].gender"),
    (lambda d: d["entries"][0].update(people=["p1", "ghost"]), "entries[0].people[1]"),
    (lambda d: d["people"][0].pop("name"), "people[0].name"),
    (lambda d: d.update(people="everyone"), "people"),
    (lambda d: d["people"][0].update(id_number=330102199505051234), "people[0].id_number"),
    (lambda d: d.update(unit="atlantis"), "unit"),
    (lambda d: d["declarations"][0].update(count="four"), "declarations[0].count"),
    (lambda d: d["people"][0].update(university={"code": "4133010335", "full_time": "yes"}),
     "people[0].university.full_time"),
])
def test_malformed_documents_name_the_field(cli, db, write, mutate, path):
    d = doc(G, people=[reg("p1")], entries=[individual("chess.MI", "p1")])
    mutate(d)
    code, out = run(cli, write(d), "--at", "2019-08-01T00:00:00+08:00")
    assert code == 1, out
    rep = json.loads(out)
    paths = [v.get("path") for v in rep["violations"] if v["code"] == "SCHEMA_INVALID"]
    assert path in paths, rep["violations"]
    assert "Traceback" not in out


def test_check_writes_nothing(cli, db, write):
    from portal.delegations.models import Delegation
    before = db.session.query(Delegation).count()
    run(cli, write(doc(G, people=[reg("p1")], entries=[individual("chess.MI", "p1")])))
    assert db.session.query(Delegation).count() == before


def test_duplicate_against_a_stored_delegation(cli, db, write):
    from portal.delegations.models import Delegation
    from portal.delegations.services import replace_contents
    from portal.games.services import find_games
    from portal.rules import parse_document
    shared = reg("p1")
    other = doc(G, unit="beijing", people=[dict(shared, registration={"unit": "beijing", "year": 2019})],
                entries=[individual("chess.MI", "p1")])
    games = find_games(G)
    stored = Delegation(games=games, unit_code="beijing")
    db.session.add(stored)
    replace_contents(stored, parse_document(other)[0])
    db.session.commit()
    code, out = run(cli, write(doc(G, people=[shared], entries=[individual("chess.MI", "p1")])),
                    "--at", "2019-08-01T00:00:00+08:00")
    rep = json.loads(out)
    assert code == 1 and [v["code"] for v in rep["violations"]] == ["DUPLICATE_PERSON"]
    assert "北京市" in rep["violations"][0]["message"]["zh"]
    # The same unit re-checking its own stored delegation is not a duplicate of itself.
    code, out = run(cli, write(other), "--at", "2019-08-01T00:00:00+08:00")
    assert code == 0, out


def test_api_check(client, db):
    d = doc(G, people=[reg(f"p{i}", "F") for i in range(4)],
            entries=[individual("chess.WI", "p0", "p1", "p2", "p3")])
    r = client.post("/api/v1/check?at=2019-08-01T00:00:00%2B08:00", json=d)
    assert r.status_code == 200
    assert r.json["ok"] is False and r.json["violations"][0]["code"] == "QUOTA_EXCEEDED"
    r = client.post("/api/v1/check", data="nope", content_type="application/json")
    assert r.status_code == 400 and r.json["violations"][0]["code"] == "SCHEMA_INVALID"


def test_export_round_trip(db):
    from portal.delegations.models import Delegation
    from portal.delegations.services import export_document, replace_contents
    from portal.games.services import find_games
    from portal.rules import parse_document
    people = [reg("m1"), reg("m2"), reg("m3"), reg("m4"), reg("w1", "F", fide_rating={"value": 2455, "list": "2019-01-01"})]
    d = doc(G, people=people, entries=[team("chess.MTR", ("m1", 1), ("m2", 2), ("m3", 3), ("m4", "R")),
                                       individual("chess.MI", "m1", "w1")],
            officials=[{"person": "m4", "role": "leader_coach", "sport": "chess"}])
    stored = Delegation(games=find_games(G), unit_code="zhejiang")
    db.session.add(stored)
    replace_contents(stored, parse_document(d)[0])
    db.session.commit()
    out = export_document(stored)
    assert parse_document(out)[1] == []
    assert out["entries"] == d["entries"]
    assert out["people"][4]["fide_rating"] == {"value": 2455, "list": "2019-01-01"}

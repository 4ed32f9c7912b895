"""Loading fixtures: idempotent, and a bad fixture is refused with file, path and problem."""
import pytest
import yaml

from portal.config import FIXTURES


def test_every_games_is_loaded_with_the_spec_slugs(cli, db):
    out = cli.invoke(args=["games", "list"]).output
    for slug in ("nmsg-2009", "youth-gomoku-2015", "shaanxi-mind-2025", "nmsg-2019"):
        assert slug in out


def test_reload_is_idempotent(cli, db):
    from portal.games.models import Event, Games
    before = (db.session.query(Games).count(), db.session.query(Event).count())
    result = cli.invoke(args=["games", "load", "nmsg-2019"])
    assert result.exit_code == 0, result.output
    assert (db.session.query(Games).count(), db.session.query(Event).count()) == before


@pytest.mark.parametrize("change,where", [
    (lambda f: f["rules"][3].update(max=-1), "rules[3].max"),
    (lambda f: f["events"][0].update(gender="Q"), "events[0].gender"),
    (lambda f: f["rules"].append({"kind": "quota", "events": ["chess.NOPE"], "max": 1}), "rules[18].events"),
    (lambda f: f["rules"].append({"kind": "levitation"}), "rules[18]"),
    (lambda f: f["stages"].update(names_closes="2019-09-01T00:00:00"), "stages.names_closes"),
])
def test_bad_fixture_is_refused_with_its_path(cli, db, tmp_path, change, where):
    data = yaml.safe_load((FIXTURES / "games" / "nmsg-2019.yaml").read_text(encoding="utf-8"))
    change(data)
    bad = tmp_path / "bad.yaml"
    bad.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    result = cli.invoke(args=["games", "load", str(bad)])
    assert result.exit_code == 2
    assert str(bad) in result.output and where in result.output, result.output
    assert "Traceback" not in result.output


def test_universities_import_refuses_a_bad_file(cli, db, tmp_path):
    bad = tmp_path / "u.csv"
    bad.write_text("code,name,province_code,city,governing_body,level,ownership\n"
                   "4111010001,北京大学,11,北京市,教育部,undergraduate,public\n"
                   "41110X,某大学,11,北京市,教育部,undergraduate,public\n", encoding="utf-8")
    result = cli.invoke(args=["universities", "import", str(bad)])
    assert result.exit_code == 2 and "row 3, column code" in result.output
    from portal.games.models import University
    assert db.session.query(University).count() > 2000  # nothing changed

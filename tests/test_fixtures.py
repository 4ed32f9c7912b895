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


def test_a_bad_fixture_is_refused_in_the_terminals_language(cli, db, tmp_path, monkeypatch):
    data = yaml.safe_load((FIXTURES / "games" / "nmsg-2019.yaml").read_text(encoding="utf-8"))
    typo, rating = tmp_path / "typo.yaml", tmp_path / "rating.yaml"
    data["rules"].append({"kind": "rating", "events": ["chess.MI"], "list": "elo-mars", "min_rating": 1800})
    rating.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")  # a check of the whole definition
    data["rules"][3]["maxx"] = 3
    typo.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")  # pydantic's own
    monkeypatch.delenv("LC_ALL", raising=False)
    monkeypatch.delenv("LC_MESSAGES", raising=False)
    monkeypatch.setenv("LANG", "en_US.UTF-8")
    english = cli.invoke(args=["games", "load", str(typo)]).output + cli.invoke(args=["games", "load", str(rating)]).output
    assert "rules[3].maxx: unknown key 'maxx'" in english and "没有这一项" not in english, english
    assert "rules[18].list: unknown rating list 'elo-mars'" in english and "等级分名单" not in english, english
    monkeypatch.setenv("LANG", "zh_CN.UTF-8")
    chinese = cli.invoke(args=["games", "load", str(typo)]).output + cli.invoke(args=["games", "load", str(rating)]).output
    assert "rules[3].maxx: 没有这一项" in chinese and "unknown key" not in chinese, chinese
    assert "rules[18].list: 没有“elo-mars”这个等级分名单" in chinese and "unknown rating" not in chinese, chinese

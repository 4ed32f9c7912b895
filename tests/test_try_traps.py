"""Try the rules shows what the rules will do (issue 37, 7): each Games' sample delegation
is built to satisfy its rules, team-only Games too, so a clean Games shows no trap; a rule
set so that it refuses everyone it is about is named on the page, with its number."""
from __future__ import annotations

import pytest
from builders import account, logged_in


@pytest.fixture
def organiser(app, db):
    account("try-admin", "admin")
    db.session.commit()
    return logged_in(app, "try-admin")


@pytest.mark.parametrize("slug", ["nmsg-2009", "nmsg-2019", "youth-gomoku-2015", "shaanxi-mind-2025"])
def test_the_sample_of_each_games_trips_no_rule(app, organiser, slug):
    import json
    import re
    with app.app_context():
        page = organiser.get(f"/org/games/{slug}/try").get_data(as_text=True)
    assert 'id="rule-traps"' not in page, re.findall(r"<li><b>[^<]*</b>.*?</div>\s*<div>([^<]*)</div>", page, re.S)
    sample = json.loads(re.search(r'<textarea id="document"[^>]*>(.*?)</textarea>', page, re.S).group(1)
                        .replace("&#34;", '"').replace("&quot;", '"'))
    assert sample["entries"], "a sample with entries"


def test_a_rule_that_refuses_everyone_it_is_about_is_named(app, db, organiser):
    from portal.games.models import Games
    games = db.session.query(Games).filter_by(slug="nmsg-2019").one()
    rules = [dict(r) for r in games.definition["rules"]]
    index = next(i for i, r in enumerate(rules) if r["kind"] == "university")
    rules[index]["ownership"] = ["private"]  # chosen wrong: no public university's student may play
    games.definition = {**games.definition, "rules": rules}  # the conftest puts the fixture back
    import datetime as dt
    games.loaded_at = dt.datetime.now(dt.UTC)
    db.session.commit()
    with app.app_context():
        page = organiser.get("/org/games/nmsg-2019/try").get_data(as_text=True)
    assert 'id="rule-traps"' in page and f"第 {index + 1} 条规则" in page and "四(四)" in page
    assert f"/setup/rules/{index}" in page


def test_a_person_is_added_to_the_sample_in_a_form(app, organiser, no_csrf):
    """Issue 37, 4: the try page adds a person (and his entry) without editing JSON; an
    over-age child is then judged as the rules say."""
    import json
    import re
    with app.app_context():
        page = organiser.get("/org/games/youth-gomoku-2015/try").get_data(as_text=True)
        text = re.search(r'<textarea id="document"[^>]*>(.*?)</textarea>', page, re.S).group(1)
        text = text.replace("&#34;", '"').replace("&quot;", '"').replace("&amp;", "&")
        before = len(json.loads(text)["people"])
        r = organiser.post("/org/games/youth-gomoku-2015/try", data={
            "op": "add_person", "document": text, "add_name": "超龄选手", "add_gender": "M",
            "add_birth_date": "1990-01-01", "add_event": "gomoku.MCB"})
    page = r.get_data(as_text=True)
    text = re.search(r'<textarea id="document"[^>]*>(.*?)</textarea>', page, re.S).group(1)
    sample = json.loads(text.replace("&#34;", '"').replace("&quot;", '"').replace("&amp;", "&"))
    assert len(sample["people"]) == before + 1 and sample["people"][-1]["name"] == "超龄选手"
    assert any(e["event"] == "gomoku.MCB" and sample["people"][-1]["ref"] in e.get("people", [])
               for e in sample["entries"])
    assert 'id="try-result"' in page and "超龄选手" in page.split('id="try-result"', 1)[1].split("</section>", 1)[0]
    with app.app_context():
        bad = organiser.post("/org/games/youth-gomoku-2015/try", data={
            "op": "add_person", "document": json.dumps(sample, ensure_ascii=False), "add_birth_date": "明天"})
    assert "请填写出生日期" in bad.get_data(as_text=True)


def test_a_team_is_made_from_the_samples_people_in_a_form(app, organiser, no_csrf):
    """Issue 37, 4: the try page makes a team of the people ticked, boards in the order
    ticked; a team of two where the event takes four is judged as the rules say."""
    import json
    import re

    def sample_of(page):
        text = re.search(r'<textarea id="document"[^>]*>(.*?)</textarea>', page, re.S).group(1)
        return json.loads(text.replace("&#34;", '"').replace("&quot;", '"').replace("&amp;", "&"))
    with app.app_context():
        page = organiser.get("/org/games/nmsg-2019/try").get_data(as_text=True)
    assert 'id="add-team"' in page
    sample = sample_of(page)
    refs = [p["ref"] for p in sample["people"]][:2]
    with app.app_context():
        r = organiser.post("/org/games/nmsg-2019/try", data={
            "op": "add_team", "document": json.dumps(sample, ensure_ascii=False), "team_event": "chess.MTR",
            "team_label": "B", "team_members": refs})
    page = r.get_data(as_text=True)
    team = next(e for e in sample_of(page)["entries"] if e["event"] == "chess.MTR" and e["team"] == "B")
    assert [s["person"] for s in team["lineup"]] == refs and team["lineup"][0].get("board") == 1
    result = page.split('id="try-result"', 1)[1].split("</section>", 1)[0]
    assert "B 队" in result
    with app.app_context():
        bad = organiser.post("/org/games/nmsg-2019/try", data={
            "op": "add_team", "document": json.dumps(sample, ensure_ascii=False), "team_event": "chess.MTR"})
    assert "请勾选队员" in bad.get_data(as_text=True)


def test_a_units_total_is_no_trap_of_the_sample_but_a_player_cap_built_wrong_is(app, db, organiser):
    """每单位运动员总数不超过2人: the sample's size is the try page's own, not a person the
    rule refuses; a gender cap of none on an event of that gender refuses everyone in it."""
    from portal.games.models import Games
    games = db.session.query(Games).filter_by(slug="youth-gomoku-2015").one()
    rules = [dict(r) for r in games.definition["rules"]]
    rules.append({"kind": "quota", "per": "unit", "max": 2, "clause": "八(九)"})
    games.definition = {**games.definition, "rules": rules}  # the conftest puts the fixture back
    import datetime as dt
    games.loaded_at = dt.datetime.now(dt.UTC)
    db.session.commit()
    with app.app_context():
        page = organiser.get("/org/games/youth-gomoku-2015/try").get_data(as_text=True)
    assert 'id="rule-traps"' not in page
    rules.append({"kind": "quota", "events": ["gomoku.WJA"], "max": 2, "max_by_gender": {"F": 0}, "clause": "八(十)"})
    games.definition = {**games.definition, "rules": rules}
    games.loaded_at = dt.datetime.now(dt.UTC)
    db.session.commit()
    with app.app_context():
        page = organiser.get("/org/games/youth-gomoku-2015/try").get_data(as_text=True)
    assert 'id="rule-traps"' in page and f"第 {len(rules)} 条规则" in page and "八(十)" in page

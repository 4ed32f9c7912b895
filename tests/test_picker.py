"""Line-up and entry pickers offer only people who may enter the event (issue 10): gender
(with the rating exception), age bracket, and for a team whose members must play the
matching individual event, an entry there."""
import datetime as dt

from builders import _definition, account, doc, individual, logged_in, person

CHINA = dt.timezone(dt.timedelta(hours=8))


def _gomoku():
    return doc("youth-gomoku-2015", unit={"name": "河西棋院", "kind": "club"}, people=[
        person("b", "M", "2006-06-06", name="王小明"), person("g", "F", "2006-07-07", name="李小红"),
        person("old", "M", "2001-01-01", name="赵大"), person("g2", "F", "2007-03-03", name="孙小丽"),
        person("tiny", "F", "2009-09-09", name="周小小")],
        entries=[individual("gomoku.MCA", "b"), individual("gomoku.WCA", "g"), individual("gomoku.MJA", "old")])


def test_individual_events_offer_the_right_gender_and_age():
    from portal.rules.eligibility import eligible
    definition = _definition("youth-gomoku-2015")
    assert eligible(definition, _gomoku(), "gomoku.MCA") == {"b"}  # 赵大 is too old, the girls are girls
    assert eligible(definition, _gomoku(), "gomoku.WCA") == {"g", "g2"}  # 周小小 is of the B group
    assert eligible(definition, _gomoku(), "gomoku.WCB") == {"tiny"}


def test_a_team_offers_only_the_entrants_of_its_individual_events():
    """youth-gomoku-2015 八(六)2: the team is scored from the unit's individual entrants of
    the group: 孙小丽 is of the age but not entered in 女子儿童甲组."""
    from portal.rules.eligibility import eligible
    assert eligible(_definition("youth-gomoku-2015"), _gomoku(), "gomoku.TCA") == {"b", "g"}


def test_a_rated_woman_is_offered_for_the_mens_event():
    """nmsg-2019: women rated 2450 or more on the 2019-01-01 list may enter men's events."""
    from portal.rules.eligibility import eligible
    document = doc("nmsg-2019", people=[
        person("m", "M", "1990-01-01"), person("w", "F", "1992-02-02", fide_rating={"value": 2480, "list": "2019-01-01"}),
        person("w2", "F", "1992-02-02", fide_rating={"value": 2480, "list": "2018-12-01"}),
        person("w3", "F", "1993-03-03", fide_rating={"value": 2300, "list": "2019-01-01"})])
    assert eligible(_definition("nmsg-2019"), document, "chess.MI") == {"m", "w"}
    assert eligible(_definition("nmsg-2019"), document, "chess.WI") == {"w", "w2", "w3"}


def test_the_search_endpoint_suggests_only_eligible_people(app, db):
    from portal.audit.services import Actor
    from portal.games.services import find_games
    from portal.workflow import services as svc
    out = svc.save(svc.new_delegation(find_games("youth-gomoku-2015"), {"name": "河西棋院", "kind": "club"}),
                   _gomoku(), Actor("t"), dt.datetime(2015, 7, 1, tzinfo=CHINA))
    assert out.ok, out.violations
    db.session.commit()
    account("pick-leader", "leader", delegation=out.delegation, name="领队")
    client = logged_in(app, "pick-leader", "password-123")
    with app.app_context():
        team = client.get(f"/d/{out.delegation.id}/people/search?event=gomoku.TCA&q=").get_json()
        named = client.get(f"/d/{out.delegation.id}/people/search?event=gomoku.WCA&q=孙").get_json()
        anyone = client.get(f"/d/{out.delegation.id}/people/search?q=").get_json()
    assert sorted(r["label"].split("（")[0] for r in team) == ["李小红", "王小明"]
    assert [r["label"].split("（")[0] for r in named] == ["孙小丽"]
    assert len(anyone) == 5

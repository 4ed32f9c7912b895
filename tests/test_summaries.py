"""The organisers' pages read each delegation's stored summary (issue 27, 1): a view judges
only the delegations whose judgement can have moved since the last one (its own save, an
identity number shared with another delegation, a deadline passing), and never the Games
again for a save elsewhere."""
import datetime as dt

from builders import account, doc, individual, logged_in, person

CHINA = dt.timezone(dt.timedelta(hours=8))
MAY = dt.datetime(2019, 5, 20, tzinfo=CHINA)


def _games_page(app, client):
    with app.app_context():
        response = client.get("/org/games/nmsg-2019")
        assert response.status_code == 200
        return response.get_data(as_text=True)


def test_a_view_judges_only_what_a_write_touched(app, db, monkeypatch):
    from portal.audit.services import Actor
    from portal.delegations import summary
    from portal.games.services import find_games
    from portal.workflow.services import new_delegation, save
    monkeypatch.setitem(app.config, "FIXED_NOW", MAY)
    games = find_games("nmsg-2019")
    units = ("hunan", "hubei", "henan", "hebei")
    delegations = {u: save(new_delegation(games, u), doc("nmsg-2019", unit=u, people=[
        person("p1", year=2019, unit=u, born=f"199{i}-03-0{i + 1}")], entries=[individual("chess.MI", "p1")]),
        Actor("t"), MAY).delegation for i, u in enumerate(units)}
    account("sum-org", "organiser", games=["nmsg-2019"])
    db.session.commit()
    judged: list[list[str]] = []
    real = summary.judge_many

    def counting(games, stale, at, reveal=False):
        judged.append(sorted(d.unit_code for d in stale))
        return real(games, stale, at, reveal)
    monkeypatch.setattr(summary, "judge_many", counting)
    org = logged_in(app, "sum-org")
    _games_page(app, org)
    assert judged == [sorted(units)]  # the first view judges every delegation once
    _games_page(app, org)
    assert judged[1:] == []  # the next, none

    # One delegation saves (a second athlete): only it is judged again.
    save(delegations["hunan"], doc("nmsg-2019", unit="hunan", people=[
        person("p1", year=2019, unit="hunan", born="1990-03-01"), person("p2", year=2019, unit="hunan", born="1995-07-07")],
        entries=[individual("chess.MI", "p1", "p2")]), Actor("t"), MAY)
    db.session.commit()
    _games_page(app, org)
    assert judged[1:] == [["hunan"]]

    # Hubei takes Henan's athlete's identity number: both are judged, and both show it.
    from portal.delegations.judged import stored_document
    twin = stored_document(delegations["henan"])["people"][0]
    save(delegations["hubei"], doc("nmsg-2019", unit="hubei", people=[
        {**person("p1", year=2019, unit="hubei"), "id_number": twin["id_number"], "birth_date": twin["birth_date"]}],
        entries=[individual("chess.MI", "p1")]), Actor("t"), MAY)
    db.session.commit()
    page = _games_page(app, org)
    assert judged[2:] == [["henan", "hubei"]]
    errors = summary.summaries(games, [delegations[u] for u in units], MAY)
    assert errors[delegations["henan"].id].by_rule.get("DUPLICATE_PERSON") == [1, 0]
    assert errors[delegations["hunan"].id].errors == 0 and "DUPLICATE_PERSON" not in page

    # The declaration deadline passes: every judgement can move, so every one is judged.
    monkeypatch.setitem(app.config, "FIXED_NOW", dt.datetime(2019, 6, 2, tzinfo=CHINA))
    _games_page(app, org)
    assert judged[3:] == [sorted(units)]


def test_the_queue_says_how_many_errors_each_waiting_entry_has(app, db, monkeypatch):
    from portal.audit.services import Actor
    from portal.games.services import find_games
    from portal.workflow.services import new_delegation, save, submit
    monkeypatch.setitem(app.config, "FIXED_NOW", MAY)
    games = find_games("nmsg-2019")
    clean = save(new_delegation(games, "hunan"), doc("nmsg-2019", unit="hunan", people=[
        person("p1", year=2019, unit="hunan")], entries=[individual("chess.MI", "p1")]), Actor("t"), MAY).delegation
    assert submit(clean, Actor("t"), MAY).ok
    account("sum-q", "organiser", games=["nmsg-2019"])
    db.session.commit()
    with app.app_context():
        page = logged_in(app, "sum-q").get("/org/queue").get_data(as_text=True)
    assert "报名待审核" in page and '<span class="badge ok">没有错误</span>' in page

"""A refused set-up save comes back with everything typed (issue 37, 3): the committee
corrects the one field, nothing is typed twice."""
from __future__ import annotations

from builders import account, logged_in


def _setup(app, db):
    account("typed-admin", "admin")
    db.session.commit()
    admin = logged_in(app, "typed-admin")
    with app.app_context():
        assert admin.post("/org/games/new", data={"slug": "typed-2028", "name_zh": "打字赛", "start": "2028-05-01",
                                                  "end": "2028-05-03"}).status_code == 302
    return admin


def test_a_refused_basics_save_keeps_what_was_typed(app, db, no_csrf):
    admin = _setup(app, db)
    with app.app_context():
        r = admin.post("/org/games/typed-2028/setup/basics", data={
            "name_zh": "2028年全国象棋锦标赛", "name_en": "2028 National Xiangqi Championships", "series": "typed",
            "edition": "3", "venue_zh": "杭州", "venue_en": "Hangzhou", "start": "2028-05-10", "end": "2028-05-01"})
    page = r.get_data(as_text=True)
    assert r.status_code == 422
    for typed in ('value="2028年全国象棋锦标赛"', 'value="2028 National Xiangqi Championships"', 'value="杭州"',
                  'value="2028-05-10"', 'value="2028-05-01"', 'value="3"'):
        assert typed in page, typed


def test_a_refused_events_save_keeps_every_row_and_box(app, db, no_csrf):
    admin = _setup(app, db)
    form = {"sport_code_0": "xiangqi", "sport_zh_0": "象棋", "sport_en_0": "Xiangqi",
            "event_code_0": "xiangqi.MI", "event_sport_0": "xiangqi", "event_zh_0": "男子个人", "event_en_0": "Men",
            "event_gender_0": "M", "event_kind_0": "individual",
            "event_code_1": "xiangqi.WI", "event_sport_1": "xiangqi", "event_zh_1": "女子个人", "event_en_1": "Women",
            "event_gender_1": "F", "event_kind_1": "individual", "event_sessions_1": "明天下午"}
    with app.app_context():
        r = admin.post("/org/games/typed-2028/setup/events", data=form)
    page = r.get_data(as_text=True)
    assert r.status_code == 422
    for typed in ('value="xiangqi"', 'value="象棋"', 'value="xiangqi.MI"', 'value="女子个人"', 'value="明天下午"'):
        assert typed in page, typed
    with app.app_context():
        r = admin.post("/org/games/typed-2028/setup/stages", data={"names_closes_day": "2028-04-20",
                                                                   "names_closes_hour": "25:00",
                                                                   "changes_need_approval": "on"})
    page = r.get_data(as_text=True)
    assert r.status_code == 422 and 'value="25:00"' in page and 'value="2028-04-20"' in page
    assert 'name="changes_need_approval" checked' in page  # ticked as it was sent, though stored unticked

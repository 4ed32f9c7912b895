"""A blank Games says nothing its regulation did not say (issue 37, 5): no kind of unit
ticked, changes not taken to need approval, and while nobody may enter the set-up page
says so."""
from __future__ import annotations

import re

from builders import account, logged_in


def test_a_blank_games_ticks_nothing_and_warns_that_nobody_may_enter(app, db, no_csrf):
    account("blank-admin", "admin")
    db.session.commit()
    admin = logged_in(app, "blank-admin")
    with app.app_context():
        r = admin.post("/org/games/new", data={"slug": "blank-2028", "name_zh": "空白赛", "start": "2028-05-01",
                                               "end": "2028-05-02"})
        assert r.status_code == 302, r.get_data(as_text=True)[:500]
        page = admin.get("/org/games/blank-2028/setup").get_data(as_text=True)
    assert not re.search(r'name="unit_kinds" value="[a-z_]+" checked', page)
    assert not re.search(r'name="changes_need_approval" checked', page)
    assert 'id="nobody-may-enter"' in page
    with app.app_context():
        r = admin.post("/org/games/blank-2028/setup/participation", data={"unit_kinds": ["province"]},
                       follow_redirects=True)
    assert 'id="nobody-may-enter"' not in r.get_data(as_text=True)

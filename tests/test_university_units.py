"""A university added on the units page is its own students' unit (issue 37, 2): found on
the national list by its name or code, it sends its own students; one that is not on the
list is refused at the upload, not left to refuse every student later."""
from __future__ import annotations

import datetime as dt
import io

from builders import account, doc, individual, logged_in, person

CHINA = dt.timezone(dt.timedelta(hours=8))


def _upload(app, client, text):
    with app.app_context():
        return client.post("/org/units", data={"file": (io.BytesIO(text.encode()), "units.csv")},
                           content_type="multipart/form-data")


def test_a_university_unit_sends_its_own_students(app, db, no_csrf):
    from portal.delegations.services import judge
    from portal.games.models import Unit
    from portal.games.services import find_games
    from portal.rules import parse_document
    account("uni-admin", "admin")
    db.session.commit()
    admin = logged_in(app, "uni-admin")
    refused = _upload(app, admin, "单位名称,类别\n北京大学,高校\n北京野鸡大学,高校\n")
    page = refused.get_data(as_text=True)
    assert refused.status_code == 422 and "“北京野鸡大学”不在教育部高校名单中" in page
    db.session.rollback()
    assert db.session.query(Unit).filter_by(name_zh="北京大学").count() == 0  # all or nothing
    assert _upload(app, admin, "单位名称,类别,单位代码\n北京大学,高校,\n复旦,高校,4131010246\n").status_code == 302
    db.session.rollback()
    pku = db.session.query(Unit).filter_by(name_zh="北京大学").one()
    fudan = db.session.query(Unit).filter_by(code="4131010246").one()
    assert pku.universities == ["4111010001"] and pku.province_code == "11"
    assert fudan.universities == ["4131010246"]

    def ineligible(unit, code):
        p = person("u1", born="1999-01-01", year=2019, unit=unit,
                   university={"code": code, "full_time": True, "graduation_date": "2021-07-01"})
        d, problems = parse_document(doc("nmsg-2019", unit=unit, people=[p], entries=[individual("chess.UT", "u1")],
                                         declarations=[{"event": "chess.UT", "count": 1}]))
        assert problems == []
        return [v.zh for v in judge(find_games("nmsg-2019"), d, dt.datetime(2019, 8, 1, tzinfo=CHINA))
                if v.code == "UNIVERSITY_INELIGIBLE"]

    assert ineligible(pku.code, "4111010001") == []          # its own student
    assert "选派范围" in ineligible(pku.code, "4131010246")[0]  # another's

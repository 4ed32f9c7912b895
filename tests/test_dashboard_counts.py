"""The leader's first view counts people, not violations (issue 37, 9): nine children each
missing two documents are nine people lacking documents, not eighteen."""
from __future__ import annotations

import datetime as dt
import re

from builders import account, doc, individual, logged_in, person, stored

CHINA = dt.timezone(dt.timedelta(hours=8))


def test_people_lacking_documents_are_counted_once_each(app, db, monkeypatch):
    from portal.games.models import Games
    games = db.session.query(Games).filter_by(slug="youth-gomoku-2015").one()
    # A second documents rule, due at check-in: each child then breaks two rules.
    games.definition = {**games.definition, "rules": games.definition["rules"] + [
        {"kind": "documents", "clause": "十一(三)2", "documents": ["insurance_proof"], "who": "athletes",
         "due": "checkin"}]}  # the conftest puts the fixture back
    games.loaded_at = dt.datetime.now(dt.UTC)
    db.session.commit()
    kids = [person(f"k{i}", "M", f"200{i % 6 + 2}-03-0{i + 1}", unit="tianjin", name=f"孩子{i}") for i in range(3)]
    d = stored("youth-gomoku-2015", doc("youth-gomoku-2015", unit={"name": "红桥棋社", "kind": "club"}, people=kids,
                                         entries=[individual("gomoku.MCA", *[k["ref"] for k in kids])]),
               dt.datetime(2015, 7, 1, tzinfo=CHINA))
    account("count-leader", "leader", delegation=d)
    db.session.commit()
    monkeypatch.setitem(app.config, "FIXED_NOW", dt.datetime(2015, 7, 2, tzinfo=CHINA))
    with app.app_context():
        page = logged_in(app, "count-leader").get(f"/d/{d.id}").get_data(as_text=True)
    kpi = re.search(r'缺少材料的人员</div><div class="value">(\d+)</div>', page)
    assert kpi and kpi.group(1) == "3", kpi
    assert "3 人缺少材料" in page


def test_each_problem_names_its_clause(app, db):
    """Issue 37, 9: five men in chess.MI, where 五(二) allows four: the problem says 五(二)."""
    people = [person(f"p{i}", year=2019, name=f"棋手{i}") for i in range(1, 6)]
    d = stored("nmsg-2019", doc("nmsg-2019", people=people, entries=[individual("chess.MI", *[p["ref"] for p in people])]),
               dt.datetime(2019, 5, 1, tzinfo=CHINA))
    account("clause-leader", "leader", delegation=d)
    db.session.commit()
    with app.app_context():
        page = logged_in(app, "clause-leader").get(f"/d/{d.id}").get_data(as_text=True)
    problem = page[page.index('class="v error"'):]
    problem = problem[:problem.index("</div>\n</div>")]
    # the clause named, and linked to its place in the regulation's text (issue 36, 7)
    assert f'<a class="badge clause" href="/d/{d.id}/regulation#clause-五(二)" title="看规程原文">规程 五(二)</a>' in problem

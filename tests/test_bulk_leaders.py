"""Leader accounts for many units at once (issue 10): a pasted list or a sheet, every line
checked before anything is created, each account with its invitation link."""
import io

import pytest
from builders import account, logged_in
from openpyxl import Workbook

# These tests post the pages' forms without their CSRF tokens (CSRF: tests/security).
pytestmark = pytest.mark.usefixtures("no_csrf")


def _organiser(app):
    account("bulk-org", "organiser", name="组委会")
    return logged_in(app, "bulk-org")


def test_a_bad_line_creates_nothing_and_keeps_the_text(app, db, monkeypatch):
    from sqlalchemy import func, select

    from portal.accounts.models import User
    client = _organiser(app)
    text = "zhejiang, 王明\n江苏省, 李华, js-leader\n火星省, 张三\n"
    before = db.session.scalar(select(func.count()).select_from(User))
    with app.app_context():
        r = client.post("/org/accounts/bulk", data={"games": "nmsg-2009", "lines": text})
    page = r.get_data(as_text=True)
    assert r.status_code == 422 and "第 3 行" in page and "火星省" in page
    assert "zhejiang, 王明" in page  # what was typed is kept
    db.session.rollback()
    assert db.session.scalar(select(func.count()).select_from(User)) == before


def test_many_units_at_once_each_with_its_link(app, db, monkeypatch):
    from sqlalchemy import select

    from portal.accounts.models import User
    client = _organiser(app)
    wb = Workbook()
    ws = wb.active
    ws.append(["单位", "领队姓名", "用户名"])
    ws.append(["zhejiang", "王明", None])
    ws.append(["江苏省", "李华", "js-leader"])
    ws.append(["shanghai", "赵六", ""])
    out = io.BytesIO()
    wb.save(out)
    with app.app_context():
        r = client.post("/org/accounts/bulk", data={"games": "nmsg-2009", "lines": "",
                                                    "file": (io.BytesIO(out.getvalue()), "leaders.xlsx")},
                        content_type="multipart/form-data")
    page = r.get_data(as_text=True)
    assert r.status_code == 200, page[page.find("<main>"):][:1500]
    assert page.count("/invite/") >= 6 and "js-leader" in page and "nmsg-2009-zhejiang" in page
    db.session.rollback()
    users = {u.username: u for u in db.session.scalars(select(User).where(User.role == "leader"))}
    assert users["js-leader"].delegation.unit_code == "jiangsu"
    assert users["nmsg-2009-shanghai"].display_name == "赵六"
    assert users["nmsg-2009-zhejiang"].password_hash is None  # waits for the invitation

"""Bombs on the set-up and import pages (issue 38, 7; issue 42, 3): one archive and size
check before any parsing or storing, for every upload and every YAML the portal reads."""
from __future__ import annotations

import io
import time
import zipfile

import pytest
from builders import account, logged_in

from security.attack import post

ALIAS_BOMB = "\n".join(["a: &a [x, x, x, x, x, x, x, x, x]"] +
                       [f"{chr(98 + i)}: &{chr(98 + i)} [*{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, "
                        f"*{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}]"
                        for i in range(8)])


def _zip(members: dict[str, bytes]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in members.items():
            z.writestr(name, data)
    return out.getvalue()


@pytest.fixture(scope="module")
def xlsx_bomb() -> bytes:
    """A small .xlsx whose one sheet is 40 MB unpacked."""
    sheet = b'<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>' + \
        b'<row><c t="inlineStr"><is><t>x</t></is></c></row>' * 800_000 + b"</sheetData></worksheet>"
    data = _zip({"[Content_Types].xml": b"<Types/>", "xl/workbook.xml": b"<workbook/>",
                 "xl/worksheets/sheet1.xml": sheet})
    assert len(data) < 400_000
    return data


@pytest.fixture
def admin(app, db):
    account("bomb-admin", "admin")
    db.session.commit()
    return logged_in(app, "bomb-admin")


def _upload(app, client, url, data, name, **form):
    started = time.monotonic()
    r = post(app, client, url, data={**form, "file": (io.BytesIO(data), name)}, content_type="multipart/form-data")
    return r, time.monotonic() - started


def test_the_yaml_box_refuses_an_alias_bomb_before_storing_it(app, admin, no_csrf):
    from portal.extensions import db
    from portal.games.models import Games
    before = db.session.query(Games).filter_by(slug="nmsg-2019").one().definition
    started = time.monotonic()
    r = post(app, admin, "/org/games/nmsg-2019/setup/advanced", data={"advanced": ALIAS_BOMB})
    assert r.status_code == 422 and time.monotonic() - started < 5
    assert "其他设置的格式不对" in r.get_data(as_text=True)
    db.session.rollback()
    assert db.session.query(Games).filter_by(slug="nmsg-2019").one().definition == before


def test_games_load_refuses_an_alias_bomb_and_a_huge_file(app, cli, tmp_path):
    bomb = tmp_path / "bomb.yaml"
    bomb.write_text("slug: bomb-2027\n" + ALIAS_BOMB, encoding="utf-8")
    result = cli.invoke(args=["games", "load", str(bomb)])
    assert result.exit_code != 0 and "alias" in result.output
    huge = tmp_path / "huge.yaml"
    huge.write_text("slug: huge-2027\nnote: '" + "x" * 1_100_000 + "'\n", encoding="utf-8")
    result = cli.invoke(args=["games", "load", str(huge)])
    assert result.exit_code != 0 and "larger than" in result.output


@pytest.mark.parametrize("url, form", [
    ("/org/games/nmsg-2019/setup/invited-sheet", {}),
    ("/org/accounts/bulk", {"games": "nmsg-2019"}),
    ("/org/units", {}),
    ("/org/games/nmsg-2019/results/chess.MI", {}),
])
def test_a_workbook_bomb_is_refused_before_it_is_read(app, admin, no_csrf, xlsx_bomb, url, form):
    r, took = _upload(app, admin, url, xlsx_bomb, "名单.xlsx", **form)
    assert r.status_code in (200, 422) and took < 3, took
    assert "压缩比过高" in r.get_data(as_text=True)


def test_a_regulation_docx_bomb_is_refused(app, admin, no_csrf):
    body = b"<w:p><w:r><w:t>" + b"x" * 100 + b"</w:t></w:r></w:p>"
    docx = _zip({"[Content_Types].xml": b"<Types/>", "word/document.xml": b"<w:document><w:body>" + body * 250_000 +
                 b"</w:body></w:document>"})
    r, took = _upload(app, admin, "/org/games/nmsg-2019/setup/regulation-text", docx, "规程.docx")
    assert r.status_code == 422 and took < 3 and "压缩比过高" in r.get_data(as_text=True)


@pytest.mark.parametrize("url, form", [
    ("/org/games/nmsg-2019/setup/invited-sheet", {}),
    ("/org/accounts/bulk", {"games": "nmsg-2019"}),
    ("/org/units", {}),
])
def test_a_malformed_xls_is_a_clean_refusal(app, admin, no_csrf, url, form):
    junk = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\x00\x01garbage" * 200
    r, _took = _upload(app, admin, url, junk, "名单.xls", **form)
    assert r.status_code in (200, 422)
    assert "无法读取这个表格文件" in r.get_data(as_text=True)

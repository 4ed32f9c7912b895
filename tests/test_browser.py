"""The main paths in a real browser: Debian's Chromium driven by Playwright, against the
app served on localhost with the real database."""
import datetime as dt
import os
import re
import shutil
import threading

import pytest
from builders import account, id_for

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
pytestmark = pytest.mark.skipif(not os.path.exists(CHROMIUM) and not os.environ.get("CI"),
                                reason="Debian's chromium is not installed (the CI script installs it)")
CHINA = dt.timezone(dt.timedelta(hours=8))


@pytest.fixture
def server(app, db, monkeypatch):
    from werkzeug.serving import make_server
    monkeypatch.setitem(app.config, "FIXED_NOW", dt.datetime(2019, 5, 20, 10, 0, tzinfo=CHINA))
    srv = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{srv.server_port}"
    srv.shutdown()


@pytest.fixture
def browser():
    from playwright.sync_api import sync_playwright
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=[
            "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
            "--disable-component-update", "--disable-sync"])
        yield b
        b.close()


def login(page, base, username, password):
    page.goto(base + "/login")
    page.fill("#username", username)
    page.fill("#password", password)
    page.click("#login")


def test_invitation_declare_enter_fix_and_submit(server, browser, db):
    account("org", "organiser", password="organiser-pass-1", name="组委会")
    page = browser.new_page(viewport={"width": 1366, "height": 768})
    page.on("dialog", lambda dialog: dialog.accept())  # the confirmations before submit, approve, delete

    # The organiser creates the unit's account and hands over the one-time link.
    login(page, server, "org", "organiser-pass-1")
    page.goto(server + "/org/accounts")
    page.select_option("#games", "nmsg-2019")
    page.select_option("#unit", "anhui")
    page.fill("#username", "anhui-leader")
    page.fill("#display_name", "安徽 领队")
    page.click("button[type=submit] >> text=创建并生成邀请链接")
    link = page.inner_text("#invite-link")
    page.click("text=退出")

    # The leader sets his password through the link and lands on his dashboard.
    page.goto(link)
    page.fill("#password", "yellow-mountain-pine-19")
    page.fill("#confirm", "yellow-mountain-pine-19")
    page.click("text=设置并登录")
    assert "安徽省" in page.inner_text("h1")
    assert "第一次报名" in page.content()

    # Declaration: events and numbers.
    page.click("text=报项")
    page.fill("input[name='count-chess.MI']", "2")
    page.fill("input[name='count-chess.BI']", "1")
    page.click("text=保存报项")
    assert "已保存报项" in page.content()

    # Names: the ID number first; birth date and gender come from it.
    page.click(".tabs >> text=人员")
    page.click("#add-person")
    page.wait_for_load_state("load")  # the form's script (idnumber.js) has run: a busy CI is slow to it
    number = id_for("1996-04-12", "M", "340102")
    page.fill("#id_number", number)
    assert page.input_value("#birth_date") == "1996-04-12"
    assert page.input_value("#gender") == "M"
    page.fill("#name", "汪洋")
    page.fill("#registration_unit", "anhui")
    page.fill("#registration_year", "2019")
    page.click("#save-person")
    assert "已保存 汪洋" in page.content()
    assert number not in page.content()  # masked in the list
    # The save answered with the list itself, whose address is now the list's: reloading
    # shows the list again (the message was shown once), it does not save again.
    page.wait_for_url(re.compile(r".*/d/\d+/people$"))  # address.js, once the page has loaded
    assert page.locator("tr.just-saved").get_attribute("id") == "person-p1"  # his row, marked
    page.reload()
    assert "汪洋" in page.content() and "已保存 汪洋" not in page.content()

    # Enter him, born in 1996, in the boys' (youth) event by mistake: the portal says so at once.
    page.click("text=报名与组队")
    block = page.locator("#event-chess-BI")
    picker = block.locator("input[name=add]").first
    # The picker offers only who may enter (he is too old for it), but a name typed in
    # full is taken, and judged.
    picker.fill("汪洋")
    block.locator("text=保存此项目").click()
    assert "AGE_BRACKET" in page.inner_text("aside.problems")
    assert "不在国际象棋少年男子个人" in page.inner_text("aside.problems")
    page.goto(server + page.url.split(server)[1].split("#")[0].replace("/entries", ""))
    assert page.is_disabled("#submit-delegation")

    # Fix it: out of the youth event, into the men's.
    page.click("text=报名与组队")
    block = page.locator("#event-chess-BI")
    block.locator("input[type=checkbox]").first.uncheck()
    with page.expect_navigation():  # the saved page, before typing into its picker (not the old one's)
        block.locator("text=保存此项目").click()
    block = page.locator("#event-chess-MI")
    picker = block.locator("input[name=add]").first
    picker.fill("汪")  # here he may play: the picker suggests him as one types
    page.wait_for_function("() => document.querySelector('#event-chess-MI input[name=add]').list"
                           " && document.querySelector('#event-chess-MI input[name=add]').list.options.length > 0")
    picker.fill(page.evaluate("document.querySelector('#event-chess-MI input[name=add]').list.options[0].value"))
    block.locator("text=保存此项目").click()
    assert "没有发现问题" in page.inner_text("aside.problems")

    page.click(".tabs >> text=概览")
    page.click("#submit-delegation")
    assert "报名已提交" in page.content()


def test_excel_upload_with_an_error_then_a_good_one(server, browser, db, tmp_path):
    from builders import doc
    from openpyxl import load_workbook

    from portal.audit.services import Actor
    from portal.games.services import find_games
    from portal.workflow.services import new_delegation, save
    d = save(new_delegation(find_games("nmsg-2019"), "fujian"), doc("nmsg-2019", unit="fujian"),
             Actor("t"), dt.datetime(2019, 5, 1, tzinfo=CHINA)).delegation
    account("fujian-leader", "leader", delegation=d, password="fujian-pass-1", name="福建 领队")
    page = browser.new_page(viewport={"width": 1366, "height": 768})
    page.on("dialog", lambda dialog: dialog.accept())  # the confirmations before submit, approve, delete
    login(page, server, "fujian-leader", "fujian-pass-1")
    page.click("text=Excel / JSON")
    with page.expect_download() as dl:
        page.click("text=下载 Excel 报名表")
    path = tmp_path / "form.xlsx"
    dl.value.save_as(path)

    wb = load_workbook(path)
    ws = wb["人员"]
    ws.append(["p1", "林峰", "M", "1997/13/40", "resident_id", id_for("1997-03-03", "M", "350102"), "fujian", 2019])
    wb["报项"].append(["chess.MI", "", 1])
    wb["个人项目"].append(["chess.MI", "p1"])
    bad = tmp_path / "bad.xlsx"
    wb.save(bad)
    page.set_input_files("#file", str(bad))
    page.click("#upload-file")
    problems = page.inner_text("#upload-problems")
    assert "人员!D2" in problems and "1997/13/40" in problems

    ws["D2"] = "1997-03-03"
    good = tmp_path / "good.xlsx"
    wb.save(good)
    page.set_input_files("#file", str(good))
    page.click("#upload-file")
    assert "林峰" in page.inner_text("#upload-diff")
    page.click("#confirm-upload")
    assert "已按上传的文件更新报名" in page.content()
    page.click(".tabs >> text=人员")
    assert "林峰" in page.content()


def test_an_individual_registers_himself_for_shaanxi(server, browser, app, db, monkeypatch):
    monkeypatch.setitem(app.config, "FIXED_NOW", dt.datetime(2025, 9, 10, 10, 0, tzinfo=CHINA))
    page = browser.new_page(viewport={"width": 1366, "height": 768})
    page.on("dialog", lambda dialog: dialog.accept())  # the confirmations before submit, approve, delete
    page.goto(server + "/login")
    page.click("text=个人报名：2025陕西省第二届智力运动会五子棋比赛")
    page.fill("#id_number", id_for("1990-02-02", "F", "610102"))
    page.fill("#name", "秦岭")
    page.fill("#club", "安康棋院")
    page.fill("#username", "qinling")
    page.fill("#password", "south-river-stone-25")
    page.fill("#confirm", "south-river-stone-25")
    page.click("#register")
    # The answer at once, from the arrival ticket; the page moves on when the worker has made the account.
    assert "您在 160 个名额之内" in page.content() or "报名成功" in page.content()
    page.wait_for_selector("text=报名成功", timeout=20000)
    assert "DOCUMENT_MISSING" in page.inner_text("aside.problems")  # documents due at check-in: warnings
    page.click(".tabs >> text=费用")
    assert "100.00" in page.inner_text("main")  # the deposit


def test_organiser_returns_with_a_reason_then_approves(server, browser, app, db, monkeypatch):
    from builders import doc, individual, person

    from portal.audit.services import Actor
    from portal.games.services import find_games
    from portal.workflow.services import import_document
    monkeypatch.setitem(app.config, "FIXED_NOW", dt.datetime(2019, 8, 20, 10, 0, tzinfo=CHINA))
    d = import_document(find_games("nmsg-2019"), doc("nmsg-2019", unit="gansu",
                        people=[person("p1", year=2019, unit="gansu", name="马骏")], entries=[individual("chess.MI", "p1")]),
                        dt.datetime(2019, 8, 10, tzinfo=CHINA), Actor("t")).delegation
    account("org2", "organiser", password="organiser-pass-2", name="组委会")
    account("gansu-l", "leader", delegation=d, password="gansu-pass-1", name="甘肃 领队")
    page = browser.new_page(viewport={"width": 1366, "height": 768})
    page.on("dialog", lambda dialog: dialog.accept())  # the confirmations before submit, approve, delete
    login(page, server, "org2", "organiser-pass-2")
    page.click("header >> text=待办")
    assert "甘肃省" in page.inner_text("main")
    page.click("main a.btn >> text=审核")
    page.select_option("#item", "person:p1")
    page.fill("#reason", "请补充马骏的注册证明")
    page.click("text=退回并说明理由")
    assert "已退回" in page.content()
    page.click("text=退出")

    login(page, server, "gansu-l", "gansu-pass-1")
    assert "请补充马骏的注册证明" in page.inner_text("main")
    page.click("#submit-delegation")
    assert "报名已提交" in page.content()
    page.click("text=退出")

    login(page, server, "org2", "organiser-pass-2")
    page.goto(f"{server}/org/d/{d.id}")
    page.click("#approve")
    page.wait_for_selector(".flash.success")  # the POST's redirect has landed
    assert "已批准" in page.content()
    assert "批准了甘肃省的报名" in page.inner_text("main")  # in the audit trail on the page, as a sentence


def _y4m_of_qr(text: str, path) -> None:
    """A short video (YUV4MPEG2, what Chromium's fake camera plays) showing the QR code of
    `text`, as a phone held over a card would see it."""
    from PIL import Image
    from reportlab.graphics.barcode import qrencoder
    qr = qrencoder.QRCode(None, qrencoder.QRErrorCorrectLevel.M)
    qr.addData(text)
    qr.make()
    n, cell, w, h = qr.getModuleCount(), 6, 640, 480
    im = Image.new("RGB", (w, h), "white")
    x0, y0 = (w - n * cell) // 2, (h - n * cell) // 2
    px = im.load()
    for r in range(n):
        for c in range(n):
            if qr.isDark(r, c):
                for dy in range(cell):
                    for dx in range(cell):
                        px[x0 + c * cell + dx, y0 + r * cell + dy] = (0, 0, 0)
    y, cb, cr = im.convert("YCbCr").split()
    planes = y.tobytes() + cb.resize((w // 2, h // 2)).tobytes() + cr.resize((w // 2, h // 2)).tobytes()
    with open(path, "wb") as f:
        f.write(f"YUV4MPEG2 W{w} H{h} F10:1 Ip A1:1 C420jpeg\n".encode())
        for _ in range(10):
            f.write(b"FRAME\n" + planes)


def test_the_desk_scans_a_card_with_the_camera(server, db, tmp_path):
    """A phone or laptop camera at the desk, no install: Chromium's fake camera plays a card's
    QR code; jsQR (vendored) reads it and the page shows the person (headless Chromium on
    Linux has no BarcodeDetector, so this is the fallback path)."""
    from builders import doc, individual, person
    from playwright.sync_api import sync_playwright

    from portal.audit.services import Actor
    from portal.games.services import find_games
    from portal.venue.cards import card_code
    from portal.workflow import services as svc
    games = find_games("shaanxi-mind-2025")
    out = svc.import_document(games, doc("shaanxi-mind-2025", unit=None, people=[
        person("p1", "F", "1990-03-03", unit="shaanxi", docs=("photo",), name="上官婉")],
        entries=[individual("gomoku.OPEN", "p1")]), dt.datetime(2025, 9, 1, tzinfo=CHINA), Actor("t"))
    assert svc.approve(out.delegation, Actor("组委会"), dt.datetime(2025, 9, 2, tzinfo=CHINA)).ok
    db.session.commit()
    account("cam-org", "organiser", password="organiser-pass-1", name="报到台")
    video = tmp_path / "card.y4m"
    _y4m_of_qr(card_code(out.delegation.id, "p1"), video)
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=[
            "--no-sandbox", "--disable-gpu", "--use-fake-ui-for-media-stream", "--use-fake-device-for-media-stream",
            f"--use-file-for-fake-video-capture={video}"])
        try:
            context = b.new_context(viewport={"width": 390, "height": 800})
            context.grant_permissions(["camera"], origin=server)
            page = context.new_page()
            login(page, server, "cam-org", "organiser-pass-1")
            page.goto(server + "/org/scan")
            native = page.evaluate("'BarcodeDetector' in window")
            page.click("#scan-camera")
            page.wait_for_selector("#scan-result", timeout=15000)
            result = page.inner_text("#scan-result")
        finally:
            b.close()
    assert "有效" in result and "上官婉" in result
    assert not native  # so it was jsQR that read it: Chromium on Linux has no BarcodeDetector


def test_the_register_button_waits_for_the_opening_and_then_registers(server, browser, app, db, monkeypatch, tmp_path):
    """An entrant fills the form in before 12:00; the button counts down by the portal's
    clock, not the browser's (here the portal stands in 2025, the browser does not), and
    becomes the button at the opening; what he typed is still there and is answered."""
    from pathlib import Path

    import yaml

    from portal.games.services import load_games
    data = yaml.safe_load((Path(app.root_path).parent / "fixtures/games/shaanxi-mind-2025.yaml").read_text(encoding="utf-8"))
    data.update(slug="noon-browser-2025", name={"zh": "2025年正午公开赛", "en": "2025 Noon Open"})
    data["stages"]["entries_open"] = "2025-09-01T12:00:00+08:00"
    path = tmp_path / "noon.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    with app.app_context():
        load_games(str(path))
    monkeypatch.setitem(app.config, "FIXED_NOW", dt.datetime(2025, 9, 1, 11, 59, 57, tzinfo=CHINA))
    from test_accessibility import _violations
    page = browser.new_page(viewport={"width": 390, "height": 844}, bypass_csp=True)
    page.goto(server + "/register/noon-browser-2025")
    assert "2025-09-01 12:00" in page.inner_text("#opens-at")
    assert page.is_disabled("#register") and "距报名开始" in page.inner_text("#register")
    assert _violations(page) == []  # the page as it waits, counting down
    assert page.evaluate("document.documentElement.scrollWidth - window.innerWidth") <= 1
    page.fill("#id_number", id_for("1991-03-03", "M", "610102"))
    page.fill("#name", "华山")
    page.fill("#username", "huashan")
    page.fill("#password", "north-peak-stone-31")
    page.fill("#confirm", "north-peak-stone-31")
    page.wait_for_selector("#register:not([disabled])", timeout=10000)
    assert page.inner_text("#register").strip() == "报名"
    monkeypatch.setitem(app.config, "FIXED_NOW", dt.datetime(2025, 9, 1, 12, 0, 1, tzinfo=CHINA))
    page.click("#register")
    page.wait_for_selector("#arrival", timeout=10000)
    assert "华山" in page.content() or "名额" in page.content()

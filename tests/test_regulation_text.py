"""The regulation's own text kept with its Games (issue 26, 2): pasted or read from Word,
PDF or text, cut into its clauses, each addressable, and each rule's clause linked to it."""
import io

from builders import account, csrf_token, logged_in

from portal.config import FIXTURES
from portal.rules.clauses import refs_in, split


def test_a_chinese_regulation_cut_into_its_clauses():
    text = (FIXTURES / "regulations" / "004_ba775f31493fcc02.txt").read_text("utf-8")
    clauses = {c.ref: c.text for c in split(text) if c.ref}
    assert clauses["四"] == "四、参赛资格"
    assert clauses["四(二)"].startswith("(二) 国际等级分在2450以上的女棋手可参加男子项目的比赛")
    assert clauses["四(四)4"].startswith("4.参赛棋手应为全日制高等院校在读学生")
    assert refs_in("五(一)、五(三)") == ["五(一)", "五(三)"]
    assert refs_in("五子棋 四(二)1") == ["四(二)1"]
    assert refs_in("十一（三）1") == ["十一(三)1"]


def test_every_numbering_real_regulations_use(app):
    """Issue 37, 6: 第X条 articles, (1) and ① below 1．, each with the reference a rule cites."""
    text = ("2027年全国大学生象棋锦标赛竞赛规程\n第一条 主办单位\n第二条 参赛资格\n一、参赛单位\n（一）各省区市\n"
            "1．男子组\n(1) 本科生\n① 须为全日制\n② 须有学籍\n（2）研究生\n2、女子组\n")
    assert [(c.ref, c.level) for c in split(text)] == [
        (None, 0), ("第一条", 1), ("第二条", 1), ("一", 1), ("一(一)", 2), ("一(一)1", 3), ("一(一)1(1)", 4),
        ("一(一)1(1)①", 5), ("一(一)1(1)②", 5), ("一(一)1(2)", 4), ("一(一)2", 3)]
    assert refs_in("第二条、一(一)1") == ["第二条", "一(一)1"]


def _post(app, client, url, data, page):
    with app.app_context():
        token = csrf_token(client.get(page).get_data(as_text=True))
    with app.app_context():
        return client.post(url, data={"csrf_token": token, **data}, content_type="multipart/form-data")


def test_the_fixture_regulation_is_shown_with_each_rule_linked_to_its_clause(app, db):
    from portal.games.services import find_games, load_games
    with app.app_context():
        account("rt-org", "organiser", games=["nmsg-2019"])
        db.session.commit()
        load_games("nmsg-2019")  # as `flask games load` does: the fixture names its regulation's file
        assert find_games("nmsg-2019").regulation_text.startswith("第四届全国智力运动会国际象棋竞赛规程")
    client = logged_in(app, "rt-org")
    with app.app_context():
        page = client.get("/org/games/nmsg-2019/regulation").get_data(as_text=True)
    assert 'id="clause-五(二)"' in page and "男子个人每单位可报4名男棋手" in page
    assert 'href="#clause-五(二)"' in page  # the quota rules link to their clause


def test_a_regulation_uploaded_as_word_or_text_and_a_bad_file_refused(app, db):
    from docx import Document

    from portal.extensions import db as _db
    from portal.games.models import Games
    with app.app_context():
        account("root3", "admin", name="管理员")
        _db.session.commit()
    admin = logged_in(app, "root3")
    r = _post(app, admin, "/org/games/new", {"slug": "wz-go-2027", "name_zh": "温州市围棋锦标赛",
                                             "start": "2027-05-01", "end": "2027-05-02"}, "/org/games/new")
    assert r.status_code == 302
    setup = "/org/games/wz-go-2027/setup"
    document = Document()
    for line in ("温州市围棋锦标赛竞赛规程", "一、参加办法", "（一）每单位限报男子4人。", "1. 须为本市注册棋手。"):
        document.add_paragraph(line)
    buffer = io.BytesIO()
    document.save(buffer)
    r = _post(app, admin, "/org/games/wz-go-2027/setup/regulation-text",
              {"file": (io.BytesIO(buffer.getvalue()), "规程.docx")}, setup)
    assert r.status_code == 302
    with app.app_context():
        text = _db.session.query(Games).filter_by(slug="wz-go-2027").one().regulation_text
    assert "（一）每单位限报男子4人。" in text
    assert [c.ref for c in split(text) if c.ref] == ["一", "一(一)", "一(一)1"]
    # A text file as Chinese Windows saves it.
    r = _post(app, admin, "/org/games/wz-go-2027/setup/regulation-text",
              {"file": (io.BytesIO("一、竞赛时间\n二、竞赛地点".encode("gb18030")), "规程.txt")}, setup)
    assert r.status_code == 302
    with app.app_context():
        assert _db.session.query(Games).filter_by(slug="wz-go-2027").one().regulation_text.endswith("二、竞赛地点")
    # A damaged Word file: refused, the file named, the text kept.
    r = _post(app, admin, "/org/games/wz-go-2027/setup/regulation-text",
              {"file": (io.BytesIO(b"PK\x03\x04 not really"), "坏文件.docx")}, setup)
    assert r.status_code == 422 and "无法读取“坏文件.docx”" in r.get_data(as_text=True)
    with app.app_context():
        assert _db.session.query(Games).filter_by(slug="wz-go-2027").one().regulation_text.endswith("二、竞赛地点")

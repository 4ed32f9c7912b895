"""The set-up screens offer every kind of the player across Games as a form (issue 36):
a grade range chosen from the Games' grade systems, a qualification, required officials,
a residence; and the award kinds that earn something beyond the Games."""
from builders import account, logged_in
from test_setup_screens import _games, _get, _post

KINDS = ("grade", "rating", "residence", "nationality", "qualified", "officials_required", "employment", "joint_team")


def test_every_new_kind_has_its_form_and_a_grade_range_is_saved_and_read_back(app, db):
    with app.app_context():
        account("root", "admin", name="管理员")
        db.session.commit()
    admin = logged_in(app, "root")
    made = _post(app, admin, "/org/games/new", {"slug": "go-grades-2026", "name_zh": "2026年围棋段级位赛",
                                                "name_en": "2026 Go grading", "copy_of": "youth-gomoku-2015",
                                                "years_later": "11"})
    assert made.status_code == 302
    rules = "/org/games/go-grades-2026/setup/rules/new?kind="
    for kind in KINDS:
        page = _get(app, admin, rules + kind)
        assert page.status_code == 200, kind
    form = _get(app, admin, rules + "grade").get_data(as_text=True)
    # the system is chosen from the Games' own, named in words, never typed
    assert '<select id="p_system"' in form and '<option value="cwa" >中国围棋协会业余段级位</option>' in form
    r = _post(app, admin, rules + "grade", {"op": "save", "p_events": ["gomoku.MJA"], "p_system": "cwa",
                                           "p_lowest": "1级", "p_highest": "业余5段", "p_held_on": "2026-06-30",
                                           "p_clause": "四(二)"})
    assert r.status_code == 302, r.get_data(as_text=True)[:2000]
    readback = _get(app, admin, "/org/games/go-grades-2026/regulation").get_data(as_text=True)
    assert "限中国围棋协会业余段级位1级至业余5段的选手，以2026年6月30日前获得的段级位（称号）为准" in readback
    # a grade the ladder does not have is refused, the accepted ones named
    r = _post(app, admin, rules + "grade", {"op": "save", "p_events": ["gomoku.MJA"], "p_system": "cwa",
                                           "p_lowest": "10段"})
    text = r.get_data(as_text=True)
    assert r.status_code == 422 and "最低段级位：“10段”不是中国围棋协会业余段级位中的等级，可选：25级" in text and "业余8段" in text
    with app.app_context():
        assert _games("go-grades-2026").status == "draft"


def test_the_award_kinds_that_earn_beyond_the_games_have_their_forms(app, db):
    with app.app_context():
        account("root", "admin", name="管理员")
        db.session.commit()
    admin = logged_in(app, "root")
    assert _post(app, admin, "/org/games/new", {"slug": "qual-grades-2026", "name_zh": "资格赛", "name_en": "Qualifier",
                                                "copy_of": "youth-gomoku-2015", "years_later": "11"}).status_code == 302
    for kind in ("qualifies", "grade_by_place", "promotion_by_record", "federation_points"):
        page = _get(app, admin, f"/org/games/qual-grades-2026/setup/list/awards/new?kind={kind}")
        assert page.status_code == 200, kind
    # the grade system chosen by its name there too
    page = _get(app, admin, "/org/games/qual-grades-2026/setup/list/awards/new?kind=grade_by_place").get_data(as_text=True)
    assert '<option value="cxa" >中国象棋协会等级称号</option>' in page
    # the sanctions' ladder of forfeits a table of rows, its sanction chosen; the explanation a document kind
    page = _get(app, admin, "/org/games/qual-grades-2026/setup/settings/sanctions").get_data(as_text=True)
    assert 'name="p_forfeits_0_count"' in page and '<option value="barred_next_edition" >取消下一届参赛资格</option>' in page
    assert '<select id="p_explanation"' in page
    r = _post(app, admin, "/org/games/qual-grades-2026/setup/settings/sanctions",
              {"op": "save", "p_notice_hours": "24", "p_forfeits_0_count": "1", "p_forfeits_0_sanction": "warning",
               "p_forfeits_1_count": "2", "p_forfeits_1_sanction": "barred_next_edition", "p_clause": "十(三)"})
    assert r.status_code == 302, r.get_data(as_text=True)[:1500]
    with app.app_context():
        from portal.games.services import definition_of
        sanctions = definition_of(_games("qual-grades-2026")).sanctions
        assert [(s.count, s.sanction) for s in sanctions.forfeits] == [(1, "warning"), (2, "barred_next_edition")]
        assert sanctions.notice_hours == 24


def test_a_joint_team_clause_is_set_up_on_its_form_and_read_back(app, db):
    with app.app_context():
        account("root", "admin", name="管理员")
        db.session.commit()
    admin = logged_in(app, "root")
    assert _post(app, admin, "/org/games/new", {"slug": "uni-joint-2026", "name_zh": "大学生赛", "name_en": "University",
                                                "copy_of": "youth-gomoku-2015", "years_later": "11"}).status_code == 302
    r = _post(app, admin, "/org/games/uni-joint-2026/setup/rules/new?kind=joint_team",
              {"op": "save", "p_needs_approval": "on", "p_max_institutions": "3", "p_within": "city", "p_clause": "四(三)"})
    assert r.status_code == 302, r.get_data(as_text=True)[:2000]
    readback = _get(app, admin, "/org/games/uni-joint-2026/regulation").get_data(as_text=True)
    assert "各项目：可与其他学校（单位）的运动员组成联队，至多 3 所（含本单位），限同一城市的高校，须经组委会批准" in readback

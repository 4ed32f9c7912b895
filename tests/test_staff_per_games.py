"""Staff per Games and day one of a real install (issue 26, 5 and 6): an administrator gives
each Games its staff, who see only those Games; `flask accounts create-admin` makes the first
administrator; a production start refuses while a demo password still opens an account."""
import datetime as dt
import os
import re
import subprocess
import sys
from pathlib import Path

from builders import account, csrf_token, doc, logged_in, person, stored

ROOT = Path(__file__).resolve().parent.parent
PASSWORD = "password-123"
WHEN = dt.datetime(2019, 5, 1, tzinfo=dt.UTC)


def _get(app, client, url):
    with app.app_context():  # a fresh `g` per request, as in production
        return client.get(url)


def _post(app, client, url, data):
    with app.app_context():
        token = csrf_token(client.get(url if "/games" not in url
                          else "/org/staff").get_data(as_text=True))
    with app.app_context():
        return client.post(url, data={"csrf_token": token, **data})


def test_an_administrator_gives_a_games_its_staff_who_see_that_games_only(app, db):
    from portal.accounts.models import GamesStaff, User
    from portal.audit.models import AuditLog
    with app.app_context():
        account("root", "admin", name="管理员")
        stored("nmsg-2019", doc("nmsg-2019", people=[person("p1", name="陈立", year=2019)]), WHEN)
        db.session.commit()
    admin = logged_in(app, "root")
    # No Games chosen for an organiser: refused, naming the field, nothing made.
    refused = _post(app, admin, "/org/staff", {"username": "wang", "display_name": "王老师", "role": "organiser"})
    assert refused.status_code == 422 and "请至少选择一届比赛" in refused.get_data(as_text=True)
    with app.app_context():
        assert db.session.query(User).filter_by(username="wang").count() == 0
    made = _post(app, admin, "/org/staff", {"username": "wang", "display_name": "王老师", "role": "organiser",
                                            "games": ["youth-gomoku-2015"]})
    page = made.get_data(as_text=True)
    assert made.status_code == 200
    link = re.search(r'<code id="invite-link">[^<]*(/invite/[^<]+)</code>', page).group(1)
    # The person sets the password through the link, as a leader does.
    invited = app.test_client()
    assert _post(app, invited, link, {"password": "quiet-river-stone-7", "confirm": "quiet-river-stone-7"}).status_code == 302
    with app.app_context():
        wang_id = db.session.query(User).filter_by(username="wang").one().id
        youth = db.session.execute(db.text("SELECT id FROM games WHERE slug = 'youth-gomoku-2015'")).scalar()
        assert [g.games_id for g in db.session.query(GamesStaff).filter_by(user_id=wang_id)] == [youth]
    wang = logged_in(app, "wang", password="quiet-river-stone-7")
    overview = _get(app, wang, "/org/").get_data(as_text=True)
    assert "2015年全国少年儿童五子棋锦标赛" in overview and "第四届全国智力运动会" not in overview
    assert _get(app, wang, "/org/games/nmsg-2019").status_code == 404
    assert _get(app, wang, "/org/games/youth-gomoku-2015").status_code == 200
    # Nor does the audit page's filter list the kinds of another Games' records (issue 38).
    with app.app_context():
        others = {a for (a,) in db.session.query(AuditLog.action).filter(AuditLog.delegation_id.isnot(None))}
    assert others
    audit = _get(app, wang, "/org/audit").get_data(as_text=True)
    assert [a for a in others if f'value="{a}"' in audit] == []
    assert any(f'value="{a}"' in _get(app, admin, "/org/audit").get_data(as_text=True) for a in others)
    # The administrator adds nmsg-2019: the next request sees it, and the change is audited.
    r = _post(app, admin, f"/org/staff/{wang_id}/games", {"games": ["youth-gomoku-2015", "nmsg-2019"]})
    assert r.status_code == 302
    assert _get(app, wang, "/org/games/nmsg-2019").status_code == 200
    with app.app_context():
        row = db.session.query(AuditLog).filter_by(action="account.games").one()
        assert row.before == {"games": ["youth-gomoku-2015"]}
        assert row.after == {"games": ["nmsg-2019", "youth-gomoku-2015"]}
    # Taking every Games away is refused: an account that sees nothing is a mistake.
    _post(app, admin, f"/org/staff/{wang_id}/games", {})
    with app.app_context():
        assert db.session.query(GamesStaff).filter_by(user_id=wang_id).count() == 2


def test_organisers_manage_the_leaders_of_their_own_games_only(app, db, no_csrf):
    with app.app_context():
        d = stored("nmsg-2019", doc("nmsg-2019"), WHEN)
        leader = account("zj-leader", "leader", delegation=d)
        account("gomoku-org", "organiser", games=["youth-gomoku-2015"])
        account("chess-org", "organiser", games=["nmsg-2019"])
        db.session.commit()
        leader_id = leader.id
    gomoku, chess = logged_in(app, "gomoku-org"), logged_in(app, "chess-org")
    assert "zj-leader" not in _get(app, gomoku, "/org/accounts").get_data(as_text=True)
    assert "zj-leader" in _get(app, chess, "/org/accounts").get_data(as_text=True)

    def post(client, url, data=None):
        with app.app_context():
            return client.post(url, data=data or {})
    assert post(gomoku, f"/org/accounts/{leader_id}/disable").status_code == 404
    assert post(gomoku, f"/org/accounts/{leader_id}/invite").status_code == 404
    # A leader's account is made only for a Games one serves.
    r = post(gomoku, "/org/accounts", {"games": "nmsg-2019", "unit": "jiangsu", "username": "js-leader",
                                       "display_name": "周华"})
    assert "/invite/" not in r.get_data(as_text=True)
    with app.app_context():
        from portal.accounts.models import User
        assert db.session.query(User).filter_by(username="js-leader").count() == 0
    assert post(chess, f"/org/accounts/{leader_id}/disable").status_code == 302


def test_create_admin_from_the_shell_with_a_password_or_an_invitation(app, db, cli, monkeypatch):
    from portal.accounts.models import User
    from portal.accounts.services import authenticate
    out = cli.invoke(args=["accounts", "create-admin", "first-admin", "--name", "系统管理员"],
                     input="tall-green-bamboo-42\ntall-green-bamboo-42\n")
    assert out.exit_code == 0, out.output
    with app.app_context():
        assert authenticate("first-admin", "tall-green-bamboo-42").role == "admin"
    weak = cli.invoke(args=["accounts", "create-admin", "weak-admin"], input="12345678901\n12345678901\n")
    assert weak.exit_code == 2 and "不能全是数字" in weak.output
    taken = cli.invoke(args=["accounts", "create-admin", "first-admin"], input="x\nx\n")
    assert taken.exit_code == 2 and "已被使用" in taken.output
    monkeypatch.setitem(app.config, "PUBLIC_URL", "https://bm.example.cn")
    invited = cli.invoke(args=["accounts", "create-admin", "second-admin", "--invite"])
    assert invited.exit_code == 0, invited.output
    link = re.search(r"https://bm\.example\.cn(/invite/\S+)", invited.output).group(1)
    with app.app_context():
        assert db.session.query(User).filter_by(username="second-admin").one().password_hash is None
        assert app.test_client().get(link).status_code == 200


def test_a_production_start_refuses_published_demo_passwords(app, db, cli, tmp_path):
    from portal.accounts.services import set_password
    from portal.audit.services import Actor
    from portal.demo import ACCOUNTS
    with app.app_context():
        username, name, role, password, _bind = ACCOUNTS[0]
        user = account(username, role, name=name, password=password)
        db.session.commit()
    out = cli.invoke(args=["accounts", "check-demo"])
    assert out.exit_code == 1 and username in out.output
    with app.app_context():
        from portal.db_tx import write_transaction
        with write_transaction():
            set_password(db.session.merge(user), "a-password-of-their-own-9", Actor("t"))
    db.session.rollback()  # the command runs in this test's session, whose read transaction began before
    again = cli.invoke(args=["accounts", "check-demo"])
    assert again.exit_code == 0, again.output


def test_gunicorn_will_not_serve_a_database_with_demo_passwords(tmp_path):
    path = tmp_path / "demo.db"
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{path}", "SECRET_KEY": "k", "PORTAL_SINGLE_NODE": "1",
           "INSTANCE_PATH": str(tmp_path / "instance"), "GUNICORN_BIND": "127.0.0.1:0"}
    env.pop("REDIS_URL", None)
    env.pop("PORTAL_DEMO", None)
    script = ("from portal import create_app\nfrom portal.extensions import db\nfrom portal.cli_support import ensure_schema\n"
              "app = create_app()\nwith app.app_context():\n    ensure_schema()\n"
              "    from portal.accounts.services import create_account\n    from portal.audit.services import Actor\n"
              "    create_account('zuweihui', 'x', 'organiser', Actor('t'), password='organiser-demo-2026')\n"
              "    db.session.commit()\n")
    subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=env, check=True, capture_output=True, timeout=120)
    out = subprocess.run([sys.executable, "-m", "gunicorn", "-c", "gunicorn.conf.py", "app:app"], cwd=ROOT,
                         env={**env, "PORTAL_SETUP_ON_START": "0"}, capture_output=True, text=True, timeout=120)
    assert out.returncode != 0
    assert "zuweihui" in out.stderr and "PORTAL_DEMO=1" in out.stderr, out.stderr[-2000:]


def test_staff_given_no_games_yet_are_told_so_not_shown_a_404(app, db):
    with app.app_context():
        account("new-acc", "accountant", games=[])
        db.session.commit()
    client = logged_in(app, "new-acc")
    page = _get(app, client, "/").get_data(as_text=True)
    assert "尚未为您指定比赛" in page and "工作人员" in page
    assert _get(app, client, "/money/").status_code == 404


def test_a_unit_another_games_uses_is_not_changed_by_this_games_organisers(app, db):
    import io

    from builders import csrf_token

    from portal.games.models import Unit
    db.session.add(Unit(code="hzqy", kind="city", name_zh="杭州棋院", name_en="Hangzhou Qiyuan", province_code="33",
                        governing_bodies=[], universities=[]))
    db.session.commit()
    stored("nmsg-2019", doc("nmsg-2019", unit="hzqy"), WHEN)
    account("gm-org", "organiser", games=["youth-gomoku-2015"])
    account("ch-org", "organiser", games=["nmsg-2019"])
    db.session.commit()

    def upload(client):
        with app.app_context():
            token = csrf_token(client.get("/org/units").get_data(as_text=True))
        with app.app_context():
            return client.post("/org/units", content_type="multipart/form-data", data={
                "csrf_token": token, "file": (io.BytesIO("单位名称,类别,所属省份,单位代码\n杭州市棋院,city,浙江省,hzqy\n".encode()),
                                              "units.csv")})
    try:
        refused = upload(logged_in(app, "gm-org"))
        assert refused.status_code == 422 and "第 2 行：“杭州棋院”" in refused.get_data(as_text=True)
        db.session.rollback()
        assert db.session.query(Unit).filter_by(code="hzqy").one().name_zh == "杭州棋院"
        assert upload(logged_in(app, "ch-org")).status_code == 302
        db.session.rollback()
        assert db.session.query(Unit).filter_by(code="hzqy").one().name_zh == "杭州市棋院"
    finally:
        from portal.delegations.models import Delegation
        for d in db.session.query(Delegation).filter_by(unit_code="hzqy"):
            db.session.delete(d)
        db.session.query(Unit).filter_by(code="hzqy").delete()
        db.session.commit()


def test_the_shell_speaks_the_terminals_language(app, db, cli, monkeypatch):
    """Issue 40 (1): one reader, one language, at the command line too (LANG)."""
    monkeypatch.delenv("LC_ALL", raising=False)
    monkeypatch.delenv("LC_MESSAGES", raising=False)
    monkeypatch.setenv("LANG", "en_GB.UTF-8")
    english = cli.invoke(args=["accounts", "unlock", "nobody-here"])
    assert english.exit_code == 2 and english.output.strip() == "no account named nobody-here"
    monkeypatch.setenv("LANG", "zh_CN.UTF-8")
    chinese = cli.invoke(args=["accounts", "unlock", "nobody-here"])
    assert chinese.exit_code == 2 and chinese.output.strip() == "没有用户名为 nobody-here 的账号"

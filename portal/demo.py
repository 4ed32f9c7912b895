"""Demo data: accounts for each role and a sample delegation with a few broken rules,
so that a newcomer sees the portal at work. Idempotent."""
from __future__ import annotations

import datetime as dt

from sqlalchemy import select

from .accounts.models import User
from .accounts.services import create_account, hash_password
from .audit.services import Actor
from .delegations.models import Delegation
from .extensions import db
from .games.models import Games
from .games.services import find_games
from .rules.idnumber import make
from .workflow.services import new_delegation, save

ACCOUNTS = [
    ("admin", "系统管理员", "admin", "admin-demo-2026", None),
    ("zuweihui", "组委会 王老师", "organiser", "organiser-demo-2026", None),
    ("caiwu", "财务 李会计", "accountant", "accountant-demo-2026", None),
    ("zhejiang", "浙江 领队 陈明", "leader", "leader-demo-2026", ("nmsg-2019", "zhejiang")),
    ("jiangsu", "江苏 领队 周华", "leader", "leader-demo-2026", ("nmsg-2019", "jiangsu")),
]


def accounts_with_published_passwords() -> list[str]:
    """The demo accounts that are active and still open with the password printed in the
    README and by `make run`: on a production database each is an open door."""
    from sqlalchemy import inspect
    from werkzeug.security import check_password_hash

    from .demo_season import published_passwords
    if not inspect(db.engine).has_table(User.__tablename__):
        return []  # no schema yet: no account at all
    found = []
    for username, password in [(a[0], a[3]) for a in ACCOUNTS] + published_passwords():
        user = db.session.scalar(select(User).where(User.username == username))
        if user is not None and user.active and user.password_hash and check_password_hash(user.password_hash, password):
            found.append(username)
    return found


def _person(ref, name, gender, born, seq, **extra):
    return {"ref": ref, "name": name, "gender": gender, "birth_date": born, "id_type": "resident_id",
            "id_number": make("330102", dt.date.fromisoformat(born), seq),
            "registration": {"unit": "zhejiang", "year": 2019}, "documents": [], **extra}


def sample_document() -> dict:
    people = [
        _person("p1", "陈立", "M", "1994-03-02", 11), _person("p2", "王浩", "M", "1996-07-19", 13),
        _person("p3", "李超", "M", "1998-11-30", 15), _person("p4", "赵磊", "M", "2000-01-05", 17),
        _person("p5", "孙婷", "F", "1997-04-21", 22), _person("p6", "周颖", "F", "1999-09-09", 24),
        _person("p7", "吴佳", "F", "2001-12-12", 26), _person("p8", "郑薇", "F", "1995-02-14", 28),
        _person("p9", "徐宁", "F", "1993-06-06", 30, fide_rating={"value": 2455, "list": "2019-01-01"}),
        _person("p10", "何俊", "M", "2006-05-05", 19, documents=["id_copy"]),
        _person("p11", "冯晓", "M", "2007-08-08", 21),
        _person("p20", "陈明", "M", "1975-10-10", 31),
    ]
    return {
        "format": "delegation/1", "games": "nmsg-2019", "unit": "zhejiang",
        "declarations": [{"event": "chess.MTR", "count": 4}, {"event": "chess.MI", "count": 4},
                         {"event": "chess.WI", "count": 3}, {"event": "chess.BI", "count": 2}],
        "people": people,
        "entries": [
            {"event": "chess.MTR", "team": "A", "lineup": [{"person": "p1", "board": 1}, {"person": "p9", "board": 2},
                                                          {"person": "p2", "board": 3}, {"person": "p3", "reserve": True}]},
            {"event": "chess.MI", "people": ["p1", "p2", "p4", "p9"]},
            # Four women where three are allowed: the quota rule shows.
            {"event": "chess.WI", "people": ["p5", "p6", "p7", "p8"]},
            # A youth player without his ID copy.
            {"event": "chess.BI", "people": ["p10", "p11"]},
        ],
        "officials": [{"person": "p20", "role": "leader_coach", "sport": "chess"}],
        "staff": [], "companions": [],
    }


def set_up(echo, more_accounts: list[str] = ()) -> None:
    actor = Actor("演示数据")
    for username, name, role, password, bind in ACCOUNTS:
        user = db.session.scalar(select(User).where(User.username == username))
        delegation = None
        if bind:
            games = find_games(bind[0])
            delegation = db.session.scalar(select(Delegation).where(Delegation.games_id == games.id,
                                                                    Delegation.unit_code == bind[1]))
            if delegation is None:
                doc = sample_document() if bind[1] == "zhejiang" else {
                    "format": "delegation/1", "games": bind[0], "unit": bind[1], "declarations": [],
                    "people": [], "entries": [], "officials": [], "staff": [], "companions": []}
                out = save(new_delegation(games, bind[1]), doc, actor,
                           dt.datetime(2019, 5, 20, 10, tzinfo=dt.timezone(dt.timedelta(hours=8))))
                delegation = out.delegation
        if user is None:
            # The demo's committee serves every Games loaded (a real one is given its own).
            create_account(username, name, role, actor, delegation=delegation, password=password,
                           games=db.session.scalars(select(Games)).all())
        else:
            user.password_hash, user.active = hash_password(password), True
            db.session.commit()
    echo("")
    echo("演示账号 Demo accounts (用户名 / 密码):")
    for username, name, role, password, bind in ACCOUNTS:
        where = f"  {bind[0]} {bind[1]}" if bind else ""
        echo(f"  {role:<10} {username:<10} {password:<22} {name}{where}")
    for line in more_accounts:
        echo(line)

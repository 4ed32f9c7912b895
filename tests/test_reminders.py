"""Deadline reminders and the organisers' digest (issue 24, 2) at fixed instants of the
clock: each threshold once, however often the scheduler runs; only delegations with work
left; never to a leader who turned them off; the digest once a day in the last week."""
import datetime as dt

from builders import account, doc, individual, person, stored

CHINA = dt.timezone(dt.timedelta(hours=8))


def _at(text):
    return dt.datetime.fromisoformat(text).replace(tzinfo=CHINA)


def _world(db):
    draft = stored("nmsg-2019", doc("nmsg-2019", unit="fujian", people=[person("p1", year=2019, unit="fujian", name="林一")],
                                    entries=[individual("chess.MI", "p1")]), _at("2019-05-01T10:00"))
    done = stored("nmsg-2019", doc("nmsg-2019", unit="jiangxi", people=[person("p1", year=2019, unit="jiangxi", name="黄一")],
                                   entries=[individual("chess.MI", "p1")]), _at("2019-05-01T10:00"))
    from portal.audit.services import Actor
    from portal.workflow.services import submit
    assert submit(done, Actor("t"), _at("2019-08-01T10:00")).ok
    fj = account("fj-leader", "leader", delegation=draft, name="林领队")
    jx = account("jx-leader", "leader", delegation=done, name="黄领队")
    fj.email, jx.email = "fj@example.cn", "jx@example.cn"
    org = account("rem-org", "organiser", games=["nmsg-2019"], name="组委会")
    org.email = "zuweihui@example.cn"
    db.session.commit()
    return draft, done


def _queued(db, kind):
    from portal.notify.models import OutboxMessage
    db.session.rollback()
    return db.session.query(OutboxMessage).filter_by(kind=kind).order_by(OutboxMessage.id).all()


def test_each_threshold_once_and_only_where_work_is_left(app, db, cli):
    from portal.db_tx import write_transaction
    from portal.workflow.reminders import due
    _world(db)

    def run(at):
        with write_transaction():
            return due(_at(at))
    assert run("2019-08-20T10:00")["reminders"] == 0  # names close 1 Sep 00:00: 12 days yet
    assert run("2019-08-25T09:00")["reminders"] == 1  # 7 days: the draft only (the other is submitted)
    assert run("2019-08-25T09:15")["reminders"] == 0  # cron again: nothing twice
    assert run("2019-08-31T01:00")["reminders"] == 1  # 1 day
    assert run("2019-08-31T21:30")["reminders"] == 1  # 3 hours
    assert run("2019-09-01T00:00")["reminders"] == 0  # closed
    messages = _queued(db, "reminder")
    assert [m.to_address for m in messages] == ["fj@example.cn"] * 3
    assert "第二次报名（人员名单）”将于 2019-09-01 00:00（北京时间）截止" in messages[0].body
    assert "- 报名尚未提交" in messages[0].body and "还剩不到 3 小时" in messages[2].body
    result = cli.invoke(args=["notify", "due", "--at", "2019-08-31T22:00:00+08:00"])
    assert result.exit_code == 0 and "queued 0 reminders" in result.output


def test_a_leader_who_turned_reminders_off_gets_none_but_still_gets_receipts(app, db, no_csrf):
    from builders import logged_in

    from portal.db_tx import write_transaction
    from portal.workflow.reminders import due
    draft, _done = _world(db)
    leader = logged_in(app, "fj-leader")
    with app.app_context():
        r = leader.post("/account/notifications", data={"email": "fj@example.cn"})  # the box left unticked
    assert r.status_code == 302
    with write_transaction():
        assert due(_at("2019-08-25T09:00"))["reminders"] == 0
    from portal.audit.services import Actor
    from portal.workflow.services import submit
    assert submit(draft, Actor("林领队"), _at("2019-08-26T10:00")).ok
    assert [m.to_address for m in _queued(db, "submitted")] == ["fj@example.cn"]


def test_the_organisers_get_one_digest_a_day_in_the_last_week(app, db):
    from portal.db_tx import write_transaction
    from portal.workflow.reminders import due
    _world(db)
    with write_transaction():
        assert due(_at("2019-08-20T08:00"))["digests"] == 0  # more than a week before
        assert due(_at("2019-08-28T08:00"))["digests"] == 1
        assert due(_at("2019-08-28T20:00"))["digests"] == 0  # the same day
        assert due(_at("2019-08-29T08:00"))["digests"] == 1
    first = _queued(db, "digest")[0]
    assert first.to_address == "zuweihui@example.cn" and first.subject.startswith("2019-08-28：2 个代表团中 1 个未提交")
    assert "未提交（1）：福建省" in first.body

"""The entrant cap under load: 300 registrations at once against 160 places
(shaanxi-mind-2025), on the file-backed SQLite database and on PostgreSQL."""
import datetime as dt
import threading
from concurrent.futures import ThreadPoolExecutor

from builders import doc, individual, person

DOCS = ("id_copy", "health_certificate", "insurance_proof", "safety_pledge")


def entrant(i):
    p = person("p1", "M" if i % 2 else "F", "1990-01-01", name=f"选手{i:03d}", docs=DOCS)
    return doc("shaanxi-mind-2025", unit=None, people=[p], entries=[individual("gomoku.OPEN", "p1")])


def test_300_at_once_give_160_accepted_and_140_waitlisted(app, db):
    from portal.audit.services import Actor
    from portal.delegations.models import Delegation
    from portal.games.services import find_games
    from portal.workflow.models import Place
    from portal.workflow.services import import_document, withdraw

    docs = [entrant(i) for i in range(300)]
    when = dt.datetime(2025, 9, 1, 12, 0, tzinfo=dt.timezone(dt.timedelta(hours=8)))
    # Ten at a time, fewer than the connection pool holds (5 + 10): a thread waiting for a
    # connection behind the cap's lock for 30 s would fail as the pool's timeout, not the cap.
    start = threading.Barrier(10)
    errors = []

    def register(i):
        if i < 10:
            start.wait()
        try:
            with app.app_context():
                out = import_document(find_games("shaanxi-mind-2025"), docs[i], when, Actor(f"entrant {i}"))
                return out.status, [v.code for v in out.violations]
        except Exception as exc:
            errors.append(repr(exc))
            return "error", []

    with ThreadPoolExecutor(max_workers=10) as pool:
        results = list(pool.map(register, range(300)))

    assert errors == []
    statuses = [s for s, _ in results]
    assert statuses.count("submitted") == 160
    assert statuses.count("waitlisted") == 140
    assert all(codes == ["CAPACITY_FULL"] for s, codes in results if s == "waitlisted")

    games = find_games("shaanxi-mind-2025")
    db.session.expire_all()
    accepted = db.session.query(Place).filter_by(games_id=games.id, status="accepted").count()
    assert accepted == 160
    first_waiting = (db.session.query(Place).filter_by(games_id=games.id, status="waitlisted")
                     .order_by(Place.seq).first())
    second_waiting = (db.session.query(Place).filter_by(games_id=games.id, status="waitlisted")
                      .order_by(Place.seq).offset(1).first())
    leaver = db.session.get(Delegation, db.session.query(Place).filter_by(
        games_id=games.id, status="accepted").first().delegation_id)
    out = withdraw(leaver, None, False, Actor("组委会"), dt.datetime(2025, 9, 5, tzinfo=dt.UTC))
    assert out.ok
    db.session.expire_all()
    assert db.session.query(Place).filter_by(games_id=games.id, status="accepted").count() == 160
    assert db.session.get(Place, first_waiting.id).status == "accepted"
    assert db.session.get(Delegation, first_waiting.delegation_id).status == "submitted"
    assert db.session.get(Place, second_waiting.id).status == "waitlisted"
    assert db.session.query(Place).filter_by(games_id=games.id, status="waitlisted").count() == 139


def test_two_tabs_cannot_both_save_on_the_same_version(app, db):
    """Per-unit quotas hold when several sessions change a delegation at once: the
    version check under the delegation's lock lets exactly one of them write."""
    from portal.audit.services import Actor
    from portal.delegations.models import Delegation
    from portal.games.services import find_games
    from portal.workflow.services import new_delegation, save

    base = doc("nmsg-2019", people=[person(f"w{i}", "F", year=2019) for i in range(6)],
               entries=[individual("chess.WI", "w0")])
    when = dt.datetime(2019, 5, 1, tzinfo=dt.UTC)
    out = save(new_delegation(find_games("nmsg-2019"), "zhejiang"), base, Actor("a"), when)
    d_id, version = out.delegation.id, out.delegation.version

    def add(i):
        with app.app_context():
            from portal.extensions import db as _db
            d = _db.session.get(Delegation, d_id)
            changed = dict(base, entries=[individual("chess.WI", "w0", f"w{i}", f"w{i + 1}")])
            return save(d, changed, Actor(f"tab {i}"), when, expected_version=version).ok

    with ThreadPoolExecutor(max_workers=4) as pool:
        results = list(pool.map(add, [1, 2, 3, 4]))
    assert results.count(True) == 1

"""Every route of the app, for every role, against a table of what each may do. A new
route missing from the table fails this test."""
import datetime as dt
import os
import re

import pytest
from builders import account, doc, individual, logged_in, person

ROLES = ("anonymous", "leader_a", "leader_b", "organiser", "accountant")
# allow: reaches the view; deny: 403 or 404; login: sent to the login page.
A, D, L = "allow", "deny", "login"
ALL = (A, A, A, A, A)
LEADER_READ = (L, A, D, A, A)       # own delegation; the committee reads every one
LEADER_WRITE = (L, A, D, A, D)      # the accountant may read, not change
ORG = (L, D, D, A, D)
TABLE = {
    ("static", "GET"): ALL,
    ("home", "GET"): (L, A, A, A, A),
    ("favicon", "GET"): ALL,
    ("healthz", "GET"): ALL, ("readyz", "GET"): ALL,
    ("site.set_language", "POST"): ALL,
    ("api.check", "POST"): ALL,
    ("accounts.login", "GET"): ALL, ("accounts.login", "POST"): ALL,
    ("accounts.logout", "POST"): ALL,  # always ends on the login page
    ("accounts.password", "GET"): (L, A, A, A, A), ("accounts.password", "POST"): (L, A, A, A, A),
    ("accounts.notifications", "GET"): (L, A, A, A, A), ("accounts.notifications", "POST"): (L, A, A, A, A),
    ("accounts.api_tokens", "GET"): (L, A, A, A, A), ("accounts.api_tokens", "POST"): (L, A, A, A, A),
    # One's own token only: a number of anyone else's is not found.
    ("accounts.revoke_api_token", "POST"): (L, D, D, D, D),
    # The API's routes take a bearer token, never a session: 401 to every browser session
    # (the API's own walk with every role's token is tests/test_api.py).
    ("api.games_list", "GET"): (D,) * 5, ("api.games_detail", "GET"): (D,) * 5,
    ("api.delegations_list", "GET"): (D,) * 5, ("api.delegation_detail", "GET"): (D,) * 5,
    ("api.document_get", "GET"): (D,) * 5, ("api.document_put", "PUT"): (D,) * 5,
    ("api.event_entries", "GET"): (D,) * 5, ("api.event_draw", "GET"): (D,) * 5,
    ("api.event_results", "GET"): (D,) * 5, ("api.event_results_put", "PUT"): (D,) * 5,
    ("api.delegation_ledger", "GET"): (D,) * 5, ("api.games_payments", "GET"): (D,) * 5,
    ("api.openapi", "GET"): ALL, ("api.docs", "GET"): ALL,
    ("accounts.invitation", "GET"): ALL, ("accounts.invitation", "POST"): ALL,
    # The second step of a staff login: without a password step just made, back to the login.
    ("accounts.second_factor", "GET"): (L,) * 5, ("accounts.second_factor", "POST"): (L,) * 5,
    ("accounts.enrol_second_factor", "GET"): (L,) * 5, ("accounts.enrol_second_factor", "POST"): (L,) * 5,
    ("accounts.leader_accounts", "GET"): ORG, ("accounts.leader_accounts", "POST"): ORG,
    ("accounts.reinvite", "POST"): ORG, ("accounts.account_action", "POST"): ORG,
    ("workflow.dashboard", "GET"): LEADER_READ,
    ("delegations.declarations", "GET"): LEADER_READ, ("delegations.declarations", "POST"): LEADER_WRITE,
    # Choosing people shows their birth dates: for those who edit entries (privacy.py).
    ("delegations.people", "GET"): LEADER_READ, ("delegations.people_search", "GET"): LEADER_WRITE,
    ("delegations.person", "GET"): LEADER_READ, ("delegations.person", "POST"): LEADER_WRITE,
    ("delegations.delete_person", "POST"): LEADER_WRITE,
    ("delegations.upload_document", "POST"): LEADER_WRITE,
    ("delegations.delegation_document", "POST"): LEADER_WRITE,
    # A photo (as an ID copy): never for the accountant (privacy.py); insurance proofs are.
    ("delegations.file", "GET"): LEADER_WRITE,
    ("delegations.entries", "GET"): LEADER_READ, ("delegations.entries", "POST"): LEADER_WRITE,
    ("delegations.roles", "GET"): LEADER_READ, ("delegations.roles", "POST"): LEADER_WRITE,
    ("workflow.submit", "POST"): LEADER_WRITE, ("workflow.extension_request", "POST"): LEADER_WRITE,
    ("workflow.decline_extension", "POST"): ORG,
    ("delegations.download_json", "GET"): LEADER_READ,
    ("delegations.download_excel", "GET"): LEADER_READ,
    ("delegations.upload", "GET"): LEADER_WRITE, ("delegations.upload", "POST"): LEADER_WRITE,
    ("delegations.confirm_upload", "POST"): LEADER_WRITE,
    ("workflow.substitutions", "GET"): LEADER_READ, ("workflow.substitutions", "POST"): LEADER_WRITE,
    ("money.statement", "GET"): LEADER_READ,
    ("money.statement_xlsx", "GET"): LEADER_READ,
    ("money.statement_pdf", "GET"): LEADER_READ,
    ("money.delegation_rooms", "GET"): LEADER_READ, ("money.delegation_rooms", "POST"): LEADER_WRITE,
    ("accounts.register", "GET"): ALL, ("accounts.register", "POST"): ALL,
    ("accounts.arrival", "GET"): ALL, ("accounts.arrival_state", "GET"): ALL,
    ("workflow.overview", "GET"): ORG,
    ("workflow.games_view", "GET"): ORG, ("workflow.tell_short_event", "POST"): ORG,
    ("workflow.queue", "GET"): ORG,
    ("workflow.review", "GET"): ORG,
    ("workflow.approve", "POST"): ORG, ("workflow.return_", "POST"): ORG,
    ("workflow.extension", "POST"): ORG, ("workflow.withdraw", "POST"): ORG, ("workflow.contact", "POST"): ORG,
    ("workflow.admit_joint", "POST"): ORG, ("workflow.withdraw_joint", "POST"): ORG,
    ("workflow.decide", "POST"): ORG,
    ("workflow.audit", "GET"): ORG,
    ("workflow.export", "GET"): ORG,
    ("workflow.export_job", "POST"): ORG,
    # A job is its owner's only (here the organiser's): everyone else finds nothing.
    ("jobs.show", "GET"): ORG, ("jobs.status", "GET"): ORG, ("jobs.download", "GET"): ORG,
    ("money.overview", "GET"): (L, D, D, A, A),
    ("money.settle_deposits", "POST"): (L, D, D, A, A),
    ("money.statement_import", "GET"): (L, D, D, D, A), ("money.statement_import", "POST"): (L, D, D, D, A),
    ("money.assign", "POST"): (L, D, D, D, A),
    ("money.lines", "GET"): (L, D, D, A, A),
    ("results.results", "GET"): ORG,
    ("register.register", "GET"): ORG, ("register.import_ratings", "POST"): ORG, ("register.record_grade", "POST"): ORG,
    ("register.add_qualifier", "POST"): ORG, ("register.withdraw_qualifier", "POST"): ORG, ("register.player", "GET"): ORG,
    ("results.event_results", "GET"): ORG, ("results.event_results", "POST"): ORG,
    ("results.absences", "POST"): ORG, ("results.pairing_export", "GET"): ORG, ("results.outside_medal", "POST"): ORG,
    ("results.standing", "GET"): LEADER_READ,
    ("venue.check_in", "POST"): ORG, ("venue.desk", "GET"): ORG, ("venue.confirm_no_shows", "POST"): ORG,
    ("venue.cards", "GET"): ORG, ("venue.meeting", "GET"): ORG, ("venue.confirm_roll_call", "POST"): ORG, ("venue.cards_pdf", "GET"): ORG, ("venue.cards_pdf_job", "POST"): ORG, ("venue.scan", "GET"): ORG,
    ("results.programme_book", "POST"): ORG,
    ("results.draw", "GET"): ORG, ("results.draw", "POST"): ORG, ("results.draw_csv", "GET"): ORG,
    # The administrator's only (not in this table's roles): every other account is refused.
    ("accounts.staff", "GET"): (L, D, D, D, D), ("accounts.staff", "POST"): (L, D, D, D, D),
    ("accounts.staff_games", "POST"): (L, D, D, D, D),
    ("accounts.bulk_leaders", "GET"): ORG, ("accounts.bulk_leaders", "POST"): ORG,
    ("games.units", "GET"): ORG, ("games.units", "POST"): ORG,
    ("games.regulation", "GET"): (L, D, D, A, A),
    ("notify.outbox", "GET"): ORG, ("notify.retry_message", "POST"): ORG,
    ("notify.webhooks", "GET"): ORG, ("notify.webhooks", "POST"): ORG, ("notify.remove_webhook", "POST"): ORG,
    ("setup.new_games", "GET"): (L, D, D, D, D), ("setup.new_games", "POST"): (L, D, D, D, D),
    ("setup.setup", "GET"): ORG, ("setup.try_rules", "GET"): ORG, ("setup.try_rules", "POST"): ORG,
    ("setup.regulation_text", "POST"): ORG, ("setup.save_section", "POST"): ORG, ("setup.publish", "POST"): ORG,
    ("setup.edit_rule", "GET"): ORG, ("setup.edit_rule", "POST"): ORG, ("setup.version", "GET"): ORG,
    ("setup.proposals_page", "GET"): ORG, ("setup.accept_proposal", "POST"): ORG,
    ("setup.invited_sheet", "POST"): ORG, ("setup.amendment_impact", "GET"): ORG,
    ("setup.edit_item", "GET"): ORG, ("setup.edit_item", "POST"): ORG,
    ("setup.edit_settings", "GET"): ORG, ("setup.edit_settings", "POST"): ORG, ("setup.definition_export", "GET"): ORG, ("delegations.regulation", "GET"): LEADER_READ,
    ("money.undo", "POST"): (L, D, D, D, A), ("money.duplicate", "POST"): (L, D, D, D, A),
    ("money.post_entry", "POST"): (L, D, D, D, A),
    ("money.report_xlsx", "GET"): (L, D, D, A, A),
    ("money.insurance", "GET"): (L, D, D, A, A),
    ("money.rooms", "GET"): (L, D, D, A, A),
}


@pytest.fixture
def world(app, db):
    """Two units' delegations at nmsg-2019, an uploaded file, a pending substitution,
    and one account per role."""
    from portal.accounts.services import create_account
    from portal.audit.services import Actor
    from portal.delegations.files import UploadedFile
    from portal.games.services import find_games
    from portal.workflow.models import Substitution
    from portal.workflow.services import new_delegation, save
    when = dt.datetime(2019, 5, 1, tzinfo=dt.UTC)
    games = find_games("nmsg-2019")
    actor = Actor("test")
    da = save(new_delegation(games, "zhejiang"), doc("nmsg-2019", people=[person("p1", year=2019)],
              entries=[individual("chess.MI", "p1")]), actor, when).delegation
    db_b = save(new_delegation(games, "jiangsu"), doc("nmsg-2019", unit="jiangsu"), actor, when).delegation
    f = UploadedFile(delegation_id=da.id, person_ref="p1", kind="photo", filename="x.png",
                     content_type="image/png", size=1, sha256="0" * 64, uploaded_by="t")
    sub = Substitution(delegation_id=da.id, event_code="chess.MI", out_ref="p1", in_person={"name": "x"},
                       reason="r", requested_by="t")
    from portal.money.models import BankLine
    line = BankLine(games_id=games.id, fingerprint="f" * 64, statement_name="s.csv", row_number=5,
                    booked_on=dt.date(2019, 8, 1), amount=100, payer="x", memo="")
    from portal.workflow.models import ExtensionRequest
    req = ExtensionRequest(delegation_id=da.id, stage="names", reason="r", requested_by="t")
    db.session.add_all([f, sub, line, req])
    db.session.commit()
    from portal import file_store as store
    store.put(f"documents/{da.id}/{'0' * 64}.png", b"\x89PNG\r\n\x1a\n", "image/png")
    db.session.commit()
    users = {}
    served = [games, find_games("shaanxi-mind-2025")]
    other = [find_games("youth-gomoku-2015")]
    for name, role, d, of in (("leader_a", "leader", da, ()), ("leader_b", "leader", db_b, ()),
                              ("organiser", "organiser", None, served), ("accountant", "accountant", None, served),
                              ("organiser_other", "organiser", None, other), ("accountant_other", "accountant", None, other)):
        users[name] = account(name, role, delegation=d, games=[g.slug for g in of])
    _, token = create_account("invitee", "invitee", "leader", actor, delegation=da)
    from portal import file_store
    from portal.jobs.models import Job
    job = Job(kind="games_workbook", params={"games": "nmsg-2019", "_file": "authz-test.xlsx"},
              user_id=users["organiser"].id, status="done", title="t", file_name="t.xlsx",
              mimetype="application/octet-stream")
    db.session.add(job)
    from portal.results.models import Draw
    db.session.add(Draw(games_id=games.id, event_code="chess.MI", seed="00", numbers=[[1, 0, "x", "y"]], drawn_by="t"))
    file_store.put("jobs/authz-test.xlsx", b"PK")
    impact = Job(kind="amendment_impact", params={"games": "nmsg-2019", "definition": games.definition, "form": [],
                                                  "action": "/org/games/nmsg-2019/setup/basics", "section": "basics",
                                                  "at": "2019-08-01T00:00:00+08:00", "_file": "authz-impact.json"},
                 user_id=users["organiser"].id, status="done", title="t", file_name="impact.json",
                 mimetype="application/json")
    db.session.add(impact)
    file_store.put("jobs/authz-impact.json", b'{"impact": []}')
    db.session.commit()
    from portal.venue.cards import card_code
    card = card_code(da.id, "p1", "")
    from portal.notify.models import OutboxMessage
    message = OutboxMessage(kind="approved", to_address="l@example.cn", subject="s", body="b", status="failed",
                            delegation_id=da.id, games_id=games.id)
    db.session.add(message)
    from portal.notify.models import Webhook
    hook = Webhook(games_id=games.id, url="https://example.cn/hook", secret="s", created_by="t")
    db.session.add(hook)
    from portal.games.models import GamesVersion
    db.session.add(GamesVersion(games_id=games.id, number=1, definition=games.definition, created_by="t"))
    db.session.commit()
    return {"job_id": job.id, "event": "chess.MI", "delegation_id": da.id, "ref": "p1", "file_id": f.id, "sub_id": sub.id, "user_id": users["leader_a"].id,
            "token": token, "slug": "nmsg-2019", "kind": "summary", "fmt": "csv", "decision": "reject",
            "filename": "app.css", "line_id": line.id, "section": "basics", "index": 0, "action": "unlock", "request_id": req.id,
            "card": card, "message_id": message.id, "token_id": 1, "webhook_id": hook.id, "number": 1,
            "impact_id": impact.id, "part": "fees", "name": "money"}


OVERRIDES = {"accounts.register": {"slug": "shaanxi-mind-2025"},  # a Games that takes individuals
             "accounts.arrival": {"slug": "shaanxi-mind-2025"}, "accounts.arrival_state": {"slug": "shaanxi-mind-2025"},
             "results.pairing_export": {"fmt": "xlsx"},
             "results.absences": {"slug": "shaanxi-mind-2025", "event": "gomoku.OPEN"},  # a Games with rounds
             "register.withdraw_qualifier": {"qualification_id": 1}}


def _url(rule, values):
    values = {**values, **OVERRIDES.get(rule.endpoint, {})}
    url = rule.rule
    for arg in rule.arguments:
        url = re.sub(rf"<(?:[a-z]+:)?{arg}>", str(values[arg]), url)
    return url


def _login(app, username):
    return app.test_client() if username == "anonymous" else logged_in(app, username)


def test_every_route_is_in_the_table(app):
    missing = []
    for rule in app.url_map.iter_rules():
        for method in sorted(rule.methods - {"HEAD", "OPTIONS"}):
            if (rule.endpoint, method) not in TABLE:
                missing.append((rule.endpoint, method))
    assert missing == [], f"routes without an authorization rule: {missing}"


def test_every_role_on_every_route(app, world, monkeypatch):
    monkeypatch.setitem(app.config, "WTF_CSRF_ENABLED", False)  # CSRF is tested on its own; here: roles
    failures = []
    for rule in app.url_map.iter_rules():
        for method in sorted(rule.methods - {"HEAD", "OPTIONS"}):
            expected = TABLE.get((rule.endpoint, method))
            if expected is None:
                continue
            if os.environ.get("AUTHZ_ONLY") and os.environ["AUTHZ_ONLY"] not in rule.endpoint:
                continue
            for role, want in zip(ROLES, expected):
                client = _login(app, role)
                url = _url(rule, world)
                with app.app_context():  # a fresh `g` per request, as in production
                    resp = client.open(url, method=method, data={})
                location = resp.headers.get("Location", "")
                if resp.status_code in (401, 403, 404):
                    got = D
                elif resp.status_code in (301, 302, 303) and "/login" in location and rule.endpoint != "accounts.logout":
                    got = L
                else:
                    got = A
                if got != want:
                    failures.append(f"{method} {url} as {role}: expected {want}, got {got} ({resp.status_code})")
    assert failures == [], "\n".join(failures)


def test_state_changes_need_the_csrf_token(app, world):
    client = _login(app, "leader_a")
    with app.app_context():
        assert client.post(f"/d/{world['delegation_id']}/submit", data={}).status_code == 400
    with app.app_context():
        assert client.post("/logout", data={}).status_code == 400


def test_id_numbers_are_masked_in_lists(app, world):
    from portal.delegations.models import Delegation
    from portal.delegations.services import export_document
    from portal.extensions import db
    number = export_document(db.session.get(Delegation, world["delegation_id"]))["people"][0]["id_number"]
    client = _login(app, "leader_a")
    with app.app_context():
        page = client.get(f"/d/{world['delegation_id']}/people").get_data(as_text=True)
    assert number not in page and number[:4] + "*" * 10 + number[-4:] in page
    with app.app_context():
        form = client.get(f"/d/{world['delegation_id']}/people/p1").get_data(as_text=True)
    assert number in form  # shown in full only where the leader edits it


# Pages every staff account has, whatever Games it serves: each shows only its own Games.
STAFF_PAGES = {"notify.outbox", "workflow.overview", "workflow.queue", "workflow.audit", "accounts.leader_accounts",
               "accounts.bulk_leaders", "games.units", "venue.scan", "money.overview", "money.lines",
               "money.report_xlsx", "money.insurance", "money.rooms", "money.statement_import"}
# Not a committee's: everyone's own, public, or the login's own steps.
NOT_OF_A_GAMES = {"accounts.notifications", "accounts.api_tokens", "accounts.revoke_api_token", "api.games_list",
                  "api.games_detail", "api.delegations_list", "api.delegation_detail", "api.document_get",
                  "api.document_put", "api.event_entries", "api.event_draw", "api.event_results",
                  "api.event_results_put", "api.delegation_ledger", "api.games_payments", "api.openapi", "api.docs", "static", "home", "favicon", "healthz", "readyz", "site.set_language", "api.check", "accounts.login",
                  "accounts.logout", "accounts.password", "accounts.invitation", "accounts.second_factor",
                  "accounts.enrol_second_factor", "accounts.register", "accounts.arrival", "accounts.arrival_state"}


def test_the_staff_of_another_games_find_nothing(app, world, monkeypatch):
    """Staff of youth-gomoku-2015 on every route the staff of nmsg-2019 reach: each of that
    Games' things is not found (404, as for a leader), and the pages every committee has
    show nothing of it: not its name, its delegations, its leaders or its people."""
    from portal.delegations.models import Delegation
    from portal.extensions import db
    monkeypatch.setitem(app.config, "WTF_CSRF_ENABLED", False)
    with app.app_context():
        unit_names = [d.unit_code for d in db.session.query(Delegation).all()]
    markers = ["第四届全国智力运动会", "陕西省第二届", "nmsg-2019", "shaanxi-mind-2025", "leader_a", "invitee",
               f"/d/{world['delegation_id']}", f"/org/d/{world['delegation_id']}"]
    assert unit_names  # the world has delegations to hide
    failures = []
    for rule in app.url_map.iter_rules():
        for method in sorted(rule.methods - {"HEAD", "OPTIONS"}):
            expected = TABLE[(rule.endpoint, method)]
            if rule.endpoint in NOT_OF_A_GAMES:
                continue
            for mine, other in ((3, "organiser_other"), (4, "accountant_other")):
                if expected[mine] != A:
                    continue
                client = _login(app, other)
                url = _url(rule, world)
                form = {"delegation": world["delegation_id"], "action": "sync"} if rule.endpoint == "money.post_entry" \
                    else {"code": world["card"]} if rule.endpoint == "venue.check_in" \
                    else {"games": "nmsg-2019"} if rule.endpoint == "money.settle_deposits" else {}
                with app.app_context():
                    resp = client.open(url, method=method, data=form)
                body = resp.get_data()
                if rule.endpoint in STAFF_PAGES:
                    if resp.status_code in (403, 404):
                        failures.append(f"{method} {url} as {other}: its own page refused ({resp.status_code})")
                    text = body.decode("utf-8", "replace")
                    failures += [f"{method} {url} as {other}: shows {m!r}" for m in markers if m in text]
                elif resp.status_code != (400 if rule.endpoint == "venue.check_in" else 404):
                    # (a card of another Games is no card at this desk: refused as a garbled one is)
                    failures.append(f"{method} {url} as {other}: expected 404, got {resp.status_code}")
    assert failures == [], "\n".join(failures)

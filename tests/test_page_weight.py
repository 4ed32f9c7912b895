"""Pages of a size a phone can load (issue 27, 2): a delegation of hundreds whose people
still lack a document carries hundreds of warnings; its pages group them by rule with the
count, show the first few and the rest on demand, and stay under 150 KB."""
import datetime as dt
import sys
from pathlib import Path

from builders import account, logged_in

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
CHINA = dt.timezone(dt.timedelta(hours=8))


def test_hundreds_of_warnings_are_grouped_and_the_pages_stay_small(app, db):
    from benchmarks.national import delegation_document
    from portal.audit.services import Actor
    from portal.games.services import find_games
    from portal.workflow.services import import_document
    document = delegation_document("zhejiang", 0, 400)
    for p in document["people"]:
        p["documents"] = []  # as real ones are before check-in: no insurance proof yet
    out = import_document(find_games("nmsg-2009"), document, dt.datetime(2009, 8, 1, tzinfo=CHINA), Actor("t"))
    assert out.ok, out.violations
    warnings = [v for v in out.violations if not v.is_error]
    assert len(warnings) >= 300  # each person still owes the insurance proof
    account("big-leader", "leader", delegation=out.delegation)
    account("big-org", "organiser", games=["nmsg-2009"])
    db.session.commit()
    d = out.delegation.id
    leader, organiser = logged_in(app, "big-leader"), logged_in(app, "big-org")
    sizes = {}
    for client, url in ((leader, f"/d/{d}/entries"), (leader, f"/d/{d}"), (leader, f"/d/{d}/roles"),
                        (organiser, f"/org/d/{d}")):
        with app.app_context():
            page = client.get(url)
        assert page.status_code == 200
        body = page.get_data(as_text=True)
        sizes[url] = len(page.get_data())
        missing = sum(1 for v in warnings if v.code == "DOCUMENT_MISSING")
        assert missing >= 300 and f'<span class="badge warn">{missing}</span>' in body  # the group's count
        assert "在人员名单中只看有问题的" in body
    assert max(sizes.values()) < 150_000, sizes


def test_a_delegation_of_2000_keeps_its_entries_and_review_pages_under_150_kb(app, db):
    """At national size an event of dozens of entrants is one line of names on the entries
    page, its form one click away; the review's return form offers the people with
    problems, not a select of two thousand."""
    from benchmarks.national import delegation_document
    from portal.audit.services import Actor
    from portal.games.services import find_games
    from portal.workflow.services import import_document
    out = import_document(find_games("nmsg-2009"), delegation_document("zhejiang", 0, 2000, lacking_documents=4),
                          dt.datetime(2009, 8, 1, tzinfo=CHINA), Actor("t"))
    assert out.ok, out.violations
    account("huge-leader", "leader", delegation=out.delegation)
    account("huge-org", "organiser", games=["nmsg-2009"])
    db.session.commit()
    d = out.delegation.id
    leader, organiser = logged_in(app, "huge-leader"), logged_in(app, "huge-org")
    import re
    with app.app_context():
        entries = leader.get(f"/d/{d}/entries").get_data(as_text=True)
        review = organiser.get(f"/org/d/{d}").get_data(as_text=True)
    assert len(entries.encode()) < 150_000 and len(review.encode()) < 150_000
    links = re.findall(rf'href="(/d/{d}/entries\?event=[^"#]+)#event-[^"]+">(?:编辑这个项目|查看全部)</a>', entries)
    assert len(links) > 10  # every big event, one line each
    with app.app_context():
        one = leader.get(links[0]).get_data(as_text=True)
    assert one.count('name="people" value=') > 12  # that event's form, whole
    assert review.count('value="person:') <= 200
    # An event of dozens of teams lists each on one line: its members as chips with their
    # boards, and a link that opens that team alone.
    team_lines = re.findall(r'<div class="team-line"><strong>([^<]+)</strong>\s*((?:<span class="chip">[^<]*</span>)+)'
                            rf'\s*<a href="(/d/{d}/entries\?event=[^"&]+&amp;team=[^"#]+)#event-', entries)
    assert len(team_lines) > 10, entries[:2000]
    team, chips, link = team_lines[0]
    assert re.fullmatch(r'(<span class="chip">(\d+\. )?[^<]+</span>)+', chips)
    assert link.replace("&amp;", "&").endswith("&team=" + team)
    with app.app_context():
        alone = leader.get(link.replace("&amp;", "&")).get_data(as_text=True)
    assert f'name="team" value="{team}"' in alone

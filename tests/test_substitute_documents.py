"""A substitute not registered yet is entered with his documents in the request itself
(issue 25, 1): the request is judged with them, and approval brings the person, his
documents and their files into the delegation."""
import datetime as dt
import io

import pytest
from builders import account, doc, id_for, individual, logged_in, person

pytestmark = pytest.mark.usefixtures("no_csrf")
CHINA = dt.timezone(dt.timedelta(hours=8))
PDF = b"%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n"


@pytest.fixture
def school(app, db, monkeypatch):
    from portal.audit.services import Actor
    from portal.games.services import find_games
    from portal.workflow.services import import_document
    kid = person("k1", "M", "2006-01-01", unit="tianjin", docs=("photo", "id_copy"), name="钱一")
    d = import_document(find_games("youth-gomoku-2015"),
                        doc("youth-gomoku-2015", unit={"name": "南开少儿棋校", "kind": "school"}, people=[kid],
                            entries=[individual("gomoku.MCA", "k1")]),
                        dt.datetime(2015, 7, 1, 10, 0, tzinfo=CHINA), Actor("t")).delegation
    account("nk-leader", "leader", delegation=d)
    monkeypatch.setitem(app.config, "FIXED_NOW", dt.datetime(2015, 7, 12, 10, 0, tzinfo=CHINA))
    return d.id, logged_in(app, "nk-leader")


def _request(d_id, version, files):
    data = {"version": str(version), "event": "gomoku.MCA", "out_ref": "k1", "in_ref": "", "reason": "生病",
            "new-name": "钱新", "new-id_type": "resident_id", "new-id_number": id_for("2007-03-03", "M", "120101"),
            "new-gender": "M", "new-birth_date": "2007-03-03"}
    for kind in files:
        data[f"document-{kind}"] = (io.BytesIO(PDF), f"{kind}.pdf")
    return data


def test_the_substitute_comes_with_his_documents(app, db, school):
    from portal.audit.services import Actor
    from portal.delegations.files import UploadedFile
    from portal.delegations.models import Delegation
    from portal.delegations.services import export_document
    from portal.workflow.models import Substitution
    from portal.workflow.services import decide_substitution
    d_id, client = school
    version = db.session.get(Delegation, d_id).version
    with app.app_context():
        page = client.get(f"/d/{d_id}/substitutions").get_data(as_text=True)
        assert 'id="substitute-documents"' in page and 'name="document-id_copy"' in page
        bare = client.post(f"/d/{d_id}/substitutions", data=_request(d_id, version, []),
                           content_type="multipart/form-data")
    flash = bare.get_data(as_text=True).split('class="flash error"', 1)[1].split("</div>", 1)[0]
    assert bare.status_code == 200 and "钱新" in flash and "缺少" in flash  # refused: his documents are missing
    db.session.rollback()
    assert db.session.query(Substitution).filter_by(delegation_id=d_id).count() == 0
    with app.app_context():
        sent = client.post(f"/d/{d_id}/substitutions", data=_request(d_id, version, ["photo", "id_copy"]),
                           content_type="multipart/form-data")
    assert sent.status_code == 302, sent.get_data(as_text=True)[:500]
    db.session.rollback()
    sub = db.session.query(Substitution).filter_by(delegation_id=d_id).one()
    assert sorted(sub.in_person["documents"]) == ["id_copy", "photo"]
    files = db.session.query(UploadedFile).filter_by(delegation_id=d_id, person_ref=sub.in_person["ref"]).all()
    assert sorted(f.kind for f in files) == ["id_copy", "photo"]
    account("nk-org", "organiser")
    with app.app_context():
        review = logged_in(app, "nk-org").get(f"/org/d/{d_id}").get_data(as_text=True)
    assert "钱新" in review and "id_copy.pdf" in review and "photo.pdf" in review  # to look at before deciding
    assert decide_substitution(sub, True, Actor("组委会"), dt.datetime(2015, 7, 12, 12, 0, tzinfo=CHINA)).ok
    db.session.commit()
    after = export_document(db.session.get(Delegation, d_id))
    new = next(p for p in after["people"] if p["name"] == "钱新")
    assert sorted(new["documents"]) == ["id_copy", "photo"] and new["ref"] == sub.in_person["ref"]


def test_a_document_that_is_not_one_is_refused_by_name(app, db, school):
    from portal.delegations.models import Delegation
    d_id, client = school
    data = _request(d_id, db.session.get(Delegation, d_id).version, ["photo"])
    data["document-id_copy"] = (io.BytesIO(b"MZ\x90\x00 not a document"), "身份证.exe")
    with app.app_context():
        r = client.post(f"/d/{d_id}/substitutions", data=data, content_type="multipart/form-data")
    page = r.get_data(as_text=True)
    assert r.status_code == 200 and "身份证.exe" in page and "PDF" in page

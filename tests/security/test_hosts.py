"""Links built from the Host header (issue 19, 8): every absolute link comes from PUBLIC_URL,
and a request for a host the portal does not serve is refused."""
from __future__ import annotations

import re


def test_a_request_for_an_unknown_host_is_refused(app, world):
    client = app.test_client()
    with app.app_context():
        r = client.get("/login", headers={"Host": "evil.example"})
        ok = client.get("/login", headers={"Host": "localhost"})
    assert r.status_code == 400 and ok.status_code == 200


def test_invitation_links_use_the_public_url_whatever_the_host(app, world, no_csrf, monkeypatch):
    monkeypatch.setitem(app.config, "PUBLIC_URL", "https://baoming.example.cn")
    monkeypatch.setitem(app.config, "TRUSTED_HOSTS", ["baoming.example.cn", "localhost", "evil.example"])
    from security.attack import PASSWORD
    organiser = app.test_client()
    with app.app_context():
        organiser.post("/login", base_url="http://evil.example",
                       data={"username": "organiser", "password": PASSWORD})
        r = organiser.post("/org/accounts", base_url="http://evil.example", data={
            "games": "nmsg-2019", "unit": "shanghai", "club_name": "", "username": "sh-leader",
            "display_name": "上海领队"})
    page = r.get_data(as_text=True)
    links = re.findall(r"https?://[^\s\"'<]+/invite/[A-Za-z0-9_\-]+", page)
    assert r.status_code == 200, page[:2000]
    assert links and all(link.startswith("https://baoming.example.cn/invite/") for link in links), links
    assert "evil.example/invite" not in page


def test_trusted_hosts_come_from_the_public_url(monkeypatch):
    from portal.links import trusted_hosts
    assert trusted_hosts("https://baoming.example.cn", None) == ["baoming.example.cn"]
    assert trusted_hosts("https://a.cn", "a.cn, .b.cn") == ["a.cn", ".b.cn"]
    assert "localhost" in trusted_hosts(None, None)


def test_an_unknown_host_is_told_so_in_the_browsers_language(app, world):
    client = app.test_client()
    with app.app_context():
        chinese = client.get("/login", headers={"Host": "evil.example"}).get_data(as_text=True)
        english = client.get("/login", headers={"Host": "evil.example", "Accept-Language": "en-GB,en;q=0.8"})
    assert chinese == "请求的主机名不属于本系统\n"
    assert english.status_code == 400 and english.get_data(as_text=True) == "this host is not served here\n"

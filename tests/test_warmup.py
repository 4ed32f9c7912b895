"""A fresh web worker is warmed before its first request (gunicorn's post_worker_init):
its templates compiled (from this node's compiled copies after the first worker), every
open Games' definition and the universities list read, the late imports done."""
import logging


def test_a_warmed_worker_has_its_templates_and_definitions_before_any_request(app):
    from portal.games import services as games_services
    from portal.site.warmup import warm
    games_services._definitions.clear()
    app.jinja_env.cache.clear()
    took = warm(app)
    assert set(took) == {"imports", "templates", "reference"}
    compiled = {name for (_loader, name) in app.jinja_env.cache}
    assert {"base.html", "registration/register.html", "workspace/people.html"} <= compiled
    assert {"nmsg-2009", "shaanxi-mind-2025"} <= set(games_services._definitions)


def test_a_failed_step_is_logged_and_the_worker_serves_anyway(app, monkeypatch, caplog):
    from portal.site import warmup

    def unreachable(_app):
        raise ConnectionError("database not reachable yet")
    monkeypatch.setattr(warmup, "_reference", unreachable)
    with caplog.at_level(logging.ERROR, logger="portal.site.warmup"):
        took = warmup.warm(app)
    assert set(took) == {"imports", "templates"} and "warm-up step reference failed" in caplog.text
    assert app.test_client().get("/healthz").status_code == 200


def test_gunicorn_warms_each_new_worker(app):
    import importlib.util
    from pathlib import Path
    from types import SimpleNamespace
    spec = importlib.util.spec_from_file_location("gunicorn_conf", Path(__file__).parent.parent / "gunicorn.conf.py")
    conf = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(conf)
    said = []
    worker = SimpleNamespace(wsgi=app, log=SimpleNamespace(info=lambda fmt, *args: said.append(fmt % args)))
    conf.post_worker_init(worker)
    assert len(said) == 1 and all(step in said[0] for step in ("imports", "templates", "reference"))

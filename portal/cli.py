"""Command-line interface: `flask --app app games|units|universities|check|demo ...`."""
from __future__ import annotations

import json
import sys
from pathlib import Path

import click
from flask import Flask, current_app
from flask.cli import AppGroup
from sqlalchemy import select

from .accounts.cli import accounts_cli
from .cli_support import ensure_schema, parse_instant, say
from .clock import now
from .config import universities_csv
from .delegations.services import UNUSABLE, check_document
from .demo import set_up
from .demo_season import leader_account, set_up_season
from .engine_time import CHINA
from .extensions import db
from .games import cli as games_cli
from .games.services import all_fixture_slugs, ensure_reference_data, import_universities, load_games, load_units
from .jobs.cli import jobs_cli
from .notify.cli import notify_cli
from .retention import apply_retention, purge_pending
from .rules.jsontext import JsonTextError, load_json
from .rules.violations import report, report_text, schema_error
from .text import Text
from .workflow import cli as workflow_cli


def register_cli(app: Flask) -> None:

    games_cli.register(app)
    workflow_cli.register(app)
    app.cli.add_command(jobs_cli)
    app.cli.add_command(accounts_cli)
    app.cli.add_command(notify_cli)
    results_cli = AppGroup("results", help="Results stored (成绩).")
    app.cli.add_command(results_cli)

    @results_cli.command("carry")
    @click.argument("slug")
    def carry_results_cmd(slug):
        """Carry the Games' stored results into the player register again (places,
        qualifications, grades, points), as entering them again would: results stored before
        the register kept places then count for a later Games that bars earlier placers."""
        from .audit.services import Actor
        from .games.models import Games
        from .results.services import carry_stored_results
        ensure_schema()
        games = db.session.scalar(select(Games).where(Games.slug == slug))
        if games is None:
            say(Text(f"没有网址代码为“{slug}”的比赛", f"no Games {slug!r}"), err=True)
            sys.exit(2)
        carried = carry_stored_results(games, Actor("命令行 flask results carry"))
        total = sum(carried.values())
        say(Text(f"{games.name_zh}：{len(carried)} 个项目的成绩，{total} 人次的名次已记入棋手档案",
                 f"{games.name_en}: {len(carried)} events, {total} places carried into the register"))

    @notify_cli.command("due")
    @click.option("--at", "at", default=None, help="Judge at this instant (ISO 8601; default now).")
    def notify_due_cmd(at):
        """Queue the deadline reminders and the organisers' daily digests due now (run it
        under cron, every 15 minutes say: each is queued once), then `notify send` sends them.
        Here, not in the notify area: it reads the workflow's stages and judgements."""
        from .db_tx import write_transaction
        from .workflow.reminders import due
        with write_transaction():
            counts = due(parse_instant(at) if at else now())
        click.echo(f"queued {counts['reminders']} reminders and {counts['digests']} digests")

    @accounts_cli.command("check-demo")
    def check_demo_cmd():
        """Exit 1 while any demo account still opens with the password the README publishes
        (a production start runs this and refuses). Here, not in the accounts area: the demo
        is made of every area."""
        from .demo import accounts_with_published_passwords
        found = accounts_with_published_passwords()
        if found:
            say(Text(f"这些演示账号的密码是公开的，请停用或改密码后再启动：{'、'.join(found)}",
                     "these demo accounts have the published password; disable them or change their passwords "
                     f"first: {', '.join(found)}"), err=True)
            sys.exit(1)
        say(Text("没有使用公开密码的演示账号", "no demo account with its published password"))

    @app.cli.command("check")
    @click.argument("file", type=click.Path(dir_okay=False))
    @click.option("--at", "at", help="Instant for stage rules, ISO 8601 with offset (default: now).")
    @click.option("--format", "fmt", type=click.Choice(["json", "text"]), default="json")
    @click.option("--lang", type=click.Choice(["zh", "en"]), default="zh")
    def check(file, at, fmt, lang):
        """Validate a delegation document; changes nothing."""

        try:
            instant = parse_instant(at)
        except click.BadParameter as exc:
            click.echo(f"error: --at: {exc.message}", err=True)
            sys.exit(UNUSABLE)
        path = Path(file)
        try:
            raw = path.read_bytes()
        except OSError as exc:
            click.echo(f"error: {file}: cannot read ({exc.strerror})", err=True)
            sys.exit(UNUSABLE)
        try:
            data = load_json(raw)
        except JsonTextError as exc:
            rep = report(None, None, [schema_error("", f"{file}：{exc.zh}", f"{file}: {exc.en}")])
            status = UNUSABLE
        else:
            ensure_schema()
            rep, status = check_document(data, instant, reveal=True)  # an operator on the server
        if fmt == "json":
            click.echo(json.dumps(rep, ensure_ascii=False, indent=2))
        else:
            click.echo(report_text(rep, lang), nl=False)
        sys.exit(status)

    @app.cli.command("setup")
    @click.option("--sample-games", is_flag=True, help="Also load the Games of fixtures/games (a demonstration).")
    def setup_cmd(sample_games):
        """Create or upgrade the schema and load what a fresh database needs (units, the
        universities list; no Games unless --sample-games). Idempotent; safe to run at
        every start."""
        ensure_schema()
        for line in ensure_reference_data(universities_csv(), sample_games=sample_games) or ["nothing to do"]:
            click.echo(line)

    @app.cli.group("privacy")
    def privacy():
        """Personal data housekeeping."""

    @privacy.command("purge-pending")
    @click.option("--hours", type=float, default=24.0, show_default=True)
    def purge_pending_cmd(hours):
        """Delete uploads that were never confirmed, older than HOURS."""
        click.echo(f"deleted {purge_pending(current_app.instance_path, hours * 3600)} pending uploads")

    @privacy.command("retention")
    @click.option("--days", type=click.IntRange(0, 3650), default=180, show_default=True,
                  help="Keep personal data this many days after a Games ends.")
    @click.option("--games", "slug", default=None, help="Only this Games.")
    @click.option("--dry-run", is_flag=True, help="Say what would go; change nothing.")
    @click.option("--at", "at", default=None, help="Judge from this date (ISO 8601; default today).")
    def retention_cmd(days, slug, dry_run, at):
        """Delete ID copies and documents and mask ID numbers of Games that ended DAYS ago."""
        from flask import current_app
        today = (parse_instant(at) if at else now()).astimezone(CHINA).date()
        rep = apply_retention(current_app.config["UPLOAD_FOLDER"], today, days, slug=slug, dry_run=dry_run)
        verb = "would delete" if dry_run else "deleted"
        click.echo(f"{', '.join(rep.games) or 'no Games'} past retention: {verb} {rep.files} documents, "
                   f"{'would mask' if dry_run else 'masked'} {rep.id_numbers} ID numbers")

    @app.cli.command("demo")
    @click.option("--universities", "csv_path", type=click.Path(), default=None)
    def demo(csv_path):
        """Set up a demo database: schema, units, all four Games, universities."""

        ensure_schema()
        load_units()
        for slug in all_fixture_slugs():
            games = load_games(slug)
            click.echo(f"loaded {games.slug}: {games.name_zh}")
        path = Path(csv_path) if csv_path else universities_csv()
        if path.exists():
            click.echo(f"universities: {import_universities(path)} from {path}")
        else:
            click.echo(f"universities: {path} not found; university rules will report unknown codes")
        set_up_season(click.echo)
        set_up(click.echo, leader_account())  # last: the accounts are what a newcomer reads

"""`flask delegation import|export|withdraw`: paper and bulk flows."""
from __future__ import annotations

import json
import sys
from pathlib import Path

import click
from flask import Flask
from flask.cli import AppGroup

from ..audit.services import Actor
from ..clock import now
from ..delegations.services import export_document, find_delegation
from ..games.services import find_or_load_games
from ..outcome import Status
from ..rules.jsontext import JsonTextError, load_json
from ..rules.violations import report, schema_error
from .services import import_document, withdraw


def register(app: Flask) -> None:
    group = AppGroup("delegation", help="Store, export and withdraw delegations.")

    def _games(slug):
        games = find_or_load_games(slug)
        if games is None:
            click.echo(f"error: unknown Games {slug!r}", err=True)
            sys.exit(2)
        return games

    @group.command("import")
    @click.argument("file", type=click.Path(dir_okay=False))
    @click.option("--received-at", "received_at", required=True,
                  help="When the materials arrived, ISO 8601 with offset.")
    def import_(file, received_at):
        """Store and submit a delegation document as if it arrived at --received-at."""
        from ..cli_support import ensure_schema, parse_instant

        try:
            when = parse_instant(received_at)
        except click.BadParameter as exc:
            click.echo(f"error: --received-at: {exc.message}", err=True)
            sys.exit(2)
        try:
            data = load_json(Path(file).read_bytes())
        except OSError as exc:
            click.echo(f"error: {file}: cannot read ({exc.strerror})", err=True)
            sys.exit(2)
        except JsonTextError as exc:
            click.echo(json.dumps(report(None, None, [schema_error("", f"{file}：{exc.zh}", f"{file}: {exc.en}")]),
                                  ensure_ascii=False, indent=2))
            sys.exit(2)
        ensure_schema()
        slug = data.get("games") if isinstance(data, dict) else None
        from ..games.services import find_or_load_games
        games = find_or_load_games(slug) if isinstance(slug, str) else None
        if games is None:
            click.echo(json.dumps(report(slug, None, [schema_error("games", f"未知的比赛“{slug}”", f"unknown Games {slug!r}")]),
                                  ensure_ascii=False, indent=2))
            sys.exit(2)
        outcome = import_document(games, data, when, Actor.cli())
        rep = outcome.report() if outcome.delegation is not None else report(slug, data.get("unit"), outcome.violations)
        rep["status"] = str(outcome.status) if outcome.status else None
        if outcome.message:
            rep["message"] = {"zh": outcome.message[0], "en": outcome.message[1]}
        click.echo(json.dumps(rep, ensure_ascii=False, indent=2))
        if outcome.status == "invalid":  # malformed: nothing can be stored
            sys.exit(2)
        # Wait-listed is stored but not entered: the program that sent it must look.
        sys.exit(0 if outcome.ok and outcome.status != Status.WAITLISTED else 1)

    @group.command("export")
    @click.argument("games_slug")
    @click.argument("unit")
    def export(games_slug, unit):
        """Print the stored delegation document of UNIT at GAMES."""
        games = _games(games_slug)
        d = find_delegation(games, unit)
        if d is None:
            click.echo(f"error: {unit} has no delegation at {games_slug}", err=True)
            sys.exit(2)
        click.echo(json.dumps(export_document(d), ensure_ascii=False, indent=2))

    @group.command("withdraw")
    @click.argument("games_slug")
    @click.argument("unit")
    @click.argument("event", required=False)
    @click.option("--excused", is_flag=True, help="Accept an excuse (force majeure): no sanction.")
    @click.option("--reason", default=None)
    @click.option("--at", "at", default=None, help="Instant of the withdrawal (default: now).")
    def withdraw_(games_slug, unit, event, excused, reason, at):
        """Withdraw UNIT from EVENT (or from the Games when EVENT is omitted)."""
        from ..audit.services import Actor
        from ..cli_support import parse_instant
        from ..delegations.services import find_delegation
        games = _games(games_slug)
        d = find_delegation(games, unit)
        if d is None:
            click.echo(f"error: {unit} has no delegation at {games_slug}", err=True)
            sys.exit(2)
        when = parse_instant(at) or now()
        outcome = withdraw(d, event, excused, Actor.cli(), when, reason)
        click.echo(outcome.message[1] if outcome.message else outcome.status)
        # Wait-listed is stored but not entered: the program that sent it must look.
        sys.exit(0 if outcome.ok and outcome.status != Status.WAITLISTED else 1)

    app.cli.add_command(group)

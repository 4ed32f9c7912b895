"""`flask games load`, `flask units load`, `flask universities import`."""
from __future__ import annotations

import sys

import click
from flask import Flask, current_app
from flask.cli import AppGroup
from sqlalchemy import select

from ..cli_support import terminal_en
from ..extensions import db
from ..rules.calendar_traps import calendar_traps
from ..rules.event_traps import event_traps
from .models import Games
from .services import FixtureError, all_fixture_slugs, definition_of, import_universities, load_games, load_units


def register(app: Flask) -> None:
    games = AppGroup("games", help="Load Games definitions (fixtures).")
    units = AppGroup("units", help="Units (参赛单位).")
    universities = AppGroup("universities", help="The Ministry of Education's universities list.")

    @games.command("load")
    @click.argument("slugs", nargs=-1)
    @click.option("--all", "load_all", is_flag=True, help="Load every fixture under fixtures/games.")
    def games_load(slugs, load_all):
        """Load or reload a Games from its slug or a fixture PATH (idempotent)."""
        from ..cli_support import ensure_schema

        ensure_schema()
        targets = list(slugs) + (all_fixture_slugs() if load_all else [])
        if not targets:
            click.echo("error: give a Games slug or fixture path (or --all)", err=True)
            sys.exit(2)
        for target in targets:
            try:
                g = load_games(target)
            except FixtureError as exc:
                click.echo("error: " + "\n".join(exc.in_words(terminal_en())), err=True)
                sys.exit(2)
            click.echo(f"loaded {g.slug}: {g.name_zh} ({len(g.events)} events)")
            # Loaded all the same (a regulation may be odd on purpose), but never unseen.
            definition = definition_of(g)
            traps = calendar_traps(definition) + event_traps(definition)
            for check in current_app.extensions.get("games_load_checks", ()):
                traps += check(g, definition)
            for zh, en in traps:
                click.echo(f"warning: {g.slug}: " + (en if terminal_en() else zh), err=True)

    @games.command("list")
    def games_list():

        for g in db.session.scalars(select(Games).order_by(Games.slug)):
            click.echo(f"{g.slug}\t{g.name_zh}\t{len(g.events)} events")

    @units.command("load")
    def units_load():
        from ..cli_support import ensure_schema

        ensure_schema()
        click.echo(f"units: {load_units()}")

    @universities.command("import")
    @click.argument("path", type=click.Path(dir_okay=False))
    def universities_import(path):
        """Replace the universities list with the CSV at PATH (all or nothing)."""
        from ..cli_support import ensure_schema

        ensure_schema()
        try:
            n = import_universities(path)
        except FixtureError as exc:
            click.echo("error: " + "\n".join(exc.in_words(terminal_en())), err=True)
            sys.exit(2)
        click.echo(f"universities: {n} imported from {path}")

    app.cli.add_command(games)
    app.cli.add_command(units)
    app.cli.add_command(universities)

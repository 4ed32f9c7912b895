"""What the money pages share: which Games a page shows, and who may read it."""
from __future__ import annotations

from flask import request

from ..access import scope
from ..games.services import definition_of
from ..roles import STAFF
from . import import_jobs, services, statement as statements, statement_views  # noqa: F401  (its routes)

READERS = STAFF


def _games_arg():
    """The Games asked for, else the current one by its dates (under way, else the next to
    begin, else the latest to have ended), not the first in the alphabet. Only the Games
    this account serves; another Games' slug finds nothing."""
    slug = request.args.get("games")
    all_games = scope.visible_games()
    games = next((g for g in all_games if g.slug == slug), None)
    if games is None and slug is None and all_games:
        from ..clock import now
        from ..rules.engine import CHINA
        today = now().astimezone(CHINA).date()
        dates = {g.id: definition_of(g).dates for g in all_games}
        under_way = [g for g in all_games if dates[g.id].start <= today <= dates[g.id].end]
        coming = sorted((g for g in all_games if dates[g.id].start > today), key=lambda g: dates[g.id].start)
        past = sorted((g for g in all_games if dates[g.id].end < today), key=lambda g: dates[g.id].end, reverse=True)
        games = (under_way or coming or past)[0]
    return games, all_games

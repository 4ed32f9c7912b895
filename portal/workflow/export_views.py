"""The committee's exports of a Games: summary, roster and each event's entries as CSV
(streamed) or Excel, and the whole-Games workbook as a background job."""
from __future__ import annotations

from io import BytesIO
from urllib.parse import quote

from flask import Response, abort, current_app, request, send_file

from ..access.guards import roles
from ..games.services import definition_of, find_games, games_by_id
from ..jobs.views import start
from ..roles import ORGANISERS
from ..sheets import csv_chunks, to_xlsx
from ..translation import gettext as _
from ..web import is_en
from . import export_jobs, exports  # noqa: F401  (export_jobs registers its job kind)
from .blueprint import bp

ORG = ORGANISERS


@bp.post("/org/games/<slug>/export/workbook")
@roles(*ORG)
def export_job(slug):
    """The whole-Games workbook, made in the background: the organiser follows its progress."""
    g = find_games(slug) or abort(404)
    return start("games_workbook", {"games": g.slug, "drafts": request.form.get("drafts") == "1", "en": is_en()},
                 _("%(name)s 整届报名表", name=g.name_en if is_en() else g.name_zh))


@bp.get("/org/games/<slug>/export/<kind>.<fmt>")
@roles(*ORG)
def export(slug, kind, fmt):
    g = find_games(slug) or abort(404)
    drafts = request.args.get("drafts") == "1"
    if kind not in ("summary", "roster") and kind not in {e.code for e in definition_of(g).events}:
        abort(404)
    if fmt not in ("csv", "xlsx"):
        abort(404)
    en = is_en()  # the reader's language, for the header and the words in the cells
    if fmt == "csv":
        # Rows streamed from one query as the client takes the CSV: the stream reads them
        # in an app context of its own, after this view has returned.
        app = current_app._get_current_object()

        def stream():
            # The first chunk needs no database: a WSGI server (or test client) may take it
            # while the request's context is still open, the rest after it has closed.
            yield "\ufeff".encode("utf-8")
            with app.app_context():
                games = games_by_id(g.id)
                yield from csv_chunks(*_export_rows(games, kind, drafts, en), bom=False)
        return Response(stream(), mimetype="text/csv",
                        headers={"Content-Disposition": f"attachment; filename*=UTF-8''{quote(f'{slug}-{kind}.csv')}"})
    return send_file(BytesIO(to_xlsx(kind, *_export_rows(g, kind, drafts, en))), as_attachment=True,
                     download_name=f"{slug}-{kind}.xlsx",
                     mimetype="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet")


def _export_rows(g, kind: str, drafts: bool, en: bool):
    if kind == "summary":
        return exports.summary_rows(g, drafts, en)
    if kind == "roster":
        return exports.roster_rows(g, drafts, en)
    return exports.entry_rows(g, kind, drafts, en)

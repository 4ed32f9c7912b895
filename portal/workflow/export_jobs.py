"""The whole-Games workbook as a background job: summary, roster and every event's entry
list on sheets of one Excel file, written from streamed queries with a progress bar."""
from __future__ import annotations

from ..games.services import definition_of
from ..jobs.services import games_of, job_kind
from ..sheets import to_xlsx_sheets
from . import exports

XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


@job_kind("games_workbook")
def games_workbook(job, progress):
    games = games_of(job)
    drafts = bool(job.params.get("drafts"))
    en = bool(job.params.get("en"))  # the language of the organiser who asked for it
    total = exports.export_size(games, drafts)
    progress(0, total, force=True)
    tables = [("summary" if en else "汇总", *exports.summary_rows(games, drafts, en)),
              ("roster" if en else "名册", *exports.roster_rows(games, drafts, en))]
    for event in definition_of(games).events:
        tables.append((event.code, *exports.entry_rows(games, event.code, drafts, en)))
    content = to_xlsx_sheets(tables, on_row=lambda n: progress(n))
    progress(total, force=True)
    return content, f"{games.slug}-entries.xlsx", XLSX

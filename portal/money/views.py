"""Money pages: the accountants' reconciliation, statement import, manual entries, insurance
and room lists. A delegation's statement and rooms are in `statement_views`, on the same
blueprint (the money area owns its routes wherever they appear)."""
from __future__ import annotations

from decimal import Decimal, InvalidOperation
from io import BytesIO

from flask import abort, flash, redirect, render_template, request, send_file, url_for
from flask_wtf import FlaskForm
from flask_wtf.file import FileField, FileRequired
from wtforms import IntegerField, RadioField, SelectField, StringField
from wtforms.validators import DataRequired, Optional

from ..access import scope
from ..access.guards import roles
from ..audit.current import actor
from ..delegations.queries import delegation
from ..form_choices import options
from ..games.services import definition_of, unit_names
from ..roles import STAFF, Role
from ..rules.definition import id_type_names
from ..sheets import to_xlsx
from ..translation import gettext as _, lazy_gettext as _l
from ..web import is_en, outcome_text
from . import import_jobs, line_views, queries, services, statement as statements, statement_views  # noqa: F401  (their routes)
from .blueprint import bp
from .page_args import READERS, _games_arg


class StatementForm(FlaskForm):
    games = SelectField(_l("比赛"), validators=[DataRequired()])
    file = FileField(_l("银行流水（CSV、XLSX、XLS 或 ODS）"), validators=[FileRequired(message=_l("请选择文件"))])
    on_error = RadioField(_l("有无法识别的行时"), choices=options([("all", _l("整个文件不导入")), ("rest", _l("跳过这些行，导入其余"))]),
                          default="all")


class EntryForm(FlaskForm):
    delegation = IntegerField(validators=[DataRequired()])
    action = SelectField(_l("操作"), choices=options([
        ("payment", _l("记录收款（非银行流水）")), ("refund", _l("记录已退款")), ("appeal_fee", _l("收取申诉/仲裁费")),
        ("appeal_upheld", _l("申诉成立，退还申诉费")), ("checkin", _l("已报到：退还保证金")), ("sync", _l("按规程重新计算费用"))]))
    amount = StringField(_l("金额（元）"), validators=[Optional()])
    memo = StringField(_l("说明"), validators=[Optional()])


UNMATCHED_ON_OVERVIEW = 30


@bp.get("/money/")
@roles(*READERS)
def overview():
    games, all_games = _games_arg()
    if games is None:
        abort(404)
    rows = services.reconciliation(games)
    unmatched_count = queries.unmatched_count(games)
    # The first few to match by hand here; all of them, paginated, on the bank lines page.
    unmatched = queries.unmatched_lines(games, UNMATCHED_ON_OVERVIEW)
    sums = {k: sum((r[k] for r in rows), Decimal("0")) for k in ("expected", "payment", "refund", "balance")}
    deposits = None
    if rows and rows[0]["deposit"] is not None:
        deposits = {k: sum((r["deposit"][k] for r in rows), Decimal("0")) for k in ("charged", "returned", "kept", "held")}
    return render_template("money/overview.html", games=games, all_games=all_games, rows=rows, unmatched=unmatched,
                           unmatched_count=unmatched_count,
                           sums=sums, deposits=deposits, entry_form=EntryForm(), names=statements.STATUS_NAMES,
                           definition=definition_of(games),
                           after_event=any(f.refundable == "after_event" for f in definition_of(games).money.fees))


@bp.route("/money/import", methods=["GET", "POST"])
@roles(Role.ACCOUNTANT)
def statement_import():
    form = StatementForm()
    all_games = scope.visible_games()
    form.games.choices = options((g.slug, g.name_en if is_en() else g.name_zh) for g in all_games)
    result = None
    if form.validate_on_submit():
        games = next(g for g in all_games if g.slug == form.games.data)
        storage = form.file.data
        data = storage.read()
        if len(data) > import_jobs.BACKGROUND_BYTES:  # tens of thousands of lines: in the background
            from ..jobs.views import start
            name = (storage.filename or "statement")[:200]
            return start("bank_import", {"games": games.slug, "upload": import_jobs.keep_upload(data), "name": name,
                                         "all_or_nothing": form.on_error.data == "all", "en": is_en()},
                         _("导入银行流水 %(name)s", name=name))
        result = services.import_statement(games, data, storage.filename or "statement", actor(),
                                           all_or_nothing=form.on_error.data == "all")
        if result.read_as:
            flash(_("识别为：%(layout)s", layout=result.read_as[1] if is_en() else result.read_as[0]), "info")
        if result.ok:
            flash(_("已导入 %(n)d 行（重复 %(d)d 行已跳过）：按参考码匹配 %(r)d，按户名和金额匹配 %(a)d，未匹配 %(u)d，"
                    "疑似重复 %(p)d。",
                    n=result.imported, d=result.duplicates, r=result.reference, a=result.name_amount,
                    u=result.unmatched, p=result.possible_duplicates), "success")
            if not result.problems:
                return redirect(url_for(".lines", games=games.slug, statement=storage.filename or "statement"))
        elif result.bad_rows:
            flash(_("文件没有导入：请看下面列出的问题。"), "error")
        else:
            flash(_("文件没有导入。"), "error")
    return render_template("money/import.html", form=form, result=result)


@bp.post("/money/entries")
@roles(Role.ACCOUNTANT)
def post_entry():
    form = EntryForm()
    if not form.validate_on_submit():
        abort(400)
    d = delegation(form.delegation.data) or abort(404)
    scope.require(d.games_id)
    amount = None
    if form.amount.data:
        try:
            amount = Decimal(form.amount.data.replace(",", "")).quantize(Decimal("0.01"))
        except InvalidOperation:
            amount = None
        if amount is None or amount <= 0:
            flash(_("金额须为正数，如 200 或 200.00。"), "error")
            return redirect(url_for(".overview", games=d.games.slug))
    out = services.accountant_entry(d, form.action.data, amount, form.memo.data, actor())
    flash(_("已记账。") if out.ok else outcome_text(out), "success" if out.ok else "error")
    return redirect(url_for(".overview", games=d.games.slug))


@bp.post("/money/deposits/settle")
@roles(*STAFF)
def settle_deposits():
    """After play: return each deposit the regulation returns then, keeping what it keeps."""
    if not FlaskForm().validate_on_submit():
        abort(400)
    slug = (request.form.get("games") or "")[:80]
    if not slug:
        abort(400, description=_("请选择比赛"))
    games = scope.games_or_404(slug)
    misconduct = {}
    for key, value in list(request.form.items())[:500]:
        if key.startswith("misconduct_") and key[11:].isdigit() and value.strip():
            misconduct[int(key[11:])] = value.strip()[:300]
    out = services.settle_deposits_after_event(games, actor(), misconduct)
    flash(outcome_text(out), "success" if out.ok else "error")
    return redirect(url_for(".overview", games=games.slug) + "#deposits")


@bp.get("/money/report.xlsx")
@roles(*READERS)
def report_xlsx():
    games, _all = _games_arg()
    if games is None:
        abort(404)
    rows = services.reconciliation(games)
    en = is_en()  # the accountant's language: the header and the words in the cells
    header = (["unit", "reference", "expected", "received", "refunded", "balance", "status"] if en else
              ["单位", "参考码", "应付", "已收", "已退", "余额", "状态"])
    data = [[r["unit"], r["reference"], float(r["expected"]), float(r["payment"]), float(r["refund"]),
             float(r["balance"]), statements.STATUS_NAMES[r["status"]][1 if en else 0]] for r in rows]
    lines = queries.unmatched_lines(games)
    data += [[], ["unmatched bank lines" if en else "未匹配的银行流水"]] + [
        [str(b.booked_on), b.payer, float(b.amount), b.memo] for b in lines]
    return send_file(BytesIO(to_xlsx("reconciliation", header, data)), as_attachment=True,
                     download_name=f"{games.slug}-reconciliation.xlsx",
                     mimetype="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet")


@bp.get("/money/insurance")
@roles(*READERS)
def insurance():
    """The insurer's list where the organiser insures everyone; else who lacks proof."""
    games, all_games = _games_arg()
    if games is None:
        abort(404)
    definition = definition_of(games)
    rows = []
    for person, d in queries.people_and_delegations(games):
        p = {"ref": person.ref, "name": person.name, "gender": person.gender, "id_type": person.id_type,
             "birth_date": person.birth_date.isoformat() if person.birth_date else None,
             "id_number": person.id_number, "documents": list(person.documents or [])}
        rows.append({"d": d, "p": p, "has_proof": "insurance_proof" in p["documents"]})
    if request.args.get("format") == "xlsx" and definition.money.insurance == "organiser_buys":
        from ..privacy import birth_year_only, mask_id, record_access, sees_full_ids
        from ..sheets import to_xlsx
        full = sees_full_ids()  # the organisers buy the insurance; an accountant gets masked numbers
        en = is_en()  # the list in the language of whoever takes it to the insurer
        header = (["name", "gender", "birth date", "ID type", "ID number", "unit"] if en else
                  ["姓名", "性别", "出生日期", "证件类型", "证件号码", "单位"])
        genders = {"M": "M", "F": "F"} if en else {"M": "男", "F": "女"}
        id_types = {k: (en_name if en else zh) for k, (zh, en_name) in id_type_names(definition).items()}
        units = unit_names("en" if en else "zh")
        data = [[r["p"]["name"], genders.get(r["p"].get("gender"), ""),
                 (r["p"].get("birth_date") or "") if full else birth_year_only(r["p"].get("birth_date")),
                 id_types.get(r["p"].get("id_type"), r["p"].get("id_type") or ""),
                 (r["p"].get("id_number") or "") if full else mask_id(r["p"].get("id_number")),
                 units.get(r["d"].unit_code, r["d"].unit_code) if r["d"].unit_code else (r["d"].unit_name or "")]
                for r in rows]
        if full:
            record_access("personal_data.export", [(r["p"]["ref"], r["p"]["name"]) for r in rows],
                          what="insurance.xlsx", games_slug=games.slug)
        return send_file(BytesIO(to_xlsx("insurance", header, data)), as_attachment=True,
                         download_name=f"{games.slug}-insurance.xlsx",
                         mimetype="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet")
    return render_template("money/insurance.html", games=games, all_games=all_games, rows=rows,
                           mode=definition.money.insurance)


@bp.get("/money/rooms")
@roles(*READERS)
def rooms():
    games, all_games = _games_arg()
    if games is None:
        abort(404)
    definition = definition_of(games)
    usage = queries.rooms_usage(games)
    nights = sorted({n for _, n in usage})
    return render_template("money/rooms.html", games=games, all_games=all_games, definition=definition,
                           usage=usage, nights=nights)


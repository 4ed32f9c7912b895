"""Identity: numbers, documents accepted, duplicates, required personal data."""
from __future__ import annotations

from collections import defaultdict

from .. import idnumber
from ..check_context import CheckContext, builtin_check, names, rule_check
from ..definition import BUILTIN_ID_TYPE_NAMES as ID_TYPE_NAMES, id_type_names  # noqa: F401  (ID_TYPE_NAMES: read by the diff)
from ..violations import Violation, schema_error


@builtin_check
def id_numbers(ctx: CheckContext) -> list[Violation]:
    out = []
    for p in ctx.delegation.people:
        problem = ctx.id_problems.get(p.ref)
        if problem:
            zh, en = idnumber.REASONS[problem]
            out.append(Violation(
                "ID_NUMBER_INVALID",
                f"{p.label} 的身份证号码 {p.id_number} {zh}。请对照证件重新填写。",
                f"The ID number {p.id_number} of {p.label} {en}. Copy it again from the card.",
                people=(p.ref,)))
            continue
        rid = ctx.resident_ids.get(p.ref)
        if rid is None:
            continue
        if p.birth_date and p.birth_date != rid.birth_date:
            out.append(Violation(
                "ID_MISMATCH",
                f"{p.label} 填写的出生日期 {p.birth_date} 与身份证号码中的 {rid.birth_date} 不一致，请核对。",
                f"{p.label}: birth date {p.birth_date} differs from {rid.birth_date} in the ID number; check both.",
                people=(p.ref,)))
        if p.gender and p.gender != rid.gender:
            g = {"M": ("男", "male"), "F": ("女", "female")}
            out.append(Violation(
                "ID_MISMATCH",
                f"{p.label} 填写的性别（{g[p.gender][0]}）与身份证号码（{g[rid.gender][0]}）不一致，请核对。",
                f"{p.label}: gender {g[p.gender][1]} differs from the ID number ({g[rid.gender][1]}); check both.",
                people=(p.ref,)))
    return out


@builtin_check
def duplicates(ctx: CheckContext) -> list[Violation]:
    out = []
    by_number = defaultdict(list)
    for p in ctx.delegation.people:
        if p.id_number:
            by_number[idnumber.normalise(p.id_number)].append(p.ref)
    for number, refs in by_number.items():
        if len(refs) > 1:
            out.append(Violation(
                "DUPLICATE_PERSON",
                f"证件号码 {number} 在本代表团中出现了 {len(refs)} 次（{names(ctx, refs)}）。同一人只登记一次，"
                f"兼任多个角色时引用同一人员即可。",
                f"ID number {number} appears {len(refs)} times in this delegation ({names(ctx, refs, 'en')}). "
                f"Enter a person once and refer to him in each role.",
                people=tuple(refs)))
        if number not in ctx.other_id_numbers:
            continue
        other = ctx.other_id_numbers[number]
        if other:  # the organisers' view: who holds the number
            out.append(Violation(
                "DUPLICATE_PERSON",
                f"{names(ctx, refs)}（证件号码 {number}）已在本届比赛的另一代表团（{other}）报名，一人只能代表一个单位。",
                f"{names(ctx, refs, 'en')} (ID {number}) is already entered by another delegation of these Games "
                f"({other}); a person represents one unit only.",
                people=tuple(refs)))
        else:  # a leader's or an entrant's view: never another delegation's people
            out.append(Violation(
                "DUPLICATE_PERSON",
                f"{names(ctx, refs)} 的证件号码已在本届比赛登记，一人只能代表一个单位。如有疑问，请联系组委会。",
                f"The ID number of {names(ctx, refs, 'en')} is already registered for these Games; a person "
                f"represents one unit only. Contact the organisers if this is unexpected.",
                people=tuple(refs)))
    return out


@builtin_check
def athletes_personal_data(ctx: CheckContext) -> list[Violation]:
    """An athlete's gender and birth date decide his events: they must be known."""
    out = []
    for ref in ctx.athletes:
        p = ctx.people[ref]
        if ctx.gender.get(ref) is None:
            out.append(schema_error(f"people[{p.index}].gender", f"运动员 {p.label} 缺少性别（M 或 F）",
                                    f"athlete {p.label} has no gender (M or F)"))
        if ctx.birth.get(ref) is None:
            out.append(schema_error(f"people[{p.index}].birth_date",
                                    f"运动员 {p.label} 缺少出生日期（YYYY-MM-DD）",
                                    f"athlete {p.label} has no birth date (YYYY-MM-DD)"))
    return out


@rule_check("id_required")
def id_required(ctx: CheckContext, rule) -> list[Violation]:
    out = []
    for ref in ctx.who(rule.who):
        p = ctx.people.get(ref)
        if p is not None and not p.id_number:
            out.append(Violation(
                "ID_NUMBER_REQUIRED",
                f"{p.label} 没有填写证件号码。本次比赛要求每位人员提供证件号码（用于办理保险和资格审查）。",
                f"{p.label} has no identity number. These Games need one for every person "
                f"(insurance and eligibility).",
                people=(ref,)))
    return out


@rule_check("accepted_id_types")
def accepted_id_types(ctx: CheckContext, rule) -> list[Violation]:
    out = []
    known = id_type_names(ctx.games)
    accepted_zh = "、".join(known[t][0] for t in rule.types)
    accepted_en = ", ".join(known[t][1] for t in rule.types)
    for ref in ctx.who(rule.who):
        p = ctx.people.get(ref)
        if p is None or p.id_type is None or p.id_type in rule.types:
            continue
        zh, en = known.get(p.id_type, (p.id_type, p.id_type))
        out.append(Violation(
            "ID_TYPE_NOT_ACCEPTED",
            f"{p.label} 使用的证件是{zh}；本次比赛只接受{accepted_zh}。",
            f"{p.label} holds a {en}; these Games accept only: {accepted_en}.",
            people=(ref,)))
    return out


@rule_check("rating_exception")
def rating_exception(ctx: CheckContext, rule) -> list[Violation]:
    """The rule widens GENDER_NOT_ALLOWED and team make-up counting; here: a rating claimed
    without the list the regulation names (nmsg-2019 五(二): 以2019年1月1日国际棋联公布的
    等级分为准) is RATING_LIST_REQUIRED, naming the list."""
    out = []
    for event in rule.events:
        for ref in ctx.entrants.get(event, []):
            if ctx.rating_claim_without_its_list(ref, event) is not rule:
                continue
            p = ctx.people[ref]
            given_zh = f"填写的是 {p.fide_list} 的等级分" if p.fide_list else "没有注明等级分所属的名单日期"
            given_en = f"the rating given is from the {p.fide_list} list" if p.fide_list else "no list date is given"
            out.append(Violation(
                "RATING_LIST_REQUIRED",
                f"{p.label} 以等级分 {p.fide_rating} 报{ctx.event_name(event)}，但{given_zh}。本项目以 {rule.list} "
                f"国际棋联公布的等级分为准，请填写该名单上的等级分及名单日期 {rule.list}。",
                f"{p.label} enters {ctx.event_name(event, 'en')} on a rating of {p.fide_rating}, but {given_en}. "
                f"The regulation counts the FIDE list of {rule.list}: give the rating on that list and its date.",
                event=event, people=(ref,)))
    return out


@builtin_check
def id_types_known(ctx: CheckContext) -> list[Violation]:
    """An identity document the portal does not know is accepted only where the Games'
    fixture names it (id_types); anywhere else it is the schema error it always was."""
    known = id_type_names(ctx.games)
    return [schema_error(f"people[{p.index}].id_type", f"未知的证件类型“{p.id_type}”（可选：{'、'.join(known)}）",
                         f"unknown id_type {p.id_type!r} (one of {', '.join(known)})")
            for p in ctx.delegation.people if p.id_type is not None and p.id_type not in known]

"""The person page's parts: the form filled from the stored person, the fields as the
form showed them (for a merge), what the player register holds of him, and the identity
number's problem in words."""
from __future__ import annotations

import datetime as dt
import json

from ..rules import idnumber
from ..web import is_en
from .forms import PersonForm

PEOPLE_PAGE = 100
PEOPLE_SORTS = {"": None, "name": "name", "gender": "gender", "birth": "birth_date", "event": "event"}


# The person form's groups of fields that only some regulations read, with the stored key
# that says a person holds one.
READ_ONLY_BY_SOME = {"registration": (("registration_unit", "registration_year", "registration_date"), "registration"),
                     "university": (("university_code", "graduation_date", "full_time"), "university"),
                     "fide": (("fide_rating", "fide_list"), "fide_rating"),
                     "club": (("club",), "club")}


def groups_read(definition) -> dict[str, bool]:
    """Which of READ_ONLY_BY_SOME the Games reads: a rule or award of its regulation, the draw
    (a chess event is paired by rating), or the results of entrants who register themselves
    (matched by the club they name)."""
    from ..rules import definition as rd
    from ..rules.awards import GroupStanding
    rules = definition.rules
    return {
        "registration": any(isinstance(r, rd.RegistrationRule | rd.JointTeamRule)
                            or (isinstance(r, rd.TeamMakeupRule) and r.max_from_outside is not None) for r in rules),
        "university": any(isinstance(r, rd.UniversityRule | rd.JointTeamRule) for r in rules),
        "fide": any(isinstance(r, rd.RatingExceptionRule) or (isinstance(r, rd.RatingRule) and r.list == "fide")
                    for r in rules) or any(s.code == "chess" for s in definition.sports),
        "club": definition.participation.individuals
        or any(isinstance(a, GroupStanding) and a.group_by == "club" for a in definition.awards),
    }


def unread_fields(definition, form: PersonForm, existing: dict | None) -> tuple[list[str], bool]:
    """The fields of the groups this Games does not read (the page folds them away, as asked
    of nobody), and whether to show them unfolded: the person holds something there, or the
    form has a problem there."""
    read = groups_read(definition)
    names, unfold = [], False
    for group, (fields, key) in READ_ONLY_BY_SOME.items():
        if read[group]:
            continue
        names.extend(fields)
        unfold = unfold or bool((existing or {}).get(key)) or any(getattr(form, f).errors for f in fields)
    return names, unfold


def _day(value: str | None) -> dt.date | None:
    return dt.date.fromisoformat(value) if value else None


def _fill_form(form: PersonForm, p: dict) -> None:
    form.name.data, form.id_type.data, form.id_number.data = p.get("name"), p.get("id_type") or "resident_id", p.get("id_number")
    form.gender.data = p.get("gender") or ""
    form.birth_date.data = _day(p.get("birth_date"))
    reg = p.get("registration") or {}
    form.registration_unit.data, form.registration_year.data = reg.get("unit"), reg.get("year")
    form.registration_date.data = _day(reg.get("date"))
    uni = p.get("university") or {}
    form.university_code.data, form.full_time.data = uni.get("code"), bool(uni.get("full_time"))
    form.graduation_date.data = _day(uni.get("graduation_date"))
    rating = p.get("fide_rating") or {}
    form.fide_rating.data = rating.get("value")
    form.fide_list.data = _day(rating.get("list"))
    form.club.data = p.get("club")
    grades = {g.get("system"): g for g in p.get("grades") or []}
    system = next((c for c, _n in form.grade_system.choices if c in grades), None)
    if system:
        form.grade_system.data, form.grade.data = system, grades[system].get("grade")
        form.grade_awarded_on.data = _day(grades[system].get("awarded_on"))
    ratings = p.get("ratings") or {}
    listed = next((c for c, _n in form.rating_list.choices if c in ratings), None)
    if listed:
        form.rating_list.data, form.rating_value.data = listed, ratings[listed].get("value")
        form.rating_list_date.data = _day(ratings[listed].get("list"))
    residence = p.get("residence") or {}
    form.residence_region.data, form.residence_since.data = residence.get("province"), _day(residence.get("since"))
    form.nationality.data = p.get("nationality")
    job = p.get("employment") or {}
    form.employment_kind.data, form.employment_unit.data = job.get("kind") or "", job.get("unit")
    form.employment_since.data = _day(job.get("since"))


def _shown_fields(text: str | None) -> dict[str, str] | None:
    """The person's fields as the form showed them (merge.field_digests), or None."""
    if not text or len(text) > 4096:
        return None
    try:
        data = json.loads(text)
    except ValueError:
        return None
    if not isinstance(data, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in data.items()):
        return None
    return data


def register_lines(definition, p: dict, unit: str | None, games, revision: int | None = None) -> list[str]:
    """What the player register holds of this person (his identity number and name both
    matching), in the reader's language: "象棋大师（2026年7月5日授予，来源：…）". (`revision`:
    the register's, as the page read it with the delegation's outside facts.)"""
    from ..register.career import add_career, add_places, add_points
    from ..rules.definition import PlacedBeforeRule, PointsRule
    from ..rules.document import ParsedPerson
    from ..rules.grades import grade_systems, rating_lists
    person = ParsedPerson(ref=p["ref"], name=p.get("name"), id_number=p.get("id_number"))
    players = add_career([person], unit, revision=revision)
    if not players:
        return []
    # Places and points where a rule reads them: the leader sees what his player is judged by.
    if definition.rules_of(PlacedBeforeRule):
        add_places(players, games.slug, games.series, games.edition)
    points = definition.rules_of(PointsRule)
    if points:
        add_points(players)
    systems, lists, en = grade_systems(definition), rating_lists(definition), is_en()
    out = []
    for g in person.grades:
        system = systems.get(g.system)
        name = (system.name[1] if en else system.name[0]) if system else g.system
        word = system.word(g.grade, "en" if en else "zh") if system else g.grade
        when = (f", awarded {g.awarded_on.isoformat()}" if en else f"，{g.awarded_on.isoformat()} 授予") if g.awarded_on else ""
        source = g.source.split("：", 1)[-1]
        out.append(f"{name}: {word} ({source}{when})" if en else f"{name}：{word}（{source}{when}）")
    for code, held in person.ratings.items():
        latest = held[-1]
        name = lists.get(code, (code, code))[1 if en else 0]
        day = latest.list_date.isoformat() if latest.list_date else ""
        out.append(f"{name}: {latest.value} (list of {day})" if en else f"{name}：{latest.value}（{day} 名单）")
    for place in person.places:
        out.append(place.source[1] if en else place.source[0])
    names = {r.points: r.name for r in points}
    for code, total in person.points.items():
        if code in names:
            out.append(f"{names[code].en}: {total.normalize():f}" if en else f"{names[code].zh}：{total.normalize():f} 分")
    return out


def _id_number_problem(form: PersonForm) -> str | None:
    """What is wrong with a Chinese ID number as typed, in the reader's language."""
    number = idnumber.normalise(form.id_number.data or "")
    if number and form.id_type.data in ("resident_id", "household_register"):
        _parsed, reason = idnumber.parse(number)
        if reason:
            zh, en = idnumber.REASONS[reason]
            return en if is_en() else zh
    return None

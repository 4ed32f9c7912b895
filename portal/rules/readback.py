"""The regulation read back (规程解读): every rule of a Games definition stated as a sentence
in Chinese and English, with the clause it comes from. Generated from the definition alone,
so that what the organiser proof-reads against the regulation is exactly what the engine
enforces; a kind without a sentence here fails the test that reads every kind back.

Pure: definition in, lines out."""
from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass

from . import definition as d
from .checks.career import EMPLOYMENT_NAMES, ROLE_NAMES, grade_span, rating_band
from .checks.delegation import age_words
from .checks.eligibility import unit_kind_names
from .grades import NATIONALITIES, grade_systems, rating_lists, region_name

CHINA = dt.timezone(dt.timedelta(hours=8))
GENDER = {"M": ("男子", "men"), "F": ("女子", "women"), "X": ("混合", "mixed")}
PLAYERS = {"M": ("男", "men"), "F": ("女", "women")}
WHO = {"athletes": ("运动员", "athletes"), "officials": ("官员（领队、教练）", "officials (leaders, coaches)"),
       "staff": ("团部人员", "delegation staff"), "companions": ("随队人员", "companions"),
       "participants": ("所有参赛人员", "every participant"), "delegation": ("各单位", "each unit")}
ROLES = {"leader": ("领队", "leaders"), "coach": ("教练", "coaches"), "leader_coach": ("领队兼教练", "leader-coaches")}


@dataclass(frozen=True)
class Line:
    section: str  # "participation", "stages", "rules"
    zh: str
    en: str
    clause: str | None = None
    kind: str | None = None


SECTIONS = {"participation": ("参赛资格", "Who may enter"), "stages": ("报名阶段与截止时间", "Stages and deadlines"),
            "rules": ("报名规则", "Entry rules"), "money": ("费用", "Fees"),
            "stay": ("食宿与领队会议", "Rooms and the leaders' meeting"), "awards": ("录取与奖励", "Places and awards"),
            "schedule": ("赛程", "Schedule")}
STAY_WHO = {"delegation_head": ("团长", "the head of delegation"), "team": ("各队", "each team"),
            "athletes": ("运动员", "the athletes"), "all": ("全体人员", "everyone")}
FROM = {"opening": ("开幕", "the opening"), "event_start": ("所报项目开赛", "their event's start"),
        "competition_start": ("比赛开始", "play's start"), "closing": ("闭幕", "the closing"),
        "event_end": ("所报项目结束", "their event's end"), "competition_end": ("比赛结束", "play's end")}
PER = {"athlete": ("每名运动员", "per athlete"), "individual_entry": ("每人每项", "per athlete per event"),
       "late_athlete": ("逾期报名的每名运动员", "per athlete entered late"),
       "team_group": ("每个团体组别", "per team group"),
       "team_entry": ("每支参赛队", "per team entered"),
       "person_changed": ("每更换一人", "per person changed"), "entrant": ("每名参赛者", "per entrant"),
       "appeal": ("每次申诉", "per appeal"), "delegation": ("每个代表团", "per delegation"),
       "participant_day": ("每人每天", "per person a day")}
REFUND = {"never": ("", ""), "after_checkin": ("，报到后退还", ", returned after check-in"),
          "if_upheld": ("，申诉成立则退还", ", returned if the appeal is upheld"),
          "after_event": ("，比赛结束后退还", ", returned after play")}
KEPT_ON = {"withdrawal": ("退赛", "a withdrawal"), "unfinished": ("未下完全部轮次（按人计）", "a player not finishing every round"),
           "misconduct": ("违反赛风赛纪", "misconduct")}
INSURANCE = {"organiser_buys": ("保险由组委会统一购买", "The organisers buy the insurance"),
             "each_participant": ("参赛人员须自行购买人身意外伤害保险", "Each participant buys personal accident insurance")}


def event_names(definition: d.GamesDefinition, codes: list[str]) -> tuple[str, str]:
    """Events by their names, as the read-back joins them ("象棋男子个人、象棋女子个人")."""
    return _Names(definition, {}).events_of(codes)


class _Names:
    """Events, sports and documents by their names in the regulation's words."""

    def __init__(self, definition: d.GamesDefinition, units: dict[str, tuple[str, str]]):
        self.units = {**units, **{u.code: (u.name.zh, u.name.en) for u in definition.units}}
        sports = {s.code: s.name for s in definition.sports}
        self.sports = sports
        self.events = {e.code: (f"{sports[e.sport].zh}{e.name.zh}", f"{sports[e.sport].en} {e.name.en}")
                       for e in definition.events}
        self.documents = d.document_names(definition)
        self.id_types = d.id_type_names(definition)
        self.unit_kinds = unit_kind_names(definition)
        self.grade_systems = grade_systems(definition)
        self.rating_lists = rating_lists(definition)
        self.other_games: dict[str, tuple[str, str]] = {}

    def games_named(self, slug_or_series: str) -> tuple[str, str]:
        """Another Games by its name where the caller knows it, else its slug or series."""
        return self.other_games.get(slug_or_series, (slug_or_series, slug_or_series))

    def events_of(self, codes: list[str]) -> tuple[str, str]:
        names = [self.events.get(c, (c, c)) for c in codes]
        return "、".join(n[0] for n in names), ", ".join(n[1] for n in names)

    def units_of(self, codes: list[str]) -> tuple[str, str]:
        names = [self.units.get(c, (c, c)) for c in codes]
        return "、".join(x[0] for x in names), ", ".join(x[1] for x in names)

    def sport(self, code: str | None) -> tuple[str, str]:
        name = self.sports.get(code) if code else None
        return (name.zh, name.en) if name else ("", "")


def _day(value: dt.date) -> tuple[str, str]:
    return f"{value.year}年{value.month}月{value.day}日", value.isoformat()


def _instant(value: dt.datetime) -> tuple[str, str]:
    local = value.astimezone(CHINA)
    return (f"{local.year}年{local.month}月{local.day}日 {local:%H:%M}（北京时间）",
            f"{local:%Y-%m-%d %H:%M} (Beijing time)")


def _deadline(value: dt.datetime) -> tuple[str, str]:
    """A closing instant as a regulation writes it: 1 Sep 00:00 is "8月31日 24:00"."""
    local = value.astimezone(CHINA)
    if (local.hour, local.minute, local.second) == (0, 0, 0):
        day = local - dt.timedelta(days=1)
        return f"{day.year}年{day.month}月{day.day}日 24:00（北京时间）", f"{day:%Y-%m-%d} 24:00 (Beijing time)"
    return _instant(value)


# As other pages say a day and a closing instant (the set-up screens' proposals).
day_in_words, deadline_in_words = _day, _deadline


def _join(parts: list[tuple[str, str]], zh_sep: str = "，", en_sep: str = "; ") -> tuple[str, str]:
    return zh_sep.join(p[0] for p in parts if p[0]), en_sep.join(p[1] for p in parts if p[1])


def _counts(by_gender: dict[str, int]) -> tuple[str, str]:
    return ("、".join(f"{PLAYERS[g][0]} {n} 人" for g, n in by_gender.items()),
            ", ".join(_many(n, "man" if g == "M" else "woman", "men" if g == "M" else "women") for g, n in by_gender.items()))


def _many(count: int, one: str, more: str | None = None) -> str:
    return f"{count} {one if count == 1 else (more or one + 's')}"


def _upper(text: str) -> str:
    return text[:1].upper() + text[1:]


# --- one function per rule kind ------------------------------------------------------------

def _age_bracket(r: d.AgeBracketRule, n: _Names):
    ev = n.events_of(r.events)
    if r.born_from and r.born_to:
        f, t = _day(r.born_from), _day(r.born_to)
        return f"{ev[0]}：须在 {f[0]} 至 {t[0]} 之间出生（含当日）", f"{ev[1]}: born {f[1]} to {t[1]} inclusive"
    if r.born_from:
        f = _day(r.born_from)
        return f"{ev[0]}：须在 {f[0]}（含）以后出生", f"{ev[1]}: born on or after {f[1]}"
    t = _day(r.born_to)
    return f"{ev[0]}：须在 {t[0]}（含）以前出生", f"{ev[1]}: born on or before {t[1]}"


def _quota(r: d.QuotaRule, n: _Names):
    if r.per == "unit" and not r.events:
        zh, en = f"每单位限报运动员 {r.max} 人（各项目合计）", f"At most {r.max} athletes per unit in all events together"
    elif r.per == "unit":
        ev = n.events_of(r.events)
        zh, en = f"每单位{ev[0]}合计限报 {r.max} 人", f"At most {r.max} athletes per unit in {ev[1]} together"
    else:
        ev = n.events_of(r.events)
        zh, en = f"每单位{ev[0]}限报 {r.max} 人", f"At most {r.max} entrants per unit in {ev[1]}"
    if r.max_by_unit:
        listed = [(n.units.get(u, (u, u)), k) for u, k in r.max_by_unit.items()]
        zh += "（" + "、".join(f"{u[0]} {k} 人" for u, k in listed) + "）"
        en += " (" + ", ".join(f"{u[1]} {k}" for u, k in listed) + ")"
    if r.max_by_gender:
        zh += "，其中" + "、".join(f"{PLAYERS[g][0]}子不超过 {k} 人" for g, k in r.max_by_gender.items())
        en += ", of whom at most " + " and ".join(f"{k} {PLAYERS[g][1]}" for g, k in r.max_by_gender.items())
    if r.placed_bonus is not None:
        b = _placed(r.placed_bonus, n, "人", "athlete")
        zh, en = f"{zh}；{b[0]}", f"{en}; {b[1]}"
    if r.qualified_exempt:
        by = (r.qualified_name.zh, r.qualified_name.en) if r.qualified_name else ("资格赛", "a qualifier")
        zh += f"；{by[0]}晋级的选手不占名额"
        en += f"; players qualified by {by[1]} are not counted"
    return zh, en


def _placed(b: d.PlacedBonus, n: _Names, zh_unit: str, en_unit: str) -> tuple[str, str]:
    """"上届前3名的单位可多报1人" (in the events it names, when not the rule's own)."""
    where = n.events_of(b.events) if b.events else ("该项目", "the event")
    return (f"上届{where[0]}前 {b.top} 名的单位可多报 {b.extra} {zh_unit}",
            f"a unit placed in the first {b.top} of {where[1]} last edition may enter {_many(b.extra, en_unit)} more")


def _team_makeup(r: d.TeamMakeupRule, n: _Names):
    ev = n.events_of(r.events)
    parts = []
    if r.max_teams is not None:
        parts.append((f"每单位限报 {r.max_teams} 队", f"at most {_many(r.max_teams, 'team')} per unit"))
    if r.placed_bonus is not None:
        b = _placed(r.placed_bonus, n, "队", "team")
        parts.append(b)
    if r.starters:
        c = _counts(r.starters)
        parts.append((f"上场队员{c[0]}", f"starters: {c[1]}"))
    if r.max_reserves is not None:
        parts.append((f"替补至多 {r.max_reserves} 人" if r.max_reserves else "不设替补",
                      f"at most {_many(r.max_reserves, 'reserve')}" if r.max_reserves else "no reserves"))
    if r.max_reserves_by_gender:
        c = _counts(r.max_reserves_by_gender)
        parts.append((f"替补至多{c[0]}", f"reserves at most {c[1]}"))
    if r.min_by_gender:
        c = _counts(r.min_by_gender)
        parts.append((f"至少{c[0]}", f"at least {c[1]}"))
    if r.members_entered_in:
        names = [(PLAYERS[g], n.events.get(code, (code, code))) for g, code in r.members_entered_in.items()]
        parts.append(("队员须同时报名" + "、".join(f"{e[0]}（{g[0]}）" for g, e in names),
                      "members must also be entered in " + ", ".join(f"{e[1]} ({g[1]})" for g, e in names)))
    if r.max_teams_by_unit:
        listed = [(n.units.get(u, (u, u)), k) for u, k in r.max_teams_by_unit.items()]
        parts.append(("、".join(f"{u[0]} {k} 队" for u, k in listed),
                      ", ".join(f"{u[1]} {_many(k, 'team')}" for u, k in listed)))
    if r.max_by_gender:
        c = _counts(r.max_by_gender)
        parts.append((f"至多{c[0]}", f"at most {c[1]}"))
    if r.max_from_outside is not None:
        parts.append((f"本单位以外的选手（外援）至多 {r.max_from_outside} 人",
                      f"at most {_many(r.max_from_outside, 'player')} from outside the unit"))
    if r.requires_unit:
        parts.append(("仅限以单位名义报名", "units only, not individuals"))
    body = _join(parts)
    return f"{ev[0]}：{body[0]}", f"{ev[1]}: {body[1]}"


def _boards(r: d.BoardRule, n: _Names):
    ev = n.events_of(r.events)
    zh, en = f"{ev[0]}：上场队员排第 1 至 {r.boards} 台，每台一人", f"{ev[1]}: starters take boards 1 to {r.boards}, one each"
    for board, gender in sorted(r.board_gender.items()):
        zh += f"，第 {board} 台须为{PLAYERS[gender][0]}选手"
        en += f"; board {board} is played by {'a woman' if gender == 'F' else 'a man'}"
    return zh, en


def _exclusive(r: d.ExclusiveRule, n: _Names):
    ev = n.events_of(r.events)
    if r.says:
        return f"{r.says.zh}（{ev[0]}）", f"{_upper(r.says.en)} ({ev[1]})"
    return f"{ev[0]}的选手不得兼报其他项目", f"Players of {ev[1]} enter no other event"


def _one_of(r: d.OneOfRule, n: _Names):
    ev = n.events_of(r.events)
    base = ((f"{ev[0]}中每名选手只能报一项", f"a player enters at most one of {ev[1]}") if r.max_events == 1 else
            (f"{ev[0]}中每名选手最多报 {r.max_events} 项", f"a player enters at most {r.max_events} of {ev[1]}"))
    if r.says:
        return f"{r.says.zh}：{base[0]}", f"{_upper(r.says.en)}: {base[1]}"
    return base[0], _upper(base[1])


def _rating_exception(r: d.RatingExceptionRule, n: _Names):
    ev = n.events_of(r.events)
    day = _day(r.list)
    return (f"{PLAYERS[r.gender][0]}选手在 {day[0]} 等级分表上等级分 {r.min_rating} 及以上者，可报名{ev[0]}",
            f"{_upper(PLAYERS[r.gender][1])} rated {r.min_rating} or more on the list of {day[1]} may enter {ev[1]}")


def _team_size(r: d.TeamSizeRule, n: _Names):
    ev = n.events_of(r.events)
    who = ("上场队员", "starters") if r.count == "starters" else ("队员", "players")
    if r.min is not None and r.max is not None:
        size = (f"{r.min} 人" if r.min == r.max else f"{r.min} 至 {r.max} 人",
                f"{r.min}" if r.min == r.max else f"{r.min} to {r.max}")
    elif r.min is not None:
        size = (f"至少 {r.min} 人", f"at least {r.min}")
    else:
        size = (f"至多 {r.max} 人", f"at most {r.max}")
    return f"{ev[0]}：每队{who[0]} {size[0]}", f"{ev[1]}: {size[1]} {who[1]} per team"


def _entry_minimum(r: d.EntryMinimumRule, n: _Names):
    if r.per == "unit":
        return f"每单位至少报名运动员 {r.min} 人", f"Each unit enters at least {r.min} athletes"
    ev = n.events_of(r.events) if r.events else ("所报每个项目", "each event entered")
    if r.per == "team":
        return f"{ev[0]}：每队至少 {r.min} 人", f"{ev[1]}: at least {r.min} players per team"
    return f"{ev[0]}：每单位报名的项目至少 {r.min} 人", f"{ev[1]}: at least {r.min} entrants where a unit enters"


def _event_minimum(r: d.EventMinimumRule, n: _Names):
    ev = n.events_of(r.events)
    what = (f"报名不足 {r.min} 人（队）", f"fewer than {r.min} entrants (teams)") if r.count == "entrants" else \
        (f"报名单位不足 {r.min} 个", f"fewer than {r.min} units entering")
    then = (r.says.zh, r.says.en) if r.says else ("不设比赛", "is not played")
    return f"{ev[0]}：{what[0]}的项目{then[0]}", f"{ev[1]}: an event with {what[1]} {then[1]}"


def _entry_requires(r: d.EntryRequiresRule, n: _Names):
    ev, req = n.events_of(r.events), n.events_of(r.requires)
    req = (req[0].replace("、", "或"), req[1].replace(", ", " or "))
    if r.beyond:
        return (f"{ev[0]}报名超过 {r.beyond} 人时，须同时报名{req[0]}",
                f"More than {r.beyond} entrants in {ev[1]} only alongside an entry in {req[1]}")
    return f"报名{ev[0]}须同时报名{req[0]}", f"An entry in {ev[1]} needs an entry in {req[1]}"


def _compulsory(r: d.CompulsoryRule, n: _Names):
    ev = n.events_of(r.events)
    if r.any_of:
        return f"每个代表团至少报名{ev[0]}中的一项", f"Every delegation enters at least one of {ev[1]}"
    return f"每个代表团必须报名{ev[0]}", f"Every delegation enters {ev[1]}"


def _officials_ratio(r: d.OfficialsRatioRule, n: _Names):
    roles = ("、".join(ROLES[x][0] for x in r.roles), " or ".join(ROLES[x][1] for x in r.roles))
    sport = n.sport(r.sport)
    of = (f"{sport[0]}运动员", f"{sport[1]} athletes") if r.sport else ("运动员", "athletes")
    rounding = ("不足部分按 1 人计", "rounded up") if r.rounding == "up" else ("不足部分不计", "rounded down")
    zh = f"{roles[0]}：每 {r.per_athletes} 名{of[0]}至多 1 人，{rounding[0]}"
    en = f"{_upper(roles[1])}: at most one per {r.per_athletes} {of[1]}, {rounding[1]}"
    if r.at_least:
        zh += f"，至少可报 {r.at_least} 人"
        en += f", and never fewer than {r.at_least}"
    return zh, en


def _cross_gender(r: d.CrossGenderRule, n: _Names):
    ev = n.events_of(r.events)
    return f"{PLAYERS[r.gender][0]}选手可报名{ev[0]}", f"{_upper(PLAYERS[r.gender][1])} may enter {ev[1]}"


def _companion_required(r: d.CompanionRequiredRule, n: _Names):
    on = (f"（按 {_day(r.age_on)[0]} 计算）", f" on {r.age_on.isoformat()}") if r.age_on else \
        ("（按比赛首日计算）", " on the first day of play")
    who = WHO[r.who]
    return (f"年满 {r.min_age} 周岁{on[0]}的{who[0]}须由本代表团随队人员陪同",
            f"{_upper(who[1])} aged {r.min_age} or more{on[1]} come with a companion of their delegation")


def _event_units(r: d.EventUnitsRule, n: _Names):
    ev = n.events_of(r.events)
    who = [n.unit_kinds.get(k, (k, k)) for k in r.unit_kinds]
    if r.units:
        listed = n.units_of(r.units)
        who.append(((r.name.zh if r.name else "指定单位") + "（" + listed[0] + "）",
                    (r.name.en if r.name else "the units listed") + " (" + listed[1] + ")"))
    if r.open_units:
        who.append(("俱乐部、学校等单位", "clubs, schools and other open units"))
    if r.individuals:
        who.append(("个人", "individuals"))
    text = _join(who, "、", ", ")
    return f"{ev[0]}仅限{text[0]}报名", f"Only {text[1]} may enter {ev[1]}"


def _registration(r: d.RegistrationRule, n: _Names):
    sports = [n.sport(s) for s in r.sports or []]
    of = (f"（{'、'.join(s[0] for s in sports)}）", f" ({', '.join(s[1] for s in sports)})") if sports else ("", "")
    zh = f"运动员须为本单位 {r.year} 年度注册运动员{of[0]}"
    en = f"Athletes are registered with their unit for {r.year}{of[1]}"
    if r.registered_by:
        day = _day(r.registered_by)
        zh += f"，注册时间截至 {day[0]}"
        en += f", registered on or before {day[1]}"
    return zh, en


OWNERSHIP = {"public": ("公办", "public"), "private": ("民办", "private"), "sino_foreign": ("中外合作办学", "Sino-foreign"),
             "hk_macau_taiwan": ("内地与港澳台合作办学", "with Hong Kong, Macao or Taiwan")}


def _university(r: d.UniversityRule, n: _Names):
    ev = n.events_of(r.events)
    owned = ("、".join(OWNERSHIP.get(o, (o, o))[0] for o in r.ownership), " or ".join(OWNERSHIP.get(o, (o, o))[1] for o in r.ownership))
    zh = f"{ev[0]}：须为{owned[0]}普通高校{'全日制' if r.full_time else ''}在校学生"
    en = f"{ev[1]}: students {'full-time ' if r.full_time else ''}at {owned[1]} universities"
    if r.not_graduated_before:
        day = _day(r.not_graduated_before)
        zh += f"，{day[0]}前未毕业"
        en += f", not graduated before {day[1]}"
    return zh, en


def _officials(r: d.OfficialsRule, n: _Names):
    sport = n.sport(r.sport)
    parts = []
    for t in r.tiers:
        who = [(f"领队 {t.leaders} 人", _many(t.leaders, "leader"))] if t.leaders else []
        who += [(f"教练 {t.coaches} 人", _many(t.coaches, "coach", "coaches"))] if t.coaches else []
        who += [(f"领队兼教练 {t.leader_coaches} 人", _many(t.leader_coaches, "leader-coach", "leader-coaches"))] \
            if t.leader_coaches else []
        people = _join(who, "、", ", ")
        if t.min_events:
            parts.append((f"报 {t.min_events} 个项目及以上可报{people[0]}", f"{t.min_events} events or more: {people[1]}"))
        else:
            parts.append((f"可报{people[0]}", f"{people[1]}"))
    body = _join(parts, "；", "; ")
    head = (f"{sport[0]}官员：每单位" if r.sport else "官员：每单位", f"{sport[1]} officials per unit: " if r.sport else "Officials per unit: ")
    if len(r.tiers) > 1:
        return f"{head[0]}{body[0]}（按所报项目数，取最高一档）", f"{head[1]}{body[1]} (by events entered, highest tier met)"
    return f"{head[0]}{body[0]}", f"{head[1]}{body[1]}"


def _staff_ratio(r: d.StaffRatioRule, n: _Names):
    parts, low = [], 0
    for t in r.tiers:
        who = [(f"团长 {t.head} 人", _many(t.head, "head"))] if t.head else []
        who += [(f"副团长 {t.deputy_head} 人", _many(t.deputy_head, "deputy head"))] if t.deputy_head else []
        who += [(f"工作人员 {t.staff} 人", f"{t.staff} staff")] if t.staff else []
        if t.staff_per_athletes:
            who.append((f"每 {t.staff_per_athletes} 名运动员增加工作人员 1 人",
                        f"one more staff member per {t.staff_per_athletes} athletes"))
        people = _join(who, "、", ", ")
        if t.max_athletes is not None:
            parts.append((f"运动员 {t.max_athletes} 人及以下：{people[0]}", f"up to {t.max_athletes} athletes: {people[1]}"))
            low = t.max_athletes
        else:
            parts.append((f"运动员超过 {low} 人：{people[0]}" if low else people[0],
                          f"more than {low} athletes: {people[1]}" if low else people[1]))
    body = _join(parts, "；", "; ")
    return (f"代表团团部人员：{body[0]}；超出的人员不享受优惠待遇（提醒）",
            f"Delegation staff: {body[1]}; people beyond it lose the preferential terms (a warning)")


def _documents(r: d.DocumentsRule, n: _Names):
    docs = ("、".join(n.documents.get(x, (x, x))[0] for x in r.documents),
            ", ".join(n.documents.get(x, (x, x))[1] for x in r.documents))
    who = WHO[r.who]
    if r.events:
        ev = n.events_of(r.events)
        who = (f"{ev[0]}的{who[0]}", f"{who[1]} of {ev[1]}")
    aged = age_words(r)
    if aged[0]:
        who = (f"{aged[0]}的{who[0]}", f"{who[1]} {aged[1]}")
    due = ("报名时提交", "with the entry") if r.due == "entry" else ("报到时出示", "at check-in")
    return f"{who[0]}须{due[0]}：{docs[0]}", f"{_upper(who[1])}: {docs[1]}, {due[1]}"


def _id_required(r: d.IdRequiredRule, n: _Names):
    who = WHO[r.who]
    return f"{who[0]}须填写证件号码", f"{_upper(who[1])}: an identity number is required"


def _accepted_id_types(r: d.AcceptedIdTypesRule, n: _Names):
    who = WHO[r.who]
    types = ("、".join(n.id_types.get(x, (x, x))[0] for x in r.types), ", ".join(n.id_types.get(x, (x, x))[1] for x in r.types))
    return f"{who[0]}只接受以下证件：{types[0]}", f"{_upper(who[1])}: only {types[1]} accepted"


def _where(r, n: _Names) -> tuple[str, str]:
    if getattr(r, "events", None):
        return n.events_of(r.events)
    return WHO.get(getattr(r, "who", "athletes"), ("运动员", "athletes"))


def _grade(r: d.GradeRule, n: _Names):
    system = n.grade_systems[r.system]
    span = grade_span(system, r)
    zh, en = f"{n.events_of(r.events)[0]}：限{system.name[0]}{span[0]}的选手", \
        f"{n.events_of(r.events)[1]}: players of {span[1]} ({system.name[1]})"
    if r.held_on:
        day = _day(r.held_on)
        zh += f"，以{day[0]}前获得的段级位（称号）为准"
        en += f", as held on {day[1]}"
    if r.awarded_by:
        zh += f"，只计{'、'.join(r.awarded_by)}授予的段级位"
        en += f", counting grades awarded by {', '.join(r.awarded_by)} only"
    if r.lowest and r.ungraded == "admitted":
        zh, en = zh + "，无段级位者也可报名", en + "; players without a grade may enter too"
    return zh, en


def _rating(r: d.RatingRule, n: _Names):
    name = n.rating_lists.get(r.list, (r.list, r.list))
    band = rating_band(r)
    ev = n.events_of(r.events)
    zh, en = f"{ev[0]}：{name[0]}须{band[0]}", f"{ev[1]}: {name[1]} of {band[1]}"
    if r.list_on:
        day = _day(r.list_on)
        zh += f"（以{day[0]}公布的等级分为准）"
        en += f" (the list of {day[1]})"
    if r.unrated == "admitted":
        zh, en = zh + "，无等级分者也可报名", en + "; unrated players may enter too"
    return zh, en


def _residence(r: d.ResidenceRule, n: _Names):
    who = _where(r, n)
    regions = [region_name(c) for c in r.regions]
    allowed = (r.name.zh, r.name.en) if r.name else ("、".join(x[0] for x in regions), ", ".join(x[1] for x in regions))
    zh, en = f"{who[0]}：限{allowed[0]}户籍（常住）的人员", f"{_upper(who[1])}: residents of {allowed[1]}"
    if r.since_by:
        day = _day(r.since_by)
        zh += f"，须于{day[0]}前落户（居住）"
        en += f", resident since {day[1]} or earlier"
    return zh, en


def _nationality(r: d.NationalityRule, n: _Names):
    who = _where(r, n)
    names = [NATIONALITIES.get(c, (c, c)) for c in r.nationalities]
    return (f"{who[0]}：限{'、'.join(x[0] for x in names)}国籍", f"{_upper(who[1])}: nationals of {', '.join(x[1] for x in names)}")


def _qualified(r: d.QualifiedRule, n: _Names):
    ev = n.events_of(r.events)
    by = (r.name.zh, r.name.en) if r.name else ("资格赛", "the qualifying competition")
    return f"{ev[0]}：只限{by[0]}晋级的选手报名", f"{ev[1]}: only players qualified by {by[1]}"


def _points(r: d.PointsRule, n: _Names):
    ev = n.events_of(r.events)
    need = []
    if r.min_points is not None:
        need.append((f"{r.min_points.normalize():f}分以上", f"at least {r.min_points.normalize():f}"))
    if r.below_points is not None:
        need.append((f"未满{r.below_points.normalize():f}分", f"fewer than {r.below_points.normalize():f}"))
    return (f"{ev[0]}：限{r.name.zh}{'、'.join(x[0] for x in need)}的棋手（以棋手档案为准）",
            f"{ev[1]}: players with {' and '.join(x[1] for x in need)} {r.name.en} (as the player register holds them)")


def _placed_before(r: d.PlacedBeforeRule, n: _Names):
    ev = n.events_of(r.events)
    return f"{ev[0]}：{r.name.zh}不得报名", f"{ev[1]}: {r.name.en} may not enter"


def _officials_required(r: d.OfficialsRequiredRule, n: _Names):
    roles = ("或".join(ROLE_NAMES[x][0] for x in r.roles), " or ".join(ROLE_NAMES[x][1] for x in r.roles))
    per = {"unit": ("每单位", "Each unit"), "team": ("每队", "Each team"), "sport": ("每个大项", "Each sport")}[r.per]
    zh, en = f"{per[0]}须报{roles[0]} {r.count} 名", f"{per[1]} names {_many(r.count, roles[1])}"
    if r.per == "team" and r.events:
        ev = n.events_of(r.events)
        zh, en = f"{ev[0]}：{zh}", f"{ev[1]}: {en}"
    if r.employed_as:
        kinds = ("或".join(EMPLOYMENT_NAMES[k][0] for k in r.employed_as), " or ".join(EMPLOYMENT_NAMES[k][1] for k in r.employed_as))
        zh += f"，须为本单位的{kinds[0]}"
        en += f", who must be {kinds[1]} of the unit"
    return zh, en


def _employment(r: d.EmploymentRule, n: _Names):
    ev = n.events_of(r.events)
    kinds = ("、".join(EMPLOYMENT_NAMES[k][0] for k in r.kinds), ", ".join(EMPLOYMENT_NAMES[k][1] for k in r.kinds))
    zh, en = f"{ev[0]}：限本单位的{kinds[0]}", f"{ev[1]}: the unit's own {kinds[1]}"
    if "graduate" in r.kinds and r.graduated_within_years:
        zh += f"（毕业生限比赛开始前 {r.graduated_within_years} 年内毕业）"
        en += f" (graduates of the last {_many(r.graduated_within_years, 'year')} before the Games)"
    return zh, en


def _joint_team(r: d.JointTeamRule, n: _Names):
    ev = n.events_of(r.events) if r.events else ("各项目", "Every event")
    zh, en = f"{ev[0]}：可与其他学校（单位）的运动员组成联队", f"{_upper(ev[1])}: players of other institutions may join as one joint team"
    if r.max_institutions:
        zh += f"，至多 {r.max_institutions} 所（含本单位）"
        en += f" of at most {_many(r.max_institutions, 'institution')} (the unit's own included)"
    if r.within:
        zh += "，限同一" + {"province": "省（区、市）", "city": "城市"}[r.within] + "的高校"
        en += ", universities of one " + r.within
    if r.needs_approval:
        zh, en = zh + "，须经组委会批准", en + ", approved by the organisers"
    return zh, en


SENTENCES: dict[type, Callable] = {
    d.AgeBracketRule: _age_bracket, d.QuotaRule: _quota, d.TeamMakeupRule: _team_makeup, d.BoardRule: _boards,
    d.ExclusiveRule: _exclusive, d.OneOfRule: _one_of, d.RatingExceptionRule: _rating_exception,
    d.TeamSizeRule: _team_size, d.EntryMinimumRule: _entry_minimum, d.EntryRequiresRule: _entry_requires, d.EventMinimumRule: _event_minimum,
    d.CompulsoryRule: _compulsory, d.OfficialsRatioRule: _officials_ratio, d.CrossGenderRule: _cross_gender,
    d.CompanionRequiredRule: _companion_required, d.EventUnitsRule: _event_units, d.RegistrationRule: _registration,
    d.UniversityRule: _university, d.OfficialsRule: _officials, d.StaffRatioRule: _staff_ratio,
    d.DocumentsRule: _documents, d.IdRequiredRule: _id_required, d.AcceptedIdTypesRule: _accepted_id_types,
    d.GradeRule: _grade, d.RatingRule: _rating, d.ResidenceRule: _residence, d.NationalityRule: _nationality,
    d.QualifiedRule: _qualified, d.PlacedBeforeRule: _placed_before, d.PointsRule: _points, d.OfficialsRequiredRule: _officials_required, d.EmploymentRule: _employment,
    d.JointTeamRule: _joint_team,
}


def _participation(definition: d.GamesDefinition, n: _Names) -> list[Line]:
    part, out = definition.participation, []
    if part.unit_kinds:
        kinds = [n.unit_kinds.get(k, (k, k)) for k in part.unit_kinds]
        text = _join(kinds, "、", ", ")
        out.append(Line("participation", f"以下单位可报名：{text[0]}", f"Units that may enter: {text[1]}"))
    if part.invited:
        name = (part.invited_name.zh, part.invited_name.en) if part.invited_name else ("特邀单位", "invited units")
        listed = n.units_of(part.invited)
        out.append(Line("participation", f"{name[0]}：{listed[0]}", f"{_upper(name[1])}: {listed[1]}"))
    if part.open_units:
        out.append(Line("participation", "俱乐部、学校等单位可以自己的名义报名", "Clubs, schools and other open units may enter in their own name"))
    if part.individuals:
        out.append(Line("participation", "个人可以单独报名", "A person may enter alone"))
    if definition.capacity:
        out.append(Line("participation", f"参赛名额共 {definition.capacity} 个，先报先得，额满后进入候补",
                        f"{definition.capacity} places, first come first served; later entries wait-listed"))
    return out


def _stages(definition: d.GamesDefinition) -> list[Line]:
    s, out = definition.stages, []
    for field, zh, en in (("declaration_closes", "报项（项目和人数）", "Declaration (events and numbers)"),
                          ("names_closes", "报名（姓名）", "Names"),
                          ("substitutions_closes", "更换人员", "Substitutions"),
                          ("changes_close", "一切变更", "Every change")):
        value = getattr(s, field)
        if value is not None:
            at = _deadline(value)
            out.append(Line("stages", f"{zh}截止：{at[0]}", f"{en} close: {at[1]}"))
    if s.changes_need_approval and (s.names_closes or s.substitutions_closes):
        out.append(Line("stages", "报名截止后更换人员须经组委会批准", "After the names close, a substitution needs the organisers' approval"))
    if s.replacing_after_submission_needs_approval:
        # The fee only where the regulation sets one: nothing the committee did not write.
        fee = next((f for f in definition.money.fees if f.per == "person_changed"), None)
        out.append(Line("stages", "报名提交后，更换运动员须经组委会批准" + (f"（并交{fee.name.zh}）" if fee else ""),
                        "Once submitted, an athlete is replaced only by an approved substitution"
                        + (f" (with the {fee.name.en.lower()})" if fee else "")))
    if definition.sanctions.loses == "event_next_edition":
        out.append(Line("stages", "报名（姓名）截止后无故退出的项目，该单位下一届不得报名该项目",
                        "A unit that withdraws from an event without excuse after the names close may not enter "
                        "it at the next edition", clause=definition.sanctions.clause))
    sanctions = definition.sanctions
    if sanctions.notice_hours:
        out.append(Line("stages", f"退赛须于赛前 {sanctions.notice_hours} 小时通知组委会，逾期按无故退出处理",
                        f"A withdrawal is announced {sanctions.notice_hours} hours before play, or it counts as unexcused",
                        clause=sanctions.clause))
    if sanctions.explanation:
        name = d.document_names(definition).get(sanctions.explanation, (sanctions.explanation, sanctions.explanation))
        out.append(Line("stages", f"有故退出须提交{name[0]}", f"An excused withdrawal needs the {name[1]}",
                        clause=sanctions.clause))
    if sanctions.loses_award_eligibility:
        out.append(Line("stages", "无故退出的单位取消本届团体总分和奖牌榜的录取资格",
                        "A unit that withdraws without excuse loses its place in these Games' unit tables",
                        clause=sanctions.clause))
    for step in sorted(sanctions.forfeits, key=lambda s: s.count):
        what = ("给予警告", "a warning") if step.sanction == "warning" else ("取消下一届的参赛资格", "barred from the next edition")
        out.append(Line("stages", f"棋手在本系列比赛中第 {step.count} 次无故弃权：{what[0]}",
                        f"A player's forfeit number {step.count} in the series: {what[1]}", clause=sanctions.clause))
    d0, d1 = _day(definition.dates.start), _day(definition.dates.end)
    out.append(Line("stages", f"比赛日期：{d0[0]} 至 {d1[0]}", f"Play: {d0[1]} to {d1[1]}"))
    return out


def read_back(definition: d.GamesDefinition, units: dict[str, tuple[str, str]] | None = None,
              games: dict[str, tuple[str, str]] | None = None) -> list[Line]:
    """Every line of the Games' read-back, section by section, rules in the definition's
    order. `units`: unit code -> (zh, en) name, so that invited units read by name; `games`:
    another Games' slug or series -> its name (where a qualification leads)."""
    n = _Names(definition, units or {})
    n.other_games = games or {}
    lines = _participation(definition, n) + _stages(definition)
    for rule in definition.rules:
        zh, en = SENTENCES[type(rule)](rule, n)
        if rule.note:
            zh, en = f"{zh}（{rule.note}）", f"{en} ({rule.note})"
        lines.append(Line("rules", zh, en, clause=rule.clause, kind=rule.kind))
    return lines + _money(definition, n) + _stay(definition) + _awards(definition, n) + _schedule(definition)


def _schedule(definition: d.GamesDefinition) -> list[Line]:
    """Each event's sessions in China time, as the committee typed them."""
    out = []
    for e in definition.events:
        if not e.sessions:
            continue
        zh = "；".join(f"{s.start.astimezone(CHINA):%m月%d日 %H:%M}-{s.end.astimezone(CHINA):%H:%M}" for s in e.sessions)
        en = "; ".join(f"{s.start.astimezone(CHINA):%Y-%m-%d %H:%M}-{s.end.astimezone(CHINA):%H:%M}" for s in e.sessions)
        out.append(Line("schedule", f"{e.name.zh}：{zh}（北京时间）", f"{e.name.en}: {en} (Beijing time)"))
    return out


def _which(a, n: _Names) -> tuple[str, str]:
    """The events an award applies to, in words."""
    if getattr(a, "events", None):
        return n.events_of(a.events)
    kind = getattr(a, "event_kind", None)
    return {"individual": ("各个人项目", "each individual event"), "team": ("各团体项目", "each team event")}.get(
        kind, ("各项目", "each event"))


def _places(places: list[int]) -> tuple[str, str]:
    """[1, 2, 3] -> 第1至3名; [5] -> 第5名."""
    if len(places) > 1 and places == list(range(places[0], places[-1] + 1)):
        return f"第{places[0]}至{places[-1]}名", f"places {places[0]}-{places[-1]}"
    return "第" + "、".join(str(p) for p in places) + "名", "place " + ", ".join(str(p) for p in places)


def _numbers(values) -> str:
    return "、".join(str(v) for v in values)


def _awards(definition: d.GamesDefinition, n: _Names) -> list[Line]:
    """What is awarded after play, kind by kind, each with its clause."""
    from . import awards as aw
    out = []
    for a in definition.awards:
        ev = _which(a, n)
        if isinstance(a, aw.PlacesAward):
            if a.places is not None:
                zh, en = f"{ev[0]}录取前 {a.places} 名", f"{ev[1]}: the first {a.places} placed"
            else:
                steps = sorted(a.by_entrants, key=lambda s: -s.min_entrants)
                zh_parts, en_parts = [], []
                for i, s in enumerate(steps):
                    what = ("前 " + str(s.places) + " 名", str(s.places)) if s.places != "n-1" else ("参赛数减一名", "all but one")
                    if s.min_entrants == 0 and i:  # the last step: fewer than the one before
                        zh_parts.append(f"不足 {steps[i - 1].min_entrants} 人（队）录取{what[0]}")
                        en_parts.append(f"fewer than {steps[i - 1].min_entrants}: {what[1]}")
                    else:
                        zh_parts.append(f"{s.min_entrants} 人（队）及以上录取{what[0]}")
                        en_parts.append(f"{s.min_entrants} or more: {what[1]}")
                zh, en = f"{ev[0]}录取名次：" + "；".join(zh_parts), f"{ev[1]} places: " + "; ".join(en_parts)
        elif isinstance(a, aw.PointsAward):
            zh, en = f"{ev[0]}按名次计分：{_numbers(a.table)}", f"{ev[1]} scores by place: {', '.join(str(v) for v in a.table)}"
        elif isinstance(a, aw.MedalsAward):
            zh = f"{ev[0]}前三名获金、银、铜牌" + ("，计入奖牌榜" if a.table else "")
            en = f"{ev[1]}: gold, silver and bronze for the first three" + (", in the medal table" if a.table else "")
        elif isinstance(a, aw.PrizesAward):
            zh = f"{ev[0]}奖金：{_numbers(a.amounts)} 元（依名次）"
            en = f"{ev[1]} prizes by place: {', '.join('¥' + str(v) for v in a.amounts)}"
        elif isinstance(a, aw.TeamFromIndividuals):
            best = "、".join(f"{'男子' if g == 'M' else '女子'}最好 {k} 人" for g, k in a.best.items())
            zh, en = f"{ev[0]}按队员个人赛成绩计算（{best}）", f"{ev[1]}: computed from the members' individual results"
        elif isinstance(a, (aw.GroupStanding, aw.AgeStanding)):
            zh, en = f"{a.name.zh}（{ev[0]}）", f"{a.name.en} ({ev[1]})"
        elif isinstance(a, aw.OutsideMedals):
            zh, en = f"{a.source.zh}获得的奖牌计入奖牌榜（另列）", f"Medals won at {a.source.en} count in the medal table (shown apart)"
        elif isinstance(a, aw.QualifiesAward):
            apart = ("（男女分别计算名次）", " (men and women placed apart)") if a.by_gender else ("", "")
            zh = f"{ev[0]}前 {a.top} 名{apart[0]}获得{n.games_named(a.to)[0]}的参赛资格"
            en = f"{ev[1]}: the first {a.top}{apart[1]} qualify for {n.games_named(a.to)[1]}"
        elif isinstance(a, aw.GradeByPlace):
            system = n.grade_systems[a.system]
            by_grade: dict[str, list[int]] = {}
            for place, word in sorted(a.grades.items()):
                by_grade.setdefault(system.word(word), []).append(place)
            zh = f"{ev[0]}：" + "；".join(f"{_places(ps)[0]}授予{w}" for w, ps in by_grade.items())
            en = f"{ev[1]}: " + "; ".join(f"{_places(ps)[1]} earn {system.word(w, 'en')}" for w, ps in by_grade.items())
            if a.by_gender:
                zh, en = zh + "（男女分别计算名次）", en + " (men and women placed apart)"
        elif isinstance(a, aw.PromotionByRecord):
            system = n.grade_systems[a.system]
            if a.min_wins is not None:
                zh = f"{ev[0]}：胜 {a.min_wins} 局及以上的棋手晋升{a.steps}级（{system.name[0]}）"
                en = f"{ev[1]}: {_many(a.min_wins, 'win')} or more move a player {_many(a.steps, 'step')} up ({system.name[1]})"
            else:
                zh = f"{ev[0]}：积分达到 {a.min_score} 分的棋手晋升{a.steps}级（{system.name[0]}）"
                en = f"{ev[1]}: a score of {a.min_score} or more moves a player {_many(a.steps, 'step')} up ({system.name[1]})"
            if a.up_to:
                zh, en = zh + f"，最高至{system.word(a.up_to)}", en + f", up to {system.word(a.up_to, 'en')} at most"
        elif isinstance(a, aw.FederationPoints):
            zh = f"{ev[0]}按名次授予{a.name.zh}：{_numbers(a.table)}"
            en = f"{ev[1]}: {a.name.en} by place: {', '.join(str(v) for v in a.table)}"
        else:
            continue
        out.append(Line("awards", zh, en, clause=a.clause, kind=a.kind))
    return out


def _stay(definition: d.GamesDefinition) -> list[Line]:
    """Rooms, their rates, who must stay and when, and the leaders' meeting."""
    out = []
    for room in definition.rooms:
        per = ("每人每晚", "a person a night") if room.per == "person_night" else ("每间每晚", "a room a night")
        out.append(Line("stay", f"{room.hotel} {room.name.zh}：{per[0]} {room.rate} 元",
                        f"{room.hotel} {room.name.en}: ¥{room.rate} {per[1]}"))
    if definition.rooms_required_for:
        who = ("运动员", "athletes") if definition.rooms_required_for == "athletes" else ("全体人员", "everyone")
        out.append(Line("stay", f"{who[0]}须在指定酒店住宿", f"{who[1].capitalize()} must stay at the appointed hotel"))
    for s in definition.stay:
        who, start = STAY_WHO[s.who], FROM[s.arrive_relative_to]
        zh = f"{who[0]}最早于{start[0]}前 {s.arrive_days_before} 天报到"
        en = f"{who[1].capitalize()} arrive at the earliest {s.arrive_days_before} days before {start[1]}"
        if s.depart_days_after is not None and s.depart_relative_to:
            end = FROM[s.depart_relative_to]
            if s.depart_days_after == 0:
                zh, en = zh + f"，{end[0]}当天离会", en + f" and leave on the day of {end[1]}"
            else:
                zh += f"，{end[0]}后 {s.depart_days_after} 天内离会"
                en += f" and leave within {s.depart_days_after} days after {end[1]}"
        out.append(Line("stay", zh, en))
    m = definition.leaders_meeting
    if m is not None:
        when = _instant(m.at) if m.at else ((f"{m.date.year}年{m.date.month}月{m.date.day}日（时间另行通知）",
                                             f"{m.date.isoformat()} (the hour to be announced)") if m.date else ("", ""))
        zh, en = f"{m.name.zh}：{when[0]}", f"{m.name.en}: {when[1]}"
        if m.confirms_names:
            zh, en = zh + "，会上核实参赛人员名单", en + "; the names are confirmed there"
        if m.leaders_must_attend:
            zh, en = zh + "，各单位领队必须参加", en + "; every unit's leader must attend"
        if m.closes_checkin:
            zh, en = zh + "，会议开始即报到截止", en + "; check-in closes when it starts"
        out.append(Line("stay", zh, en))
    return out


def _money(definition: d.GamesDefinition, n: _Names) -> list[Line]:
    """The fees as the regulation sets them, so that an amendment names each one it changes
    (before and after); the insurance and the payee."""
    m, out = definition.money, []
    for fee in m.fees:
        per, refund = PER[fee.per], REFUND[fee.refundable]
        beyond = (f"，超出名额者 {fee.amount_beyond} 元" if fee.amount_beyond is not None else "",
                  f", {fee.amount_beyond} beyond the allowance" if fee.amount_beyond is not None else "")
        days = (f"（{fee.days} 天）" if fee.days else "", f" ({fee.days} days)" if fee.days else "")
        kept = ("", "")
        if fee.forfeited_on:
            kept = ("；" + "、".join(KEPT_ON[k][0] for k in fee.forfeited_on) + "者不予退还",
                    "; kept on " + ", ".join(KEPT_ON[k][1] for k in fee.forfeited_on))
        if fee.events:  # charged for these events only
            ev = n.events_of(fee.events)
            per = (f"{ev[0]}{per[0]}", f"{per[1]} in {ev[1]}")
        out.append(Line("money", f"{fee.name.zh}：{per[0]} {fee.amount} 元{days[0]}{beyond[0]}{refund[0]}{kept[0]}",
                        f"{fee.name.en}: ¥{fee.amount} {per[1]}{days[1]}{beyond[1]}{refund[1]}{kept[1]}"))
    if m.insurance in INSURANCE:
        out.append(Line("money", *INSURANCE[m.insurance]))
    if m.entry_valid_when_paid:
        out.append(Line("money", "报名费须在截止前到账，否则报名无效", "The entry counts only once its fee arrives by the deadline"))
    if m.payee is not None:
        out.append(Line("money", f"收款账户：{m.payee.name}，{m.payee.bank or ''} {m.payee.account or ''}".strip(),
                        f"Payee: {m.payee.name}, {m.payee.bank or ''} {m.payee.account or ''}".strip()))
    return out

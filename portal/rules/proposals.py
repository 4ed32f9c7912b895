"""From a regulation's text to a draft (issue 37, 10): the values its sentences state, each
beside its clause, proposed to the committee one by one and never applied unseen: the
days of play and of arrival, the places (first come, first served), the declaration and names deadlines, age groups by birth date,
fees per person, team or change, quotas per unit, events per player, team sizes, places
awarded.

Sentences, not a grammar: each reader below knows one way Chinese regulations write a
value ("2009年5月31日截止", "每队由4名选手组成", "录取前6名"); what none of them reads is left
for the committee to type, as before. Pure: text in, proposals out."""
from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field
from decimal import Decimal

from .clauses import split

CHINA = dt.timezone(dt.timedelta(hours=8))
_CN = {"一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9, "十": 10}
NUM = r"(\d+|[一二两三四五六七八九十]+)"
_DAY = r"(?:(\d{4})\s*年\s*)?(\d{1,2})\s*月\s*(\d{1,2})\s*日?"
_INCL = r"\s*(?:[（(]含[)）])?\s*"
_TO = r"\s*(?:至|到|-|－|—|–|~|～)\s*"


def number(text: str) -> int:
    """4, 四, 十二 as an integer."""
    if text.isdigit():
        return int(text)
    if "十" in text:
        tens, _, ones = text.partition("十")
        return (_CN.get(tens, 1) if tens else 1) * 10 + (_CN[ones] if ones else 0)
    return _CN[text]


@dataclass(frozen=True)
class Proposal:
    kind: str  # dates, report, capacity, declaration_closes, names_closes, age_bracket, fee, quota, events_per_player,
    # documents_by_age, team_size, places
    ref: str | None  # the clause the sentence is in
    excerpt: str  # the sentence, as the regulation writes it
    values: dict = field(default_factory=dict)  # as the definition spells them (ISO dates and instants)

    @property
    def key(self) -> str:
        """A stable name for the proposal, for its form."""
        return f"{self.kind}:{self.ref or ''}:{sorted(self.values.items())}"


def _date(year: str | None, month: str, day: str, default_year: int) -> dt.date | None:
    try:
        return dt.date(int(year) if year else default_year, int(month), int(day))
    except ValueError:
        return None


def _sentences(text: str):
    """(clause ref, sentence) of the whole text, each sentence under the last clause opened."""
    ref = None
    for clause in split(text):
        ref = clause.ref or ref
        for sentence in re.split(r"(?<=[。；;])", clause.text):
            if sentence.strip():
                yield ref, sentence.strip()


def _year_of(text: str) -> int:
    years = [int(y) for y in re.findall(r"(20\d{2}|19\d{2})\s*年", text)]
    return max(set(years), key=years.count) if years else dt.date.today().year


def propose(text: str) -> list[Proposal]:
    """Every value the regulation's sentences state that a reader below knows, in the text's order."""
    year = _year_of(text)
    out: list[Proposal] = []
    seen = set()
    for ref, sentence in _sentences(text):
        for proposal in _read(sentence, ref, year):
            if proposal.key not in seen:
                seen.add(proposal.key)
                out.append(proposal)
    return out


def _read(s: str, ref: str | None, year: int) -> list[Proposal]:
    found: list[Proposal] = []
    excerpt = s[:200]

    def add(kind, **values):
        found.append(Proposal(kind, ref, excerpt, values))

    born = False
    # Age groups by birth date: "1998年1月1日至2003年12月31日出生", "2008年1月1日以后出生".
    for m in re.finditer(rf"(\d{{4}})\s*年\s*(\d{{1,2}})\s*月\s*(\d{{1,2}})\s*日{_INCL}{_TO}(\d{{4}})\s*年\s*(\d{{1,2}})\s*月"
                         rf"\s*(\d{{1,2}})\s*日{_INCL}(?:之间)?\s*(?:期间)?\s*出生", s):
        lo, hi = _date(*m.group(1, 2, 3), year), _date(*m.group(4, 5, 6), year)
        if lo and hi:
            add("age_bracket", born_from=lo.isoformat(), born_to=hi.isoformat())
            born = True
    for m in re.finditer(rf"(\d{{4}})\s*年\s*(\d{{1,2}})\s*月\s*(\d{{1,2}})\s*日{_INCL}(以后|之后|以前|之前|前)\s*出生", s):
        day = _date(*m.group(1, 2, 3), year)
        if day:
            add("age_bracket", **({"born_from": day.isoformat()} if m.group(4) in ("以后", "之后")
                                  else {"born_to": day.isoformat()}))
            born = True
    if born:
        return found
    # Deadlines: "第一次报名：2009年5月31日截止", "报名截止日期7月8日", "于8月20日17:00前报名".
    if re.search(r"报名|更改|更换|变更", s) and re.search(r"截止|前|之前|以前", s) and "出生" not in s:
        m = re.search(_DAY + r"(?:\s*[（(]?\s*(\d{1,2})\s*[:：时点]\s*(\d{2})?\s*分?[)）]?)?", s)
        if m:
            day = _date(*m.group(1, 2, 3), year)
            if day:
                if m.group(4):
                    at = dt.datetime.combine(day, dt.time(int(m.group(4)) % 24, int(m.group(5) or 0)), CHINA)
                else:  # "X月X日截止": through that day, so it closes as the next one begins
                    at = dt.datetime.combine(day + dt.timedelta(days=1), dt.time(0), CHINA)
                first = re.search(r"第一次报名|首次报名|报项|报名项目", s) and not re.search(r"第二次报名|名单", s)
                change = re.search(r"更改|更换|变更|替换", s)
                add("substitutions_closes" if change else "declaration_closes" if first else "names_closes",
                    at=at.isoformat())
                return found
    # The days of play: "2009年11月14至23日在四川省成都市举行", "时间：2019年11月8-18日".
    if re.search(r"举行|比赛时间|时间[:：]|日期", s) and "报到" not in s[:s.find("日") + 1 if "日" in s else 0]:
        m = re.search(rf"(\d{{4}})\s*年\s*(\d{{1,2}})\s*月\s*(\d{{1,2}})\s*日?{_TO}(?:(\d{{1,2}})\s*月\s*)?(\d{{1,2}})\s*日", s)
        if m:
            start = _date(m.group(1), m.group(2), m.group(3), year)
            end = _date(m.group(1), m.group(4) or m.group(2), m.group(5), year)
            if start and end and end >= start:
                add("dates", start=start.isoformat(), end=end.isoformat())
    # The Games' places, first come first served: "总人数限制160人，按照报名时间顺序，报满即止",
    # "限160人，按报名先后顺序" (rooms "额满为止" have no number of people).
    m = (re.search(rf"(?:总人数|参赛人数|报名人数)\s*(?:限制|限定|限|不超过|上限)\s*(?:为|在)?\s*{NUM}\s*(?:人|名)", s)
         or re.search(rf"限\s*{NUM}\s*(?:人|名)[^。；]{{0,16}}(?:报满即止|额满为止|先后顺序|满额为止)", s))
    if m:
        add("capacity", capacity=number(m.group(1)))
    # Arrival: "9月19日报到", "报到时间：7月14日".
    m = re.search(_DAY + r"\s*(?:全天)?\s*报到", s) or re.search(r"报到(?:时间|日期)?[:：]\s*" + _DAY, s)
    if m:
        day = _date(*m.group(1, 2, 3), year)
        if day:
            add("report", report=day.isoformat())
    # Fees: "报名费200元", "每改动一人另需缴手续费50元", "每队报名费500元", "保证金100元".
    for m in re.finditer(r"(报名费|参赛费|保证金|手续费|仲裁费|申诉费|食宿费|服务费)[^。；，,]{0,12}?(\d+(?:\.\d+)?)\s*元", s):
        name, amount = m.group(1), m.group(2)
        before = s[max(0, m.start() - 14):m.start()]
        per = ("late_athlete" if re.search(r"逾期|迟报|补报|截止后|超过截止", before) else
               "person_changed" if re.search(r"改动|更换|变更", before + name) else
               "appeal" if name in ("仲裁费", "申诉费") else
               "team_entry" if re.search(r"每队|每支", before) else
               "participant_day" if re.search(r"每人每天|每天", before + s[m.end():m.end() + 6]) else
               "individual_entry" if re.search(r"每人每项|每项每人|每名运动员每项|每人每个项目", before + s[m.start():m.end()]) else
               "entrant" if name == "保证金" else "athlete")
        add("fee", name=name, amount=f"{float(amount):.2f}", per=per)
    # A unit's athletes in all: "每单位运动员总数不超过12人", "各代表队参赛运动员合计不得超过8名".
    total = re.search(rf"(?:每|各)(?:个)?(?:单位|代表队|代表团|参赛队)[^。；，,]{{0,8}}?(?:总数|总人数|合计|共计|总计)"
                      rf"\s*(?:不超过|不得超过|不多于|限报|限|最多|为)?\s*{NUM}\s*(?:名|人)", s)
    if total:
        add("quota", max=number(total.group(1)), per="unit")
    # Quotas per unit: "每单位限报4人", "每个单位每项可报2名运动员".
    for m in [] if total else re.finditer(rf"每(?:个)?(?:单位|代表队|省|市)[^。；]{{0,12}}?(?:限报|可报|只能报|报)\s*{NUM}\s*(?:名|人)", s):
        add("quota", max=number(m.group(1)))
    # Documents of people of an age: "未满18周岁的运动员须提交监护人签字的参赛同意书",
    # "60岁以上的参赛者须提供体检证明" (which documents, the committee chooses).
    if re.search(r"(?:须|需|必须|应)\s*(?:提交|提供|出具|携带|出示)", s):
        m = re.search(rf"未满\s*{NUM}\s*周?岁", s)
        if m:
            add("documents_by_age", under_age=number(m.group(1)))
        m = re.search(rf"{NUM}\s*周?岁\s*(?:以上|及以上|\(含\)以上|（含）以上)", s)
        if m:
            add("documents_by_age", min_age=number(m.group(1)))
    # Events a player may enter: "每名运动员限报一项", "每人最多可兼报2个项目", "每位选手只能参加一个单项".
    for m in re.finditer(rf"每(?:名|位|个)?(?:运动员|选手|棋手|队员|参赛者|人)[^。；，,]{{0,6}}?(?:最多|至多|限|只能|只可|仅限)"
                         rf"\s*(?:可)?\s*(?:兼)?(?:报名|报|参加|参赛)*\s*{NUM}\s*(?:个)?\s*(?:小项|单项|项目|项)", s):
        add("events_per_player", max_events=number(m.group(1)))
    # Team sizes: "每队由4名选手(3男1女)组成", "每队4至6人".
    for m in re.finditer(rf"每队(?:由|限)?\s*{NUM}\s*(?:{_TO}\s*{NUM})?\s*(?:名|人)(?![男女少])", s):
        lo = number(m.group(1))
        hi = number(m.group(2)) if m.group(2) else lo
        add("team_size", min=lo, max=hi)
    # An event played only with enough entrants: "报名不足6人（队）的项目不设比赛",
    # "报名单位不足4个的项目取消", "参赛人数不足8人的组别与相邻组别合并".
    m = re.search(rf"(?:报名|参赛)(单位)?(?:人数|队数)?\s*不足\s*{NUM}\s*(个单位|个|人|名|队|支)?[^。；]{{0,12}}?"
                  rf"(取消|不设|不举行|不进行|不开赛|合并)", s)
    if m and not re.search(r"录取", s[max(0, m.start() - 8):m.end() + 8]):
        add("event_minimum", min=number(m.group(2)), count="units" if m.group(1) or m.group(3) == "个单位" else "entrants")
    # A band of federation points: "累计大师分10分以上的棋手方可报名大师组", "大师分满30分者不得
    # 参加业余组" (which kind of points and events, the committee chooses).
    points = r"(大师分|等级积分|协会积分|棋协积分|累计积分)"
    m = re.search(rf"{points}\s*(?:累计)?\s*(?:达到|满)\s*(\d+(?:\.\d+)?)\s*分[^。；]{{0,10}}?(?:不得|不能|不可|不再)", s)
    if m:
        add("points", name=m.group(1), below_points=m.group(2))
    else:
        m = re.search(rf"{points}\s*(?:累计)?\s*(?:达到|满)?\s*(\d+(?:\.\d+)?)\s*分\s*(?:及|或)?以上", s)
        if m:
            add("points", name=m.group(1), min_points=m.group(2))
    # Earlier placers kept out: "曾获得全国业余围棋锦标赛前八名的选手不得报名参加业余组",
    # "历届本赛事前三名获得者不得参加少年组" (which events and series, the committee chooses).
    m = re.search(rf"((?:曾|历届|往届|以往)[^。；，,]{{0,30}}?前\s*{NUM}\s*名(?:获得者|的选手|选手|者)?)[^。；]{{0,6}}?"
                  rf"(?:不得|不能|不可|不再|不允许)\s*(?:报名)?(?:参加|参赛|报名|报)", s)
    if m:
        add("placed_before", top=number(m.group(2)), name=m.group(1))
    # Places: "各项目录取前6名", "录取个人前九名".
    for m in re.finditer(rf"录取[^。；，前]{{0,6}}前\s*{NUM}\s*名", s):
        add("places", places=number(m.group(1)))
    return found


def holds(definition, p: Proposal) -> bool:
    """Whether a definition already says what the proposal proposes (how the proposals of
    the four fixtures' regulations are scored against the fixtures written by hand)."""
    from . import definition as d
    from .awards import PlacesAward, of_kind
    v = p.values
    if p.kind == "dates":
        return (definition.dates.start.isoformat(), definition.dates.end.isoformat()) == (v["start"], v["end"])
    if p.kind == "report":
        return definition.dates.report is not None and definition.dates.report.isoformat() == v["report"]
    if p.kind in ("declaration_closes", "names_closes", "substitutions_closes"):
        at = getattr(definition.stages, p.kind)
        return at is not None and at == dt.datetime.fromisoformat(v["at"])
    if p.kind == "capacity":
        return definition.capacity == v["capacity"]
    if p.kind == "age_bracket":
        return any((r.born_from.isoformat() if r.born_from else None, r.born_to.isoformat() if r.born_to else None)
                   == (v.get("born_from"), v.get("born_to")) for r in definition.rules_of(d.AgeBracketRule))
    if p.kind == "fee":
        return any(f"{f.amount:.2f}" == v["amount"] and f.per == v["per"] for f in definition.money.fees)
    if p.kind == "quota":
        return any(r.max == v["max"] and r.per == v.get("per", "event") for r in definition.rules_of(d.QuotaRule))
    if p.kind == "documents_by_age":
        return any(r.under_age == v.get("under_age") and r.min_age == v.get("min_age")
                   for r in definition.rules_of(d.DocumentsRule))
    if p.kind == "points":
        def same(held, said):
            return (held is None and said is None) or (held is not None and said is not None and held == Decimal(said))
        return any(same(r.min_points, v.get("min_points")) and same(r.below_points, v.get("below_points"))
                   for r in definition.rules_of(d.PointsRule))
    if p.kind == "event_minimum":
        return any(r.min == v["min"] and r.count == v["count"] for r in definition.rules_of(d.EventMinimumRule))
    if p.kind == "placed_before":
        return any(r.top == v["top"] for r in definition.rules_of(d.PlacedBeforeRule))
    if p.kind == "events_per_player":
        return any(r.max_events == v["max_events"] for r in definition.rules_of(d.OneOfRule))
    if p.kind == "team_size":
        return any(r.min == v["min"] and r.max == v["max"] for r in definition.rules_of(d.TeamSizeRule)) or any(
            r.starters and sum(r.starters.values()) == v["min"] == v["max"] for r in definition.rules_of(d.TeamMakeupRule))
    if p.kind == "places":
        return any(a.places == v["places"] or any(s.places == v["places"] for s in a.by_entrants)
                   for a in of_kind(definition.awards, PlacesAward)) or any(
            getattr(a, "few_entrants", None) is not None and a.few_entrants.places == v["places"] for a in definition.awards)
    return False

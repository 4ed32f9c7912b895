"""What each part of a Games definition is called on the set-up screens, in Chinese and
English: a refusal names the field as the organiser sees it ("第 4 条规则：最多人数"), never
as the definition spells it (rules[3].max)."""
from __future__ import annotations

import re

TOP = {
    "slug": ("网址代码", "slug"), "series": ("系列", "series"), "edition": ("届次", "edition"),
    "name": ("比赛名称", "name"), "venue": ("比赛地点", "venue"), "dates": ("日期", "dates"),
    "participation": ("参赛单位", "who may enter"), "stages": ("报名阶段", "stages"),
    "capacity": ("名额上限", "places"), "companions_per_athlete": ("每名运动员随队人员数", "companions per athlete"),
    "sports": ("大项", "sports"), "events": ("小项", "events"), "rules": ("规则", "rules"),
    "money": ("费用", "money"), "rooms": ("房型", "room types"), "stay": ("住宿期限", "stay"),
    "leaders_meeting": ("领队会议", "leaders' meeting"), "contacts": ("联系方式", "contacts"),
    "units": ("本届新增单位", "units added"), "document_kinds": ("材料种类", "document kinds"),
    "id_types": ("证件种类", "identity documents"), "unit_kind_names": ("单位类别", "kinds of unit"),
    "awards": ("奖励", "awards"), "competition": ("竞赛办法", "competition"), "sanctions": ("处罚", "sanctions"),
    "grade_systems": ("段级位体系", "grade systems"), "rating_lists": ("等级分名单", "rating lists"),
    "rooms_required_for": ("须入住指定酒店的人员", "who must stay in the hotel"), "regulation": ("规程文件", "regulation"),
}
FIELDS = {
    "unexcused_withdrawal_after": ("无故退出的时间", "an unexcused withdrawal"),
    "loses": ("处罚", "sanction"),
    "zh": ("中文", "Chinese"), "en": ("英文", "English"), "start": ("开始日期", "first day"),
    "end": ("结束日期", "last day"), "report": ("报到日期", "arrival day"), "depart": ("离会日期", "departure day"),
    "report_opens": ("报到开始", "check-in opens"), "report_closes": ("报到截止", "check-in closes"),
    "entry_list_published": ("公布参赛名单", "entry list published"),
    "declaration_closes": ("报项截止", "declaration closes"), "names_closes": ("报名截止", "names close"),
    "substitutions_closes": ("更换人员截止", "substitutions close"), "changes_close": ("一切变更截止", "all changes close"),
    "unit_kinds": ("单位类别", "kinds of unit"), "invited": ("特邀单位", "invited units"),
    "open_units": ("俱乐部等单位", "open units"), "individuals": ("个人报名", "individuals"),
    "code": ("代码", "code"), "sport": ("大项", "sport"), "gender": ("性别", "gender"), "kind": ("种类", "kind"),
    "events": ("项目", "events"), "max": ("最多人数", "at most"), "max_events": ("每人最多报几项", "events a player, at most"), "min": ("最少人数", "at least"),
    "born_from": ("出生日期不早于", "born on or after"), "born_to": ("出生日期不晚于", "born on or before"),
    "max_teams": ("每单位最多队数", "teams per unit"), "starters": ("上场人数", "starters"),
    "max_reserves": ("替补人数上限", "reserves"), "max_reserves_by_gender": ("各性别替补上限", "reserves by gender"),
    "min_by_gender": ("各性别最少人数", "at least by gender"), "members_entered_in": ("队员须兼报的个人项目", "members' individual events"),
    "requires_unit": ("仅限单位报名", "units only"), "boards": ("台数", "boards"), "board_gender": ("指定性别的台次", "boards by gender"),
    "says": ("规程原话", "the regulation's words"), "min_rating": ("等级分下限", "minimum rating"),
    "list": ("等级分表日期", "rating list"), "count": ("计数方式", "counted"), "per": ("按", "per"),
    "requires": ("须同时报名的项目", "required entries"), "beyond": ("超过人数", "beyond"), "any_of": ("任选其一", "any one of"),
    "roles": ("角色", "roles"), "per_athletes": ("每多少名运动员", "per athletes"), "rounding": ("取整", "rounding"),
    "at_least": ("至少", "at least"), "min_age": ("年龄下限（年满几岁）", "minimum age"), "under_age": ("未满几岁", "under the age of"), "age_on": ("年龄计算日", "age on"),
    "who": ("适用人员", "who"), "units": ("指定单位", "units"), "year": ("注册年度", "year"),
    "sports": ("大项", "sports"), "registered_by": ("注册截止日期", "registered by"), "ownership": ("办学性质", "ownership"),
    "full_time": ("全日制", "full-time"), "not_graduated_before": ("未毕业日期", "not graduated before"),
    "tiers": ("档次", "tiers"), "documents": ("材料", "documents"), "due": ("提交时间", "due"),
    "types": ("证件种类", "identity documents"), "clause": ("规程条款", "clause"), "note": ("备注", "note"),
    "fees": ("费用项目", "fees"), "amount": ("金额", "amount"), "capacity": ("名额上限", "places"),
    "changes_need_approval": ("更换须经批准", "changes need approval"),
    # Fees, rooms, stays, contacts, documents, the money settings, the meeting (items.py).
    "name": ("名称", "name"), "amount_beyond": ("超出名额者的金额", "amount beyond the allowance"),
    "refundable": ("退还", "refunded"), "forfeited_on": ("不予退还的情形", "kept when"), "days": ("天数", "days"),
    "hotel": ("酒店", "hotel"), "rate": ("价格（元）", "rate (CNY)"), "inventory": ("每晚房间数", "rooms a night"),
    "role": ("职务", "role"), "phone": ("电话", "phone"), "email": ("电子邮箱", "e-mail"), "address": ("地址", "address"),
    "at": ("会议时间", "when"), "date": ("会议日期（时间另行通知时）", "day (hour to be announced)"),
    "confirms_names": ("会上确认参赛名单", "names confirmed there"), "closes_checkin": ("会议开始即截止报到", "check-in closes when it starts"),
    "leaders_must_attend": ("领队须出席", "leaders must attend"), "arrive_days_before": ("提前几天报到", "arrive days before"),
    "arrive_relative_to": ("报到相对于", "arrival relative to"), "depart_days_after": ("结束后几天离会", "leave days after"),
    "depart_relative_to": ("离会相对于", "departure relative to"),
    "earliest_arrival_strict": ("不得早于规定日期报到", "no earlier arrival"), "currency": ("币种", "currency"),
    "staff_excess_full_rate": ("超编人员按全价收费", "staff beyond the allowance pay full rate"),
    "entry_valid_when_paid": ("报名费截止前到账报名方有效", "entries valid only when paid by the deadline"),
    "insurance": ("保险", "insurance"), "payee": ("收款账户", "payee"),
    # Awards (rules/awards.py).
    "event_kind": ("项目种类", "kind of event"), "places": ("录取名次数", "places"),
    "by_entrants": ("按参赛人数录取", "places by number of entrants"), "table": ("积分表（或计入奖牌榜）", "table"),
    "team": ("团体项目积分", "team points"), "few_entrants": ("人数不足时", "when few enter"),
    "standing": ("排名", "standing"), "amounts": ("各名次金额（元）", "amounts by place (CNY)"),
    "form": ("奖励形式", "form"), "best": ("各性别计前几名", "best by gender"),
    "gender_first": ("同分先比性别", "gender first on a tie"), "tie_breaks": ("同分时比较", "ties broken by"),
    "best_of": ("计前几名成绩", "best results counted"), "group_by": ("按", "grouped by"), "score": ("计算", "scored by"),
    "reading": ("规程的解读", "reading of the regulation"), "max_age": ("年龄上限", "maximum age"),
    "source": ("赛事", "competition"),
    # The player across Games (grades, ratings, residence, qualification, officials).
    "system": ("段级位体系", "grade system"), "lowest": ("最低段级位", "lowest grade"), "highest": ("最高段级位", "highest grade"),
    "below": ("尚未获得的称号（段级位）", "not yet holding"), "awarded_by": ("只计这些机构授予的", "awarded by these bodies only"), "held_on": ("以此日前获得的为准", "as held on"),
    "ungraded": ("无段级位者", "players without a grade"), "max_rating": ("等级分上限", "maximum rating"),
    "list_on": ("以此日公布的等级分为准", "the list of"), "unrated": ("无等级分者", "unrated players"),
    "regions": ("行政区划代码（如 620000）", "division codes (e.g. 620000)"), "since_by": ("落户（居住）不晚于", "resident since"),
    "nationalities": ("国籍（如 CHN）", "nationalities (e.g. CHN)"), "by": ("资格赛（网址代码或系列）", "qualifier (slug or series)"),
    "employed_as": ("官员须为本单位的", "officials must be the unit's"), "kinds": ("可报名的身份", "who may enter"),
    "graduated_within_years": ("毕业几年内", "graduated within years"),
    "max_by_unit": ("指定单位的限报人数", "entrants for named units"), "max_teams_by_unit": ("指定单位的限报队数", "teams for named units"),
    "Fee.events": ("只对这些项目收取（不选即为全部项目）", "charged for these events only (none: every event)"),
    "QuotaRule.events": ("项目（按整个单位合计时，不选即为全部项目）", "events (for the whole unit together, none: every event)"),
    "QuotaRule.per": ("按每个项目分别计，或整个单位合计", "each event alone, or the whole unit together"),
    "placed_bonus": ("上届名次靠前的单位可多报（前几名 top、多报几 extra）", "more for units placed last edition (top, extra)"),
    "qualified_exempt": ("晋级选手不占名额", "qualified players not counted"),
    "qualified_by": ("晋级资格来自（网址代码或系列，不填为任何资格赛）", "qualified by (slugs or series; any when empty)"),
    "qualified_name": ("规程对资格赛的称呼（如“上届个人赛前8名”）", "the regulation's name for the qualifier"),
    "max_by_gender": ("各性别最多人数", "at most by gender"), "max_from_outside": ("外援最多人数", "players from outside, at most"),
    "entries_open": ("报名开始", "entries open"),
    "top": ("前几名", "top"),
    "series": ("往届赛事（系列）", "earlier Games (series)"),
    "PlacedBeforeRule.name": ("规程对这些选手的称呼（如“历届本赛事前八名”）", "the regulation's words for them (e.g. earlier editions' first eight)"),
    "in_events": ("往届的项目（代码，不填即为本规则的项目）", "earlier events (codes; none: the rule's own)"),
    "since": ("自哪一届起计（年份，不填即为历届）", "counted from the edition of (none: every edition)"), "to": ("晋级到（网址代码或系列）", "qualify for (slug or series)"),
    "grades": ("各名次授予的段级位（称号）", "grade by place"), "by_gender": ("男女分别计算名次", "men and women placed apart"),
    "min_wins": ("胜局不少于", "wins at least"), "min_score": ("积分不少于", "score at least"), "steps": ("晋升几级", "steps up"), "up_to": ("最高晋升到", "never beyond"),
    "points": ("积分种类（代码，如 master）", "kind of points (its code, e.g. master)"),
    "PointsRule.name": ("规程对积分的称呼（如“大师分”）", "the regulation's word for the points"),
    "min_points": ("积分下限（含）", "at least"), "below_points": ("积分上限（未满）", "fewer than"),
    "needs_approval": ("须经组委会批准", "approved by the organisers"),
    "max_institutions": ("至多几所学校（单位，含本单位）", "institutions at most (the unit's own included)"),
    "within": ("限同一地区的高校", "universities within one"),
}
_PART = re.compile(r"([A-Za-z_]+)|\[(\d+)\]")


def field_label(loc: str) -> tuple[str, str]:
    """"rules[3].max" -> ("第 4 条规则：最多人数", "rule 4: at most")."""
    zh, en = [], []
    parts = _PART.findall(loc or "")
    for i, (name, index) in enumerate(parts):
        if index:
            n = int(index) + 1
            if zh and parts[i - 1][0] in TOP:
                zh[-1], en[-1] = f"第 {n} 条{zh[-1]}" if parts[i - 1][0] == "rules" else f"{zh[-1]}第 {n} 项", \
                    f"{en[-1].rstrip('s')} {n}"
            continue
        label = (TOP if i == 0 else FIELDS).get(name) or FIELDS.get(name) or (name, name)
        zh.append(label[0])
        en.append(label[1])
    return "：".join(zh) or "整个设置", ": ".join(en) or "the whole definition"

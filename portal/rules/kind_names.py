"""What each kind of rule and award is called, in Chinese and English: the set-up screens'
choice of kinds, and a fixture's unknown kind answered with the kinds in words."""
from __future__ import annotations

RULE_KIND_NAMES = {
    "age_bracket": ("年龄组（出生日期）", "age group (birth dates)"), "quota": ("每单位限报人数", "entrants per unit"),
    "team_makeup": ("团体赛组队", "team make-up"), "boards": ("台次", "boards"), "exclusive": ("不得兼项", "no other event"),
    "one_of": ("每人限报项数", "events a player may enter"), "rating_exception": ("等级分例外", "rating exception"),
    "team_size": ("每队人数", "team size"), "entry_minimum": ("最少报名人数", "entry minimum"),
    "event_minimum": ("项目开赛的最少参赛人数（全赛）", "entrants an event needs to be played"),
    "entry_requires": ("须同时报名", "entry requires another"), "compulsory": ("必报项目", "compulsory events"),
    "officials_ratio": ("官员按运动员人数", "officials per athletes"), "cross_gender": ("跨性别报名", "cross-gender entry"),
    "companion_required": ("须家属陪同", "companion required"), "event_units": ("项目限定单位", "who may enter an event"),
    "registration": ("注册", "registration"), "university": ("高校资格", "university eligibility"),
    "officials": ("官员名额（按项目数）", "officials by events entered"), "staff_ratio": ("团部人员", "delegation staff"),
    "documents": ("须交材料", "documents"), "id_required": ("须填证件号", "ID number required"),
    "accepted_id_types": ("受理的证件", "accepted identity documents"),
    "grade": ("段级位、称号", "grade or title"), "rating": ("等级分范围", "rating band"),
    "residence": ("户籍（常住地）", "residence"), "nationality": ("国籍", "nationality"),
    "qualified": ("须经资格赛晋级", "qualified by an earlier competition"),
    "placed_before": ("曾获名次者不得参加", "earlier placers barred"),
    "points": ("协会积分范围", "federation points band"),
    "officials_required": ("须报的官员", "officials required"), "employment": ("本单位学生、教职工、校友", "the unit's own people"),
    "joint_team": ("联队", "joint team"),
}
AWARD_KIND_NAMES = {
    "places": ("录取名次", "places awarded"), "points": ("计分", "points"), "medals": ("奖牌", "medals"),
    "prizes": ("奖金", "prizes"), "team_from_individuals": ("个人成绩计团体", "team from individual results"),
    "group_standing": ("团体总分", "group standing"), "age_standing": ("年龄组排名", "age standing"),
    "outside_medals": ("外部赛事奖牌", "medals won elsewhere"),
    "qualifies": ("晋级资格", "qualification for another Games"), "grade_by_place": ("按名次授予段级位", "grade by place"),
    "promotion_by_record": ("按成绩晋升段级位", "promotion by record"), "federation_points": ("协会积分", "federation points"),
}
COMPETITION_KIND_NAMES = {"rounds": ("轮次", "rounds")}


def kinds_in_words(tags: list[str], lang: str = "zh") -> str:
    """"quota（每单位限报人数）、…" or "quota (entrants per unit), …"."""
    names = RULE_KIND_NAMES | AWARD_KIND_NAMES | COMPETITION_KIND_NAMES
    i = 0 if lang == "zh" else 1
    words = [f"{t}（{names[t][0]}）" if lang == "zh" else f"{t} ({names[t][1]})" if t in names else t for t in tags]
    return ("、" if i == 0 else ", ").join(words)

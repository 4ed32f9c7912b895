"""What people read instead of codes: roles and document kinds in Chinese and English."""
from __future__ import annotations

DOCUMENT_NAMES = {"id_copy": ("身份证或户口簿复印件", "ID copy"), "photo": ("一寸免冠照片", "photo"),
                  "health_certificate": ("健康证明", "health certificate"),
                  "insurance_proof": ("人身意外伤害保险证明", "insurance proof"),
                  "safety_pledge": ("安全责任承诺书", "safety pledge"),
                  "student_status_proof": ("学籍证明", "proof of student status")}


def document_names_of(definition) -> dict[str, tuple[str, str]]:
    """The portal's document kinds and those the Games' fixture adds (document_kinds)."""
    out = dict(DOCUMENT_NAMES)
    for k in getattr(definition, "document_kinds", None) or []:
        out[k.code] = (k.name.zh, k.name.en)
    return out
ROLE_NAMES = {"leader": ("领队", "leader"), "coach": ("教练", "coach"), "leader_coach": ("领队兼教练", "leader-coach"),
              "head": ("团长", "head of delegation"), "deputy_head": ("副团长", "deputy head"),
              "staff": ("工作人员", "staff"), "companion": ("随队人员", "companion")}


# What a rule's finding is called in a short badge (the people list); the rule code is kept
# for those who ask, in the badge's title.
VIOLATION_LABELS = {
    "SCHEMA_INVALID": ("信息有误", "bad data"), "UNIT_NOT_ELIGIBLE": ("单位不符", "unit not eligible"),
    "EVENT_UNKNOWN": ("项目不存在", "unknown event"), "EVENT_NOT_DECLARED": ("未报项", "not declared"),
    "ID_NUMBER_REQUIRED": ("缺证件号", "no ID number"), "ID_NUMBER_INVALID": ("证件号有误", "bad ID number"),
    "ID_MISMATCH": ("与证件不符", "differs from ID"), "ID_TYPE_NOT_ACCEPTED": ("证件不受理", "ID not accepted"),
    "DUPLICATE_PERSON": ("重复报名", "entered twice"), "REGISTRATION_MISMATCH": ("注册不符", "registration"),
    "GENDER_NOT_ALLOWED": ("性别不符", "gender"), "AGE_BRACKET": ("年龄不符", "age"),
    "QUOTA_EXCEEDED": ("超出名额", "over the quota"), "TEAM_LIMIT": ("队数超出", "too many teams"),
    "TEAM_COMPOSITION": ("组队不符", "team make-up"), "BOARD_ORDER": ("台次有误", "boards"),
    "DOUBLE_ENTRY": ("兼项", "double entry"), "SCHEDULE_CONFLICT": ("赛程冲突", "schedule clash"),
    "UNIVERSITY_INELIGIBLE": ("高校不符", "university"), "DOCUMENT_MISSING": ("缺材料", "documents missing"),
    "OFFICIALS_LIMIT": ("官员超出", "too many officials"), "STAFF_EXCESS": ("超出团部名额", "staff beyond allowance"),
    "DEADLINE_PASSED": ("已截止", "deadline passed"), "CHANGE_WINDOW_CLOSED": ("已停止变更", "changes closed"),
    "CAPACITY_FULL": ("名额已满", "full"), "SANCTIONED": ("被停赛", "sanctioned"),
    "COMPANION_EXCESS": ("随队偏多", "many companions"), "DECLARATION_EXCEEDED": ("超出报项人数", "over the declaration"),
    "DECLARATION_UNFILLED": ("少于报项人数", "under the declaration"), "RATING_LIST_REQUIRED": ("等级分名单", "rating list"),
    "ROOM_REQUIRED": ("未订房", "no room"), "STAY_OUTSIDE_WINDOW": ("住宿日期不符", "stay dates"),
    "TEAM_SIZE": ("队伍人数不符", "team size"), "ENTRY_MINIMUM": ("人数不足", "too few"),
    "ENTRY_REQUIRES": ("须同时报名", "needs another entry"), "COMPANION_REQUIRED": ("须家属陪同", "needs a companion"),
}
NOTE_ITEMS = {"person": ("人员", "person"), "entry": ("项目", "entry"), "declaration": ("报项", "declaration"),
              "delegation": ("代表团", "delegation"), "officials": ("官员", "officials"), "staff": ("团部", "staff"),
              "companions": ("随队人员", "companions"), "rooms": ("住宿", "rooms"), "documents": ("材料", "documents")}

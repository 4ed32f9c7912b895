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

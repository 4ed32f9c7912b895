"""联队: the organisers admit another institution's players into a delegation as one joint
team, or take the admission back, each with the reason (audited). What a joint_team rule
asks (checks/joint.py) reads what is admitted here."""
from __future__ import annotations

from ..audit.services import Actor, record
from ..config import universities_csv
from ..db_tx import lock_row, transactional
from ..delegations.models import Delegation
from ..games.services import definition_of, unit_name_pairs, universities_map
from ..outcome import Outcome, Refusal, Status
from ..rules.definition import JointTeamRule


def institution_names(keys: list[str], en: bool = False) -> dict[str, str]:
    """Each institution's name: a university's, else a unit's (the key itself if neither)."""
    if not keys:
        return {}
    universities = universities_map(fallback_csv=universities_csv())
    units = unit_name_pairs()
    return {k: universities[k].name if k in universities else units.get(k, (k, k))[1 if en else 0] for k in keys}


@transactional
def admit_joint_team(delegation: Delegation, institution: str, reason: str, actor: Actor) -> Outcome:
    """Admit `institution` (a university code, or the unit players are registered with)
    into the delegation's joint team."""
    if not definition_of(delegation.games).rules_of(JointTeamRule):
        raise Refusal("state", "本次比赛的规程没有联队的规定。", "These Games' regulation says nothing of joint teams.",
                      delegation=delegation)
    if not (institution or "").strip() or len(institution) > 80:
        raise Refusal.of_field("institution", "请选择要批准组成联队的学校（单位）", "choose the institution to admit",
                               delegation=delegation)
    if not (reason or "").strip():
        raise Refusal.of_field("reason", "请说明批准的依据（如批准文件）", "give the grounds (the approval letter)",
                               delegation=delegation)
    d = lock_row(Delegation, delegation.id)
    before = list(d.joint_with or [])
    if institution not in before:
        d.joint_with = [*before, institution]
        record(actor, "delegation.joint_team", "delegation", d.unit_name or d.unit_code or str(d.id), delegation=d,
               before={"joint_with": before}, after={"joint_with": d.joint_with, "admitted": institution_names([institution])[institution]},
               reason=reason.strip()[:1000])
    return Outcome(True, status=Status.SAVED, delegation=d)


@transactional
def withdraw_joint_team(delegation: Delegation, institution: str, reason: str, actor: Actor) -> Outcome:
    """Take back the admission of `institution`: its players are judged again as outsiders."""
    if not (reason or "").strip():
        raise Refusal.of_field("reason", "请说明理由", "give the reason", delegation=delegation)
    d = lock_row(Delegation, delegation.id)
    before = list(d.joint_with or [])
    if institution not in before:
        raise Refusal("state", "这所学校（单位）没有被批准组成联队。", "This institution was not admitted.", delegation=d)
    d.joint_with = [k for k in before if k != institution]
    record(actor, "delegation.joint_team_withdrawn", "delegation", d.unit_name or d.unit_code or str(d.id), delegation=d,
           before={"joint_with": before}, after={"joint_with": d.joint_with, "withdrawn": institution_names([institution])[institution]},
           reason=reason.strip()[:1000])
    return Outcome(True, status=Status.SAVED, delegation=d)


def joint_card(definition, violations, joint_with: list | None, en: bool = False) -> dict | None:
    """What the review page shows of a joint team: the institutions waiting for approval
    (as the rule named them) and those admitted; None where the regulation has no joint_team."""
    if not definition.rules_of(JointTeamRule):
        return None
    waiting = list(dict.fromkeys(v.extra["institution"] for v in violations if v.extra.get("institution")))
    admitted = list(joint_with or [])
    names = institution_names(waiting + admitted, en)
    return {"waiting": [(k, names[k]) for k in waiting], "admitted": [(k, names[k]) for k in admitted]}

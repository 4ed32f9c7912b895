"""Saving a delegation's document within its stage, and adding its documents (a person's
or the delegation's own): each one transaction under the delegation's lock, audited,
answered with an Outcome. The leader's pages and the workflow both save through here."""
from __future__ import annotations

import datetime as dt
import os
import pickle
from collections.abc import Callable

from ..audit.services import Actor, document_changes, record, record_row
from ..db_tx import lock_row, transactional
from ..extensions import db
from ..games.models import Games
from ..games.services import definition_of
from ..outcome import Outcome, Refusal, Status
from ..rules import parse_document
from ..rules.definition import DocumentsRule
from ..rules.stages import DECLARATION, closes_at, may_edit_declarations, may_edit_names, stage_at
from ..rules.violations import dedupe
from ..workflow.models import WITH_EXTENSIONS
from .edit import add_document_kind, athletes
from .files import UploadedFile, check_upload, store
from .identity_checks import compare_new_numbers
from .judged import remember_document, stored_document_blob, stored_violations
from .merge import Key, merges
from .models import Delegation, DelegationStatus
from .services import export_document, replace_contents
from .stage import deadline_passed, extensions_of, names_deadline_violation, stage_of


def new_delegation(games: Games, unit: str | dict | None) -> Delegation:
    """A new, not yet stored delegation: `save` stores it inside its transaction."""
    d = Delegation(games=games, status=DelegationStatus.DRAFT, version=0)
    if isinstance(unit, str):
        d.unit_code = unit
    elif isinstance(unit, dict):
        d.unit_name, d.unit_kind = unit.get("name"), unit.get("kind") or "club"
    else:
        d.unit_kind = "individual"
    return d


@transactional
def save(delegation: Delegation, data: dict, actor: Actor, at: dt.datetime,
         expected_version: int | None = None, _before: dict | None = None) -> Outcome:
    """Replace the delegation's contents with the document, if the stage allows it.
    Rule violations do not stop a save (they stop a submission); malformed data does.
    (`_before`: the stored document, when the caller read it under the same lock.)"""
    doc, problems = parse_document(data)
    if doc is None or problems:
        raise Refusal(Refusal.INVALID, violations=dedupe(problems), delegation=delegation)
    games = delegation.games
    if doc.games != games.slug:
        raise Refusal("input", f"文档属于另一场比赛（{doc.games}）。", f"The document is for other Games ({doc.games}).", delegation=delegation)
    if delegation.unit_code and doc.unit != delegation.unit_code:
        raise Refusal("input", f"文档的单位（{doc.unit}）不是本代表团的单位（{delegation.unit_code}）。",
                       f"The document's unit ({doc.unit}) is not this delegation's ({delegation.unit_code}).", delegation=delegation)
    # `_before` comes from a caller that holds the row's lock already (save_change).
    d = lock_row(Delegation, delegation.id, WITH_EXTENSIONS) if delegation.id and _before is None else delegation
    if expected_version is not None and d.version != expected_version:
        raise Refusal(Refusal.STALE, "代表团已在其他窗口或由其他人修改过，本次保存未生效。请查看最新内容后重新填写。",
                      "The delegation was changed in another tab or by someone else; this save was "
                      "not applied. Check the latest version and enter your change again.", delegation=d)
    if d.status == DelegationStatus.WITHDRAWN:
        raise Refusal("state", "该报名已退出。", "This registration has been withdrawn.", delegation=d)
    before = (_before if _before is not None else export_document(d)) if d.id else None
    # Documents (insurance proof, health certificate...) may be added until check-in,
    # whatever the stage, and adding them neither unlocks nor un-submits the entry.
    documents_only = before is not None and _only_documents_added(before, data)
    info = stage_of(d, at) if d.id else stage_at(definition_of(games).stages, at)
    if d.status == DelegationStatus.APPROVED and not documents_only and not may_edit_names(info):
        raise Refusal("state", "报名已经组委会批准，名单已截止；如需更换运动员，请提交更换申请。",
                       "The entry is approved and the names have closed; ask for a substitution instead.", delegation=d)
    if not may_edit_names(info) and not documents_only:
        raise Refusal("deadline", violations=[names_deadline_violation(d)], delegation=d)
    declared_before = sorted((x["event"], x["count"]) for x in (before or {}).get("declarations", []))
    declared_after = sorted(doc.declarations)
    stages = definition_of(games).stages
    if before is not None and declared_before != declared_after and not may_edit_declarations(info, stages):
        closes = closes_at(stages, DECLARATION, extensions_of(d))
        raise Refusal("deadline", violations=[deadline_passed(DECLARATION, closes, stages)], delegation=d)
    replaced = _athletes_replaced_after_submission(d, before, data, stages)
    if replaced:
        raise Refusal("state",
            f"报名提交后更换运动员须经组委会同意并交更换费（{'、'.join(replaced)}）。请在“更换运动员”中提出申请，"
            f"不要直接删除。",
            f"Once submitted, replacing an athlete needs the organisers' approval and the change fee "
            f"({', '.join(replaced)}): ask for a substitution instead of removing them.", delegation=d)
    if d.id is None:
        db.session.add(d)
        db.session.flush()
    after = replace_contents(d, doc, before=before)
    d.version = (d.version or 0) + 1
    reopened = d.status == DelegationStatus.APPROVED and not documents_only
    if d.status in (DelegationStatus.SUBMITTED, DelegationStatus.RETURNED, DelegationStatus.APPROVED) \
            and not documents_only:
        # Changed before the names close: submitted again for approval (an approved entry
        # too: what the committee approved is not what it holds now).
        d.status = DelegationStatus.DRAFT
    record_row(actor, "delegation.save", "delegation", str(d.id), delegation=d,
               before={"changes": document_changes(before, after), **({"status": "approved"} if reopened else {})}
               if before else None, after=None if before else after)
    # Numbers this save adds are compared with the other delegations' (within the account's
    # daily allowance) before the judgement, which then tells of those compared.
    compared = compare_new_numbers(d, [(p.ref, p.name or p.ref, p.id_number) for p in doc.people if p.id_number],
                                   actor, at)
    # Judged as the next page will judge it, and remembered for it (judged.py): the page a
    # save leads to does not judge the delegation a second time.
    remember_document(d, after)
    # What was stored is, nearly always, exactly what was parsed: then it is not parsed again.
    violations = stored_violations(d, after, at, reveal=False, parsed_as=(doc, []) if after == data else None)
    return Outcome(True, dedupe(violations), status=Status.SAVED, delegation=d, message=compared.notice())


# keep_loaded: the delegation is locked and read afresh (lock_row); the Games row and the
# account read before the lock serve as they are, and the page goes on with what was written.
@transactional(keep_loaded=True)
def save_change(delegation: Delegation, change: Callable[[dict], dict], key: Key | None, base: str | None,
                actor: Actor, at: dt.datetime, expected_version: int | None = None) -> Outcome:
    """Save what one form changed (`change`: the stored document -> the new one), merged
    with what others saved since the form was shown: when the form's version is not the
    stored one, the change still goes onto the stored document if the part it changes
    (`key`) is as the form saw it (`base`, its fingerprint then). Only the same part changed
    by both is refused, as stale, with the part's key (details) for the page to show both."""
    # Held while the lock reads the row afresh: that drops the delegation's reference to its
    # Games, which the session holds only weakly, and the save would read the Games again.
    games = delegation.games  # noqa: F841
    d = lock_row(Delegation, delegation.id, WITH_EXTENSIONS)
    stored = stored_document_blob(d)  # its revision read under the lock: the remembered one is exact
    current = pickle.loads(stored)
    if key is None:  # the whole document (an upload): any save since is a reason to look again
        return save(d, change(current), actor, at, expected_version=expected_version)
    if expected_version is not None and d.version != expected_version and not merges(current, key, base):
        raise Refusal(Refusal.STALE, "这一项已在其他窗口或由其他人修改并保存。下面并列显示对方保存的和您填写的内容；"
                      "您填写的仍在表中，核对后再保存即可（会覆盖对方的修改），或刷新页面保留对方的。",
                      "Someone else changed and saved this part meanwhile. Their version and yours are "
                      "shown side by side; yours is still in the form: save again to keep yours (it "
                      "replaces theirs), or reload the page to keep theirs.", delegation=d,
                      details={"key": key, "current": current})
    draft = pickle.loads(stored)  # a copy for the change to edit
    return save(d, change(draft), actor, at, expected_version=d.version, _before=current)


def _athletes_replaced_after_submission(d: Delegation, before: dict | None, data: dict, stages) -> list[str]:
    """Names of submitted athletes the new document leaves out, where the regulation makes
    every replacement after submission a change (youth-gomoku-2015 十一(七))."""
    if not stages.replacing_after_submission_needs_approval or before is None or d.submitted_at is None:
        return []
    gone = set(athletes(before)) - set(athletes(data))
    return [p["name"] for p in before["people"] if p["ref"] in gone]


def _only_documents_added(before: dict, data: dict) -> bool:
    """True when the new document is the stored one with documents added, and nothing else
    (the workspace's upload builds it so; anything else goes through the stage rules)."""
    def strip(doc):
        return {**doc, "people": [{k: v for k, v in p.items() if k != "documents"} for p in doc.get("people", [])
                                  if isinstance(p, dict)]}
    old = {p["ref"]: set(p.get("documents") or []) for p in before.get("people", [])}
    new = {p.get("ref"): set(p.get("documents") or []) for p in data.get("people", []) if isinstance(p, dict)}
    return (old.keys() == new.keys() and all(old[r] <= new[r] for r in old) and old != new
            and strip(data) == strip(before))


@transactional
def add_document(delegation: Delegation, ref: str, kind: str, data: bytes, filename: str | None,
                 actor: Actor, at: dt.datetime) -> Outcome:
    """A document (ID copy, photo, certificate) for one person: checked by its content, its
    bytes stored, its kind added to the person and its file row written in one transaction,
    so that a refusal leaves neither a kind without a file nor a file row without its kind,
    nor bytes without either (they are in the shared store, in the same transaction)."""
    content_type, ext = check_upload(data)
    if content_type is None:
        zh, en = ext
        raise Refusal("input", zh, en, delegation=delegation)
    digest = store(delegation.id, data, ext)
    saved = save(delegation, add_document_kind(export_document(delegation), ref, kind), actor, at)
    name = os.path.basename(filename or f"{kind}.{ext}")[:200]
    db.session.add(UploadedFile(delegation_id=delegation.id, person_ref=ref, kind=kind, filename=name,
                                content_type=content_type, size=len(data), sha256=digest, uploaded_by=actor.label))
    return saved


def delegation_document_kinds(definition) -> list[str]:
    """What a delegation may upload as its own: the documents its rules ask of it, and the
    written explanation a withdrawal needs."""
    kinds = [k for r in definition.rules_of(DocumentsRule) if r.who == "delegation" for k in r.documents]
    if definition.sanctions.explanation:
        kinds.append(definition.sanctions.explanation)
    return list(dict.fromkeys(kinds))


@transactional
def add_delegation_document(delegation: Delegation, kind: str, data: bytes, filename: str | None,
                            actor: Actor) -> Outcome:
    """A document of the delegation itself (the entry form with the unit's seal), one of the
    kinds its Games' rules ask of the delegation: checked by its content, stored, its kind
    on file, audited, in one transaction."""
    definition = definition_of(delegation.games)
    wanted = delegation_document_kinds(definition)
    if kind not in wanted:
        raise Refusal("input", "本次比赛不要求单位提交这种材料。", "These Games ask no such document of a delegation.",
                      delegation=delegation)
    content_type, ext = check_upload(data)
    if content_type is None:
        zh, en = ext
        raise Refusal("input", zh, en, delegation=delegation)
    d = lock_row(Delegation, delegation.id)
    digest = store(d.id, data, ext)
    before = sorted(d.documents or [])
    d.documents = sorted(set(before) | {kind})
    name = os.path.basename(filename or f"{kind}.{ext}")[:200]
    db.session.add(UploadedFile(delegation_id=d.id, person_ref="", kind=kind, filename=name,
                                content_type=content_type, size=len(data), sha256=digest, uploaded_by=actor.label))
    record(actor, "delegation.document", "delegation", str(d.id), delegation=d, before={"documents": before},
           after={"documents": d.documents, "file": name})
    return Outcome(True, status=Status.SAVED, delegation=d)



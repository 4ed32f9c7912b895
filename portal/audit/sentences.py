"""The audit log in sentences: "王老师 批准了浙江省的报名", with the details a reader wants
(what changed, the reason), in Chinese or English. Pure: a row's fields in, text out."""
from __future__ import annotations

import re
from typing import Any

# action -> (zh, en); {unit} is the delegation's name, {key} the object's key.
VERBS = {
    "delegation.save": ("修改了{unit}的报名", "changed {unit}'s entry"),
    "delegation.submit": ("提交了{unit}的报名", "submitted {unit}'s entry"),
    "delegation.approve": ("批准了{unit}的报名", "approved {unit}'s entry"),
    "delegation.return": ("退回了{unit}的报名", "returned {unit}'s entry"),
    "delegation.withdraw": ("为{unit}办理了退出", "withdrew {unit}"),
    "place.promote": ("把{unit}从候补转为正式名额", "gave {unit} a place from the waiting list"),
    "deadline.extend": ("为{unit}延长了截止时间", "extended a deadline for {unit}"),
    "substitution.request": ("为{unit}提出了更换运动员申请", "asked to substitute a player of {unit}"),
    "substitution.approve": ("批准了{unit}的更换申请", "approved a substitution of {unit}"),
    "substitution.reject": ("驳回了{unit}的更换申请", "rejected a substitution of {unit}"),
    "rooms.request": ("为{unit}预订了住房", "booked rooms for {unit}"),
    "bank.import": ("导入了银行流水 {key}", "imported the bank statement {key}"),
    "account.create": ("创建了账号 {key}", "created the account {key}"),
    "account.invite": ("为账号 {key} 生成了新的邀请链接", "made a new invitation link for {key}"),
    "account.password": ("设置了账号 {key} 的密码", "set the password of {key}"),
    "account.enable": ("启用了账号 {key}", "enabled the account {key}"),
    "account.disable": ("停用了账号 {key}", "disabled the account {key}"),
    "account.unlock": ("解锁了账号 {key}", "unlocked the account {key}"),
    "account.locked": ("锁定了账号 {key}（连续输错密码）", "locked the account {key} (failed logins)"),
    "retention.apply": ("按保存期限清理了 {key} 的个人资料", "applied data retention to {key}"),
    "export.download": ("下载了导出文件", "downloaded an export"),
    "results.enter": ("录入了 {key} 的成绩", "entered the results of {key}"),
    "draw.make": ("为 {key} 抽签确定了棋手序号", "drew the player numbers of {key}"),
    "checkin.arrive": ("为{unit}的 {key} 办理了报到", "checked in {key} of {unit}"),
    "checkin.no_show": ("确认了{unit}的未报到者", "recorded {unit}'s no-shows"),
    "meeting.confirm": ("在领队会议上确认了{unit}的参赛名单", "confirmed {unit}'s names at the leaders' meeting"),
    "draw.redraw": ("为 {key} 重新抽签", "drew the player numbers of {key} again"),
    "bank.unmatch": ("撤销了一笔到账与{unit}的手工匹配", "undid a manual match of a payment to {unit}"),
    "bank.duplicate": ("确认一笔到账为重复", "confirmed a bank line as a duplicate"),
    "bank.not_duplicate": ("确认一笔到账不是重复", "confirmed a bank line as a payment of its own"),
    "unit.save": ("保存了参赛单位 {key}", "saved the unit {key}"),
    "extension.request": ("为{unit}申请延期", "asked for more time for {unit}"),
    "extension.decline": ("未同意{unit}的延期申请", "declined {unit}'s request for more time"),
    "identity.held_elsewhere": ("为{unit}保存的 {key} 的证件号码已在本届比赛的另一代表团登记",
                                "saved {key} for {unit}, whose ID number another delegation of these Games holds"),
    "personal_data.view": ("查看了 {key} 的个人信息", "looked at {key}'s personal data"),
    "personal_data.download": ("下载了 {key} 的证件材料", "downloaded a document of {key}"),
    "personal_data.export": ("导出了含个人信息的名单（{key}）", "exported personal data ({key})"),
}
# The filter's labels.
ACTION_LABELS = {
    "delegation.save": ("修改报名", "entry changed"), "delegation.submit": ("提交报名", "entry submitted"),
    "delegation.approve": ("批准报名", "entry approved"), "delegation.return": ("退回报名", "entry returned"),
    "delegation.withdraw": ("退出", "withdrawal"), "place.promote": ("候补转正", "place from the waiting list"),
    "deadline.extend": ("延长截止时间", "deadline extended"),
    "substitution.request": ("更换申请", "substitution asked"),
    "substitution.approve": ("批准更换", "substitution approved"),
    "substitution.reject": ("驳回更换", "substitution rejected"), "rooms.request": ("住房预订", "rooms booked"),
    "bank.import": ("导入银行流水", "bank statement imported"), "account.create": ("创建账号", "account created"),
    "account.invite": ("邀请链接", "invitation link"), "account.password": ("设置密码", "password set"),
    "account.enable": ("启用账号", "account enabled"), "account.disable": ("停用账号", "account disabled"),
    "account.unlock": ("解锁账号", "account unlocked"), "account.locked": ("账号被锁定", "account locked"),
    "retention.apply": ("清理个人资料", "data retention"), "results.enter": ("录入成绩", "results entered"),
    "draw.make": ("抽签", "draw"), "checkin.arrive": ("报到", "check-in"), "checkin.no_show": ("未报到", "no-shows"),
    "meeting.confirm": ("领队会议点名", "leaders' meeting roll call"), "draw.redraw": ("重新抽签", "redraw"),
    "bank.unmatch": ("撤销匹配", "match undone"), "bank.duplicate": ("确认重复", "duplicate confirmed"),
    "bank.not_duplicate": ("确认不是重复", "not a duplicate"), "export.download": ("下载导出文件", "export downloaded"),
    "personal_data.view": ("查看个人信息", "personal data viewed"),
    "personal_data.download": ("下载证件材料", "document downloaded"),
    "personal_data.export": ("导出个人信息", "personal data exported"),
    "identity.held_elsewhere": ("证件号码与其他代表团重复", "ID number held by another delegation"),
    "unit.save": ("保存参赛单位", "unit saved"),
    "extension.request": ("申请延期", "extension asked"), "extension.decline": ("不同意延期", "extension declined"),
}


def action_label(action: str, en: bool = False) -> str:
    if action.startswith("ledger."):
        return ("ledger entry" if en else "记账") + f" ({action.split('.', 1)[1]})"
    pair = ACTION_LABELS.get(action)
    return pair[1 if en else 0] if pair else action


LEDGER = ("在{unit}的账上记了一笔", "made a ledger entry for {unit}")
KINDS = {"person": ("人员", "person"), "entry": ("项目", "entry"), "declaration": ("报项", "declaration"),
         "officials": ("官员", "officials"), "staff": ("团部", "staff"), "companions": ("随队人员", "companions"),
         "unit": ("单位", "unit")}


def sentence(action: str, actor: str, unit: str, key: str | None, en: bool = False) -> str:
    """"<actor> <verb> <object>"; an action not listed reads as its code."""
    if action.startswith("ledger."):
        pair = LEDGER
    else:
        pair = VERBS.get(action)
    actor = actor_name(actor, en)
    if pair is None:
        return f"{actor} {action} {key or ''}".strip()
    verb = pair[1 if en else 0].format(unit=unit or ("a delegation" if en else "代表团"), key=key or "")
    return f"{actor} {verb}"


# The portal's own actors, stored in Chinese, read in the reader's language; older rows
# wrote both ("系统 (system)"): each reader gets his half.
SYSTEM_ACTORS = {"系统": "The system", "演示数据": "The demo", "报名系统": "The registration system",
                 "服务器命令行": "The server shell", "命令行": "The command line", "后台任务": "A background job"}


def actor_name(actor: str, en: bool) -> str:
    m = re.fullmatch(r"(.+?) \((system|demo|registration|server shell|cli|job)\)", actor or "")
    if m:
        actor = m.group(1)
    return SYSTEM_ACTORS.get(actor, actor) if en else actor


def details(action: str, before: Any, after: Any, reason: str | None, en: bool = False) -> list[str]:
    """The lines under the sentence: each change of a save, the reason, an amount."""
    out = []
    changes = before.get("changes") if isinstance(before, dict) else None
    if changes:
        for c in changes[:30]:
            kind = KINDS.get(c.get("type"), (c.get("type"), c.get("type")))[1 if en else 0]
            old, new = c.get("before"), c.get("after")
            subject = _label(new) or _label(old) or (c.get("key") or "")
            if old is None:
                what = "added" if en else "新增"
            elif new is None:
                what = "removed" if en else "删除"
            else:
                what = "changed" if en else "修改"
            out.append(f"{kind} {subject}: {what}" if en else f"{kind}{subject}：{what}")
        if len(changes) > 30:
            out.append(f"… {len(changes) - 30} more" if en else f"……另有 {len(changes) - 30} 处")
    if isinstance(after, dict):
        if action.startswith("ledger.") and after.get("amount") is not None:
            out.append(f"{after.get('description') or after.get('fee') or ''} {after['amount']}".strip())
        if action == "bank.import":
            out.append(f"{after.get('lines', 0)} lines, {after.get('new', 0)} new" if en
                        else f"共 {after.get('lines', 0)} 行，新增 {after.get('new', 0)} 行")
        if action == "delegation.return":
            for note in after.get("notes") or []:
                out.append(" ".join(str(x) for x in note if x))
        if action.startswith("personal_data") and after.get("count"):
            out.append(f"{after['count']} people" if en else f"共 {after['count']} 人")
    if reason:
        out.append(("reason: " if en else "理由：") + reason)
    return out


def _label(item: Any) -> str | None:
    if isinstance(item, dict):
        return item.get("name") or item.get("event")
    return None

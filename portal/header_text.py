"""Text that reaches a mail header (a name in To:, an address, a subject): no control
characters, so that a name typed as "王伟\r\nBcc: x@evil.example" cannot add a header or
stop a message being sent (issue 38, 9). Below the areas: imports none."""
from __future__ import annotations

import re
from email.errors import HeaderParseError
from email.headerregistry import Address

# C0 and C1 controls, DEL, and the Unicode line and paragraph separators.
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")

CONTROL_PROBLEM = ("不能含有换行、制表符等控制字符", "must not hold line breaks, tabs or other control characters")
ADDRESS_PROBLEM = ("请填写有效的电子邮箱，如 lingdui@example.cn", "give a valid e-mail address, such as lingdui@example.cn")


def has_control(text: str | None) -> bool:
    return bool(text) and _CONTROL.search(text) is not None


def one_line(text: str | None) -> str:
    """What a header may carry of a text: every control character a space, spaces joined."""
    return re.sub(r" {2,}", " ", _CONTROL.sub(" ", text or "")).strip()


def address_problem(address: str | None) -> tuple[str, str] | None:
    """(zh, en) when `address` is no single plain e-mail address; None when it is one."""
    if not address:
        return None
    if has_control(address) or len(address) > 200:
        return ADDRESS_PROBLEM
    try:
        parsed = Address(addr_spec=address)
    except (HeaderParseError, ValueError, IndexError):
        return ADDRESS_PROBLEM
    if not parsed.username or "." not in parsed.domain or parsed.addr_spec != address:
        return ADDRESS_PROBLEM
    return None

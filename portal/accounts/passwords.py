"""Password policy: long enough, not a common password, not the account's own name.
scrypt hashing stays in services."""
from __future__ import annotations

from functools import lru_cache

MIN_PASSWORD = 10


@lru_cache(maxsize=1)
def _common_passwords() -> frozenset[str]:
    # zxcvbn ships the 30,000 most common passwords of public leaks, ranked; maintained
    # upstream, so the list is not ours to type.
    from zxcvbn.frequency_lists import FREQUENCY_LISTS
    return frozenset(FREQUENCY_LISTS["passwords"])


def password_problem(password: str, *, username: str | None = None,
                     names: tuple[str, ...] = ()) -> tuple[str, str] | None:
    """Why a new password is refused, in Chinese and English; None when it is good.
    `names`: the account's display name, unit code and name, which it may not contain."""
    password = password or ""
    if len(password) < MIN_PASSWORD:
        return (f"密码至少 {MIN_PASSWORD} 位", f"at least {MIN_PASSWORD} characters")
    lowered = password.lower()
    if password.isdigit():
        return ("密码不能全是数字", "not digits only")
    if lowered in _common_passwords() or len(set(lowered)) <= 2:
        return ("这个密码太常见，很容易被猜到，请换一个", "this password is too common; choose another")
    for name in (username, *names):
        name = (name or "").strip().lower()
        if len(name) >= 3 and name in lowered:
            return ("密码不能包含用户名或单位名称", "the password may not contain the username or the unit")
    return None

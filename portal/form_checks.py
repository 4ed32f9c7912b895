"""Field checks more than one area's forms use: an e-mail address, one line of text."""
from __future__ import annotations

from wtforms.validators import Regexp

from .translation import lazy_gettext as _l

# \A and \Z: "$" would let a trailing line break through, and it would reach a mail header.
EMAIL = Regexp(r"\A[^@\s\x00-\x1f\x7f]+@[^@\s\x00-\x1f\x7f]+\.[^@\s\x00-\x1f\x7f]+\Z",
               message=_l("请填写有效的电子邮箱，如 lingdui@example.cn"))

ONE_LINE = Regexp(r"\A[^\x00-\x1f\x7f\u2028\u2029]*\Z", message=_l("不能含有换行、制表符等控制字符"))


def stripped(value):
    """A typed address without the spaces a paste brings along."""
    return value.strip() if isinstance(value, str) else value

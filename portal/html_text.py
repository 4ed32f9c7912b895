"""Text escaped for HTML as a plain str, for the markup the portal builds in Python (the
people rows, the problem cards): markupsafe's escape makes a Markup of every value, and
formatting a Markup into an f-string costs twice the escaping itself; a page of a hundred
rows escapes a thousand values."""
from __future__ import annotations

from html import escape as _escape


def esc(value) -> str:
    """`value` safe in HTML text and in a quoted attribute (& < > " ' escaped); markup
    (anything with __html__, as markupsafe defines it) as it is; None as "None", as
    markupsafe gives it."""
    if type(value) is str:
        return _escape(value)
    html = getattr(value, "__html__", None)
    if html is not None:
        return str(html())
    return _escape(str(value))

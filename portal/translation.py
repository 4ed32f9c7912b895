"""gettext for the portal's Python code (views, forms, messages), the same as Flask-Babel's
but through the catalogue of the request's language found once per language: Flask-Babel
finds it through five context lookups for every string, and a person's form says a few
dozen in Python (its lazy labels and messages) besides the template's (issue 41, 1)."""
from __future__ import annotations

from flask import g
from flask_babel import get_locale, get_translations
from flask_babel.speaklater import LazyString

_catalogues: dict = {}  # locale -> its catalogue, as Flask-Babel would find it
_last: tuple = (None, None)  # the locale last asked for (the same object all through a request), its catalogue


def catalogue():
    """The catalogue of the request's language (or the one force_locale sets)."""
    global _last
    try:
        locale = g._flask_babel.babel_locale  # what get_locale() gives once it has chosen (force_locale too)
    except (AttributeError, RuntimeError):  # not chosen yet, or no app context
        locale = None
    if locale is None:
        locale = get_locale()
    last_locale, found = _last
    if locale is last_locale and found is not None:
        return found
    found = _catalogues.get(locale)
    if found is None:
        found = get_translations()
        if locale is None:  # outside a request: no catalogue, and none kept
            return found
        _catalogues[locale] = found
    _last = (locale, found)
    return found


def gettext(string: str, **variables) -> str:
    translated = catalogue().ugettext(string)
    return translated % variables if variables else translated


def lazy_gettext(string: str, **variables) -> LazyString:
    return LazyString(gettext, string, **variables)

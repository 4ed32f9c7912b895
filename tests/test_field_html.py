"""The field macro's label and widget (portal/site/field_html.py) are the markup WTForms
gives, byte for byte, for every field of every form of the portal: with values, errors,
awkward characters and the attributes templates pass; and the person form, the page
leaders open most, is drawn without WTForms' widgets."""
from __future__ import annotations

import importlib
import pkgutil

import pytest
from flask_wtf import FlaskForm
from markupsafe import Markup
from werkzeug.datastructures import MultiDict
from wtforms import BooleanField, Form, IntegerField, PasswordField, SelectField, StringField, TextAreaField
from wtforms.validators import DataRequired, Length, NumberRange

import portal
from portal.form_choices import options
from portal.site import field_html
from portal.site.field_html import label_html, widget_html

AWKWARD = 'a "quoted" & <tagged> \'single\''
PASSED = [{}, {"autocomplete": "off", "class_": "wide", "data_role": "x y", "aria_describedby": "id-note"},
          {"autofocus": True, "readonly": False, "inputmode": "numeric", "placeholder": AWKWARD},
          {"value": Markup('already "markup"')}]


def _forms() -> list[type]:
    for module in pkgutil.walk_packages(portal.__path__, "portal."):
        if module.name.endswith(".forms") or module.name.rsplit(".", 1)[-1] in ("views", "forms"):
            importlib.import_module(module.name)
    found, todo = set(), [FlaskForm]
    while todo:
        for sub in todo.pop().__subclasses__():
            if sub not in found:
                found.add(sub)
                todo.append(sub)
    return sorted((f for f in found if f.__module__.startswith("portal.")), key=lambda f: f.__qualname__)


def _filled(form_class: type) -> list:
    """The form empty, and sent back with an awkward value in every field (errors and all)."""
    empty = form_class(formdata=None, meta={"csrf": False})
    sent = form_class(formdata=MultiDict(dict.fromkeys(empty._fields, AWKWARD)), meta={"csrf": False})
    try:
        sent.validate()
    except TypeError:  # a select whose choices its view sets: compared as sent, unchecked
        pass
    return [empty, sent]


def _same(field) -> int:
    """Compares every way of passing attributes; 0 where WTForms cannot draw the field
    (a select whose choices the view sets), else the count compared."""
    compared = 0
    for kw in PASSED:
        try:
            expected = field(**kw)
        except (TypeError, ValueError):
            continue
        assert widget_html(field, dict(kw)) == expected, (field.name, kw)
        compared += 1
    assert label_html(field) == field.label(), field.name
    return compared


def test_every_form_of_the_portal_is_drawn_as_wtforms_draws_it(app):
    forms = _forms()
    assert len(forms) >= 15, [f.__qualname__ for f in forms]  # the walk found the portal's forms
    compared = 0
    with app.test_request_context("/"):
        for form_class in forms:
            for form in _filled(form_class):
                for field in form:
                    compared += _same(field)
    assert compared > 300


class _Kinds(Form):
    text = StringField("名 & <字>", validators=[DataRequired(), Length(min=2, max=40)], render_kw={"class": "own"})
    number = IntegerField("数", validators=[NumberRange(0, 3500)])
    secret = PasswordField("密码")
    agreed = BooleanField("同意")
    kind = SelectField("类", choices=options([("a", "甲 & 乙"), ("b", '"丙"'), ("", "—")]), default="b")
    flag = SelectField("是否", choices=options([(True, "是"), (False, "否")]), coerce=lambda v: v in (True, "True"))
    note = TextAreaField("备注")  # not drawn here: WTForms draws it, the same call


@pytest.mark.parametrize("data", [None, {"text": AWKWARD, "number": "12", "secret": "s3cret", "agreed": "y",
                                         "kind": "a", "flag": "True", "note": AWKWARD},
                                  {"number": "not a number", "kind": "zzz"}])
def test_each_kind_of_widget_with_flags_choices_and_its_own_attributes(app, data):
    form = _Kinds(formdata=MultiDict(data) if data is not None else None)
    form.validate()
    with app.test_request_context("/"):
        for field in form:
            assert _same(field) == len(PASSED), field.name


def test_the_person_form_is_drawn_without_wtforms_widgets(app, monkeypatch):
    from portal.delegations.forms import PersonForm
    with app.test_request_context("/"):
        form = PersonForm(formdata=None, meta={"csrf": False})
        expected = {field.name: (label_html(field), widget_html(field, {})) for field in form}
        assert all(type(field.widget) in field_html._DRAWN for field in form), \
            [(f.name, type(f.widget).__name__) for f in form if type(f.widget) not in field_html._DRAWN]

        def refuse(*_a, **_k):
            raise AssertionError("drawn by WTForms")

        for kind in {type(field.widget) for field in form}:
            monkeypatch.setattr(kind, "__call__", refuse)
        monkeypatch.setattr(type(form.name.label), "__call__", refuse)
        for field in form:
            assert (label_html(field), widget_html(field, {})) == expected[field.name]

"""A form field's label and widget as HTML, the markup WTForms gives, byte for byte, at a
fraction of its cost.

WTForms 3.3 formats every attribute through Markup.format, lists the field's flags with
dir() and, for every select, inspects its render_option's signature: the person form's
fields took 2.3 ms of its page, the page a leader opens most on deadline night (issue 41,
1). The inputs and plain selects are drawn here from the same parts (the field's value,
flags, choices and render_kw); any other widget, a grouped or multiple select, or a form
whose meta renders fields its own way is drawn by WTForms itself.
tests/test_field_html.py holds both equal for every field of every form."""
from __future__ import annotations

from markupsafe import Markup, escape
from wtforms import widgets
from wtforms.fields.core import Label
from wtforms.meta import DefaultMeta

_QUOTE, _QUOTED = Markup('"'), Markup("&quot;")


def _key(key: str) -> str:  # wtforms.widgets.core.clean_key
    key = key.rstrip("_")
    if key.startswith(("data_", "aria_")):
        key = key.replace("_", "-")
    return key


def attributes(kw: dict) -> str:
    """wtforms.widgets.html_params: sorted by key, True as a bare name, False left out."""
    out = []
    for k, v in sorted(kw.items()):
        k = _key(k)
        if v is True:
            out.append(k)
        elif v is not False:
            out.append(f'{k}="{escape(v).replace(_QUOTE, _QUOTED)}"')
    return " ".join(out)


def _flags(widget, field, kw: dict) -> None:
    """The validators' flags the widget shows as attributes (required, maxlength ...)."""
    flags = getattr(getattr(field, "flags", None), "__dict__", {})  # what dir() would list
    for k in widget.validation_attrs:
        if k in flags and k not in kw:
            value = flags[k]
            kw[k] = value() if callable(value) else value


def _input(widget, field, kw: dict) -> str:  # wtforms.widgets.Input.__call__
    kw.setdefault("id", field.id)
    kw.setdefault("type", widget.input_type)
    if "value" not in kw:
        kw["value"] = field._value()
    datalist = getattr(field, "_datalist", None)
    if datalist is not None and "list" not in kw:
        kw["list"] = datalist if isinstance(datalist, str) else datalist.id
    _flags(widget, field, kw)
    return f"<input {attributes({'name': field.name, **kw})}>"


def _number(widget, field, kw: dict) -> str:  # wtforms.widgets.NumberInput.__call__
    for name in ("step", "min", "max"):
        if getattr(widget, name) is not None:
            kw.setdefault(name, getattr(widget, name))
    return _input(widget, field, kw)


def _checkbox(widget, field, kw: dict) -> str:  # wtforms.widgets.CheckboxInput.__call__
    if getattr(field, "checked", field.data):
        kw.setdefault("checked", True)
    return _input(widget, field, kw)


def _password(widget, field, kw: dict) -> str:  # wtforms.widgets.PasswordInput.__call__
    if widget.hide_value:
        kw["value"] = ""
    return _input(widget, field, kw)


def _select(widget, field, kw: dict) -> str | None:  # wtforms.widgets.Select.__call__
    if widget.multiple or field.has_groups():
        return None
    kw.setdefault("id", field.id)
    _flags(widget, field, kw)
    out = [f"<select {attributes({'name': field.name, **kw})}>"]
    for choice in field._iter_choices_normalized():
        value = str(choice.value) if isinstance(choice.value, bool) else choice.value
        option = {"value": value, **(choice.render_kw or {})}
        if choice.selected:
            option["selected"] = True
        out.append(f"<option {attributes(option)}>{escape(choice.label or choice.value)}</option>")
    out.append("</select>")
    return "".join(out)


# Only these exact classes: a subclass may draw itself differently.
_DRAWN = {widgets.TextInput: _input, widgets.HiddenInput: _input, widgets.DateInput: _input,
          widgets.EmailInput: _input, widgets.TelInput: _input, widgets.URLInput: _input,
          widgets.SearchInput: _input, widgets.DateTimeLocalInput: _input, widgets.NumberInput: _number,
          widgets.CheckboxInput: _checkbox, widgets.PasswordInput: _password, widgets.Select: _select}


def widget_html(field, render_kw: dict) -> Markup:
    """field(**render_kw), as DefaultMeta.render_field and the widget give it."""
    draw = _DRAWN.get(type(field.widget))
    if draw is not None and type(field.meta).render_field is DefaultMeta.render_field:
        kw = {_key(k): v for k, v in render_kw.items()}
        own = getattr(field, "render_kw", None)
        if own is not None:
            kw = dict({_key(k): v for k, v in own.items()}, **kw)
        html = draw(field.widget, field, kw)
        if html is not None:
            return Markup(html)
    return field(**render_kw)


def label_html(field) -> Markup:
    """field.label: <label for="its id">its text</label>."""
    label = field.label
    if type(label).__call__ is not Label.__call__:
        return Markup(label())
    params = attributes({"for": label.field_id})  # a radio list's label is for no one (False)
    return Markup(f"<label{' ' + params if params else ''}>{escape(label.text)}</label>")

"""The self-registration form (accounts/registration.py): the page's fields and those the
regulation's rules read of an entrant, and his entry judged as typed, each problem on the
field it is about."""
from __future__ import annotations

from functools import cache

from wtforms import PasswordField, SelectField, StringField
from wtforms.validators import DataRequired, EqualTo, Length, Optional, Regexp

from ..clock import now
from ..delegations.forms import PersonForm
from ..delegations.services import judge
from ..delegations.workspace import career_fields, fit_person_form
from ..form_checks import EMAIL, stripped
from ..form_choices import options
from ..rules import parse_document
from ..rules.document import FORMAT
from ..translation import gettext as _, lazy_gettext as _l
from ..web import is_en
from .arrivals import UPLOADED_AFTER
from .services import password_problem_for


class SelfRegistrationForm(PersonForm):
    event = SelectField(_l("项目"))
    username = StringField(_l("用户名（登录用）"), validators=[DataRequired(), Length(min=3, max=80),
                                                         Regexp(r"^[A-Za-z0-9_.-]+$", message=_l("只能用字母、数字和 _ . -"))])
    password = PasswordField(_l("设置密码"), validators=[DataRequired(), Length(min=10, max=128)])
    confirm = PasswordField(_l("再次输入密码"), validators=[EqualTo("password", message=_l("两次输入的密码不一致"))])
    email = StringField(_l("电子邮箱（接收报名回执和审核结果，可不填）"), validators=[Optional(), Length(max=200), EMAIL],
                        filters=[stripped])
    # Only what the page asks (registration/register.html). A field built but never shown
    # costs every answer of a rush, and a rule's error put on it would be seen by nobody:
    # an error about any of these goes above the form instead (rule_errors_on_fields).
    # Those the regulation's rules read are asked as well (registration_form_for).
    version = registration_unit = registration_year = registration_date = university_code = full_time = None
    graduation_date = fide_rating = fide_list = grade_system = grade = grade_awarded_on = None
    rating_list = rating_value = rating_list_date = residence_region = residence_since = nationality = None
    employment_kind = employment_unit = employment_since = None


# What a rule may read of an entrant beyond the page's own fields, asked only where one does.
# (A registration to a unit is not: an individual enters for no unit, and the rule reads none.)
ASKED_FOR = {"university": ("university_code", "full_time", "graduation_date"),
             "fide": ("fide_rating", "fide_list"),
             "grade": ("grade_system", "grade", "grade_awarded_on"),
             "rating": ("rating_list", "rating_value", "rating_list_date"),
             "residence": ("residence_region", "residence_since"),
             "nationality": ("nationality",),
             "employment": ("employment_kind", "employment_unit", "employment_since")}


def asked_for(definition) -> frozenset[str]:
    """The groups of ASKED_FOR that the regulation's rules read."""
    from ..rules import definition as rd
    needs = career_fields(definition)
    read = {"university": any(isinstance(r, rd.UniversityRule) for r in definition.rules),
            "fide": any(isinstance(r, rd.RatingExceptionRule) or (isinstance(r, rd.RatingRule) and r.list == "fide")
                        for r in definition.rules),
            "grade": bool(needs["grade_systems"]), "rating": bool(needs["rating_lists"]),
            "residence": needs["residence"], "nationality": needs["nationality"], "employment": needs["employment"]}
    return frozenset(group for group, on in read.items() if on)


@cache
def _form_class(groups: frozenset[str]) -> type[SelfRegistrationForm]:
    """The form with the fields of `groups` put back (one class per set: WTForms binds a
    class's fields once)."""
    if not groups:
        return SelfRegistrationForm
    fields = {name: getattr(PersonForm, name) for group in groups for name in ASKED_FOR[group]}
    return type("SelfRegistrationForm", (SelfRegistrationForm,), fields)


def registration_form_for(definition) -> SelfRegistrationForm:
    """The self-registration form of a Games: the page's fields, and those its rules read;
    its events the individual ones."""
    form = _form_class(asked_for(definition))()
    fit_person_form(form, definition)
    form.event.choices = options((e.code, e.name.en if is_en() else e.name.zh) for e in definition.events if not e.is_team)
    return form


def documents_due_with_entry(definition, en: bool) -> str:
    """The documents a regulation wants with the entry (报名时须提交), named in its order as
    the reader lists them; "" when it wants none."""
    from ..rules import definition as rd
    from ..rules.checks.delegation import age_words
    names = rd.document_names(definition)
    wanted: dict[str, tuple[str, str]] = {}  # kind -> the ages it is asked of, in words ("" for all)
    for r in definition.rules:
        if isinstance(r, rd.DocumentsRule) and r.due == "entry":
            for d in r.documents:
                if d in names and wanted.get(d) != ("", ""):
                    wanted[d] = age_words(r)
    shown = [(f"{names[d][1]} ({aged[1]})" if aged[1] else names[d][1]) if en else
             (f"{names[d][0]}（{aged[0]}者）" if aged[0] else names[d][0]) for d, aged in wanted.items()]
    return (", " if en else "、").join(shown)


# A rule's code -> the form field it is about (the rest are shown above the form).
# An event his age or gender does not admit is the event's problem: he chose the wrong group.
CODE_FIELDS = [("GENDER_NOT_ALLOWED", "event"), ("AGE_BRACKET", "event"),
               ("ID_", "id_number"), ("ACCEPTED_ID", "id_type"), ("GENDER", "gender"), ("AGE", "birth_date"),
               ("BIRTH", "birth_date"), ("REGISTRATION", "registration_unit"), ("UNIVERSITY", "university_code"),
               ("RATING", "fide_rating"), ("NAME", "name")]
# A regulation's rule -> the field it reads (a grade's and a rating's refusals share a code).
RULE_FIELDS = {"university": "university_code", "rating_exception": "fide_rating", "grade": "grade",
               "residence": "residence_region", "nationality": "nationality", "employment": "employment_kind"}


def _field_of_rule(rule) -> str | None:
    if rule.kind == "rating":
        return "fide_rating" if rule.list == "fide" else "rating_value"
    return RULE_FIELDS.get(rule.kind)


def check_account(form) -> bool:
    """The password's strength only. Whether the username is taken is not told here: the
    form would be an oracle of every account's name (admin, the committee's); a username
    in use gets a free variant when the ticket is taken, told to the registrant alone."""
    ok = True
    username = (form.username.data or "").strip()
    if form.password.data and (problem := password_problem_for(None, form.password.data, username,
                                                               names=(form.name.data or "",))):
        form.password.errors = list(form.password.errors) + [problem[1] if is_en() else problem[0]]
        ok = False
    return ok


def rule_errors_on_fields(games, definition, document: dict, form, problems: list) -> bool:
    """The regulation's errors on the person as typed, put on their fields; the rest go to
    `problems`. True when there is none. Of other people he learns nothing here: whether
    his ID number is already registered is checked when his registration is made (the
    worker's save compares every number), so a stranger cannot ask it of a form."""
    parsed, schema = parse_document(document)
    violations = schema + (judge(games, parsed, now(), stored=False, held_numbers={})
                           if parsed is not None else [])
    en = is_en()
    clean = True
    told = {f.name for f in form if f.errors}  # the form's own message on these says it already
    for v in violations:
        if not v.is_error or v.code in UPLOADED_AFTER:  # uploaded in his account, then submitted
            continue
        clean = False
        field = None
        if v.path and v.path.startswith("people[0]."):
            name = v.path.split(".", 1)[1].split(".")[0].split("[")[0]
            field = {"registration": "registration_unit", "university": "university_code"}.get(name, name)
        elif "p1" in (v.people or []):
            rule = v.extra.get("rule")
            field = (_field_of_rule(definition.rules[rule]) if rule is not None else None) \
                or next((f for prefix, f in CODE_FIELDS if v.code.startswith(prefix)), None)
        target = getattr(form, field, None) if field else None
        message = v.en if en else v.zh
        if clause := v.extra.get("clause"):  # each problem names its clause, on a field too
            message += f" ({_('规程')} {clause})" if en else f"（{_('规程')} {clause}）"
        if target is not None and hasattr(target, "errors"):
            if target.name not in told and message not in target.errors:
                target.errors = list(target.errors) + [message]
        else:
            problems.append(v)
    return clean


def judged_entry(games, definition, form, slug: str, problems: list) -> tuple[dict, bool]:
    """The entrant's one-person delegation as typed, and whether it may be given a ticket:
    every problem at once (the form's own checks, the account's, and the regulation's on
    the person as typed), each on its field where it has one, the rest into `problems`."""
    form_ok = form.validate_on_submit()
    account_ok = check_account(form)
    person = form.to_person("p1")
    document = {"format": FORMAT, "games": slug, "unit": None, "declarations": [], "people": [person],
                "entries": [{"event": form.event.data, "people": ["p1"]}], "officials": [], "staff": [],
                "companions": []}
    rules_ok = rule_errors_on_fields(games, definition, document, form, problems)
    if form.event.errors:
        tell_events_open_to(games, document, form)
    return document, form_ok and account_ok and rules_ok


def tell_events_open_to(games, document: dict, form) -> None:
    """Beside a refused event, the events of the form he may enter (a parent choosing among
    eight age and gender groups wants the right one named): each judged alone, the work
    bounded by the form's choices."""
    open_to = []
    for choice in form.event.choices:
        code, label = choice.value, choice.label
        if code and code != form.event.data:
            parsed, _schema = parse_document(dict(document, entries=[{"event": code, "people": ["p1"]}]))
            if parsed is not None and not any(v.is_error and v.event == code and v.code not in UPLOADED_AFTER
                                              for v in judge(games, parsed, now(), stored=False, held_numbers={})):
                open_to.append(label)
    if open_to:
        form.event.errors = list(form.event.errors) + [
            _("您可以报：%(events)s", events=(", " if is_en() else "、").join(open_to))]

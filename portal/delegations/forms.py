"""Workspace forms. Every state-changing form carries the CSRF token and the delegation's
version (a form built on an older version is refused, not silently applied)."""
from flask_wtf import FlaskForm
from flask_wtf.file import FileField, FileRequired
from wtforms import BooleanField, DateField, HiddenField, IntegerField, SelectField, StringField, TextAreaField
from wtforms.validators import DataRequired, Length, NumberRange, Optional, Regexp

from ..form_choices import options
from ..rules import idnumber
from ..translation import lazy_gettext as _l

ID_TYPES = [("resident_id", _l("居民身份证")), ("household_register", _l("户口簿")), ("passport", _l("护照")),
            ("hk_macau_permit", _l("港澳居民来往内地通行证")), ("taiwan_permit", _l("台湾居民来往大陆通行证")),
            ("foreign_permanent_id", _l("外国人永久居留身份证"))]
GENDERS = [("", _l("（按证件号码）")), ("M", _l("男")), ("F", _l("女"))]
EMPLOYMENT_KINDS = [("", _l("（未填）")), ("student", _l("学生")), ("staff", _l("教职工")), ("graduate", _l("毕业生（校友）"))]
DOCUMENT_KINDS = [("id_copy", _l("身份证或户口簿复印件")), ("photo", _l("一寸免冠照片")),
                  ("health_certificate", _l("健康证明")), ("insurance_proof", _l("人身意外伤害保险证明")),
                  ("safety_pledge", _l("安全责任承诺书")), ("student_status_proof", _l("学籍证明"))]


class VersionedForm(FlaskForm):
    version = HiddenField()


class PersonForm(VersionedForm):
    id_type = SelectField(_l("证件类型"), choices=options(ID_TYPES), default="resident_id")
    id_number = StringField(_l("证件号码"), validators=[Optional(), Length(max=40)])
    name = StringField(_l("姓名"), validators=[DataRequired(message=_l("请填写姓名")), Length(max=100)])
    gender = SelectField(_l("性别"), choices=options(GENDERS), validators=[Optional()])
    birth_date = DateField(_l("出生日期"), validators=[Optional()])
    registration_unit = StringField(_l("注册单位代码"), validators=[Optional(), Length(max=40)])
    registration_year = IntegerField(_l("注册年度"), validators=[Optional(), NumberRange(1990, 2100)])
    registration_date = DateField(_l("注册日期"), validators=[Optional()])
    university_code = StringField(_l("高校代码"), validators=[Optional(), Length(max=10)])
    full_time = BooleanField(_l("全日制在读"))
    graduation_date = DateField(_l("预计毕业日期"), validators=[Optional()])
    fide_rating = IntegerField(_l("国际棋联等级分"), validators=[Optional(), NumberRange(0, 3500)])
    fide_list = DateField(_l("等级分公布日期"), validators=[Optional()])
    club = StringField(_l("俱乐部（团体排名用）"), validators=[Optional(), Length(max=200)])
    # The player's career, where the regulation asks for it (shown only then: career_fields).
    grade_system = SelectField(_l("段级位体系"), choices=[], validators=[Optional()])
    grade = StringField(_l("段级位或称号"), validators=[Optional(), Length(max=40)])
    grade_awarded_on = DateField(_l("授予日期"), validators=[Optional()])
    rating_list = SelectField(_l("等级分名单"), choices=[], validators=[Optional()])
    rating_value = IntegerField(_l("等级分"), validators=[Optional(), NumberRange(0, 4000)])
    rating_list_date = DateField(_l("等级分公布日期"), validators=[Optional()])
    residence_region = StringField(_l("户籍（常住地）行政区划代码"), validators=[Optional(), Regexp(r"^\d{6}$", message=_l(
        "应为 6 位行政区划代码，如 620000"))])
    residence_since = DateField(_l("落户（居住）日期"), validators=[Optional()])
    nationality = StringField(_l("国籍（三位字母代码，如 CHN）"), validators=[Optional(), Regexp(r"^[A-Za-z]{3}$", message=_l(
        "应为三位字母的国家代码，如 CHN"))])
    employment_kind = SelectField(_l("与本单位的关系"), choices=options(EMPLOYMENT_KINDS), validators=[Optional()])
    employment_unit = StringField(_l("所在单位"), validators=[Optional(), Length(max=200)])
    employment_since = DateField(_l("入职（入学、毕业）日期"), validators=[Optional()])

    CAREER = ("grade_system", "rating_list", "residence_region", "nationality", "employment_kind")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for name in self.CAREER:  # none shown unless the Games' rules read it (workspace.person_form)
            if (field := getattr(self, name)) is not None:
                field.shown = False
        self.career_shown = False

    def _data(self, name: str):
        """A field's value; None for a field a narrower form leaves out (set to None in the
        subclass, as WTForms allows: the self-registration form asks for fewer things)."""
        field = getattr(self, name)
        return None if field is None else field.data

    def _shown(self, name: str) -> bool:
        field = getattr(self, name)
        return field is not None and field.shown

    def to_person(self, ref: str, existing: dict | None = None) -> dict:
        """The person as a delegation/1 object; birth date and gender come from a valid
        resident ID number when they are left blank."""
        data = self._data
        number = idnumber.normalise(self.id_number.data or "") or None
        person = dict(existing or {}, ref=ref, name=(self.name.data or "").strip(), id_type=self.id_type.data,
                      id_number=number, club=(data("club") or "").strip() or None)
        parsed = None
        if number and self.id_type.data in ("resident_id", "household_register"):
            parsed, _problem = idnumber.parse(number)
        gender = self.gender.data or (parsed.gender if parsed else None)
        birth = self.birth_date.data or (parsed.birth_date if parsed else None)
        person["gender"] = gender
        person["birth_date"] = birth.isoformat() if birth else None
        unit, year, registered_on = data("registration_unit"), data("registration_year"), data("registration_date")
        if unit or year or registered_on:
            person["registration"] = {"unit": (unit or "").strip().lower() or None, "year": year}
            if registered_on:
                person["registration"]["date"] = registered_on.isoformat()
        else:
            person["registration"] = None
        if university := data("university_code"):
            graduation = data("graduation_date")
            person["university"] = {"code": university.strip(), "full_time": bool(data("full_time")),
                                    "graduation_date": graduation.isoformat() if graduation else None}
        else:
            person["university"] = None
        if (rating := data("fide_rating")) is not None:
            listed_on = data("fide_list")
            person["fide_rating"] = {"value": rating, "list": listed_on.isoformat() if listed_on else None}
        else:
            person["fide_rating"] = None
        person.setdefault("documents", [])
        self._career_into(person)
        return person

    def _career_into(self, person: dict) -> None:
        """The career fields the form shows, over what the person already holds (another
        system's grade, another list's rating stay as they were)."""
        data = self._data
        system = data("grade_system")
        if system:
            grades = [g for g in person.get("grades") or [] if g.get("system") != system]
            if (data("grade") or "").strip():
                awarded = data("grade_awarded_on")
                grades.append({"system": system, "grade": data("grade").strip(),
                               "awarded_on": awarded.isoformat() if awarded else None})
            person["grades"] = grades or None
        listed = data("rating_list")
        if listed:
            ratings = {k: v for k, v in (person.get("ratings") or {}).items() if k != listed}
            if (value := data("rating_value")) is not None:
                list_date = data("rating_list_date")
                ratings[listed] = {"value": value, "list": list_date.isoformat() if list_date else None}
            person["ratings"] = ratings or None
        if self._shown("residence_region"):
            since = data("residence_since")
            person["residence"] = {"province": self.residence_region.data.strip(),
                                   "since": since.isoformat() if since else None} if self.residence_region.data else None
        if self._shown("nationality"):
            person["nationality"] = (self.nationality.data or "").strip().upper() or None
        if self._shown("employment_kind"):
            person["employment"] = {"kind": self.employment_kind.data, "unit": (self.employment_unit.data or "").strip() or None,
                                    "since": self.employment_since.data.isoformat() if self.employment_since.data else None} \
                if self.employment_kind.data else None


def offer_regulation_id_types(form: PersonForm, definition, en: bool) -> None:
    """The identity documents a regulation adds to the portal's (军官证), offered on the form."""
    extra = [(k.code, k.name.en if en else k.name.zh) for k in definition.id_types]
    if extra:
        form.id_type.choices = options(list(form.id_type.choices) + extra)


class UploadForm(VersionedForm):
    kind = SelectField(_l("材料"), choices=options(DOCUMENT_KINDS))
    file = FileField(_l("文件（PDF、JPG、PNG，5 MB 以内）"), validators=[FileRequired(message=_l("请选择文件"))])


class FileUploadForm(FlaskForm):
    file = FileField(_l("文件"), validators=[FileRequired(message=_l("请选择文件"))])


class ConfirmForm(VersionedForm):
    token = HiddenField()


class SubstitutionForm(VersionedForm):
    event = SelectField(_l("项目"))
    out_ref = SelectField(_l("被替换的运动员"))
    in_ref = SelectField(_l("替换为（已登记人员）"), validators=[Optional()])
    reason = TextAreaField(_l("更换理由"), validators=[DataRequired(message=_l("请说明更换理由")), Length(max=1000)])

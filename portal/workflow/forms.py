"""The organisers' forms: return with reasons, extend a deadline, withdraw, decide."""
from __future__ import annotations

from flask_wtf import FlaskForm
from wtforms import BooleanField, DateTimeLocalField, SelectField, StringField, TextAreaField
from wtforms.validators import DataRequired, Length, Optional

from ..form_choices import options
from ..translation import lazy_gettext as _l


class ReturnForm(FlaskForm):
    # Choices are built per delegation for the page; the service checks what comes back.
    item = SelectField(_l("涉及"), validators=[Optional()], validate_choice=False)
    reason = TextAreaField(_l("理由"), validators=[DataRequired(message=_l("请填写理由")), Length(max=1000)])


class ExtensionForm(FlaskForm):
    stage = SelectField(_l("阶段"), choices=options([("declaration", _l("第一次报名")), ("names", _l("人员名单")),
                                                  ("substitutions", _l("更换运动员"))]))
    until = DateTimeLocalField(_l("延至（北京时间）"), format="%Y-%m-%dT%H:%M", validators=[DataRequired()])
    reason = StringField(_l("理由"), validators=[DataRequired(message=_l("请填写理由")), Length(max=500)])


class WithdrawForm(FlaskForm):
    event = SelectField(_l("项目"), validators=[Optional()], validate_choice=False)
    excused = BooleanField(_l("理由成立（不可抗力），不处罚"))
    reason = StringField(_l("说明"), validators=[Optional(), Length(max=1000)])


class DecisionForm(FlaskForm):
    reason = StringField(_l("理由"), validators=[Optional(), Length(max=1000)])

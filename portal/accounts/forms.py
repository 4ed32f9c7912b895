from flask_wtf import FlaskForm
from wtforms import BooleanField, PasswordField, SelectField, SelectMultipleField, StringField
from wtforms.validators import DataRequired, EqualTo, Length, Optional, Regexp

from ..form_checks import EMAIL, ONE_LINE, stripped
from ..translation import lazy_gettext as _l


class LoginForm(FlaskForm):
    username = StringField(_l("用户名"), validators=[DataRequired(), Length(max=80)])
    password = PasswordField(_l("密码"), validators=[DataRequired()])


class PasswordForm(FlaskForm):
    current = PasswordField(_l("当前密码"), validators=[DataRequired()])
    password = PasswordField(_l("新密码"), validators=[DataRequired(), Length(min=10, max=128)])
    confirm = PasswordField(_l("再次输入新密码"), validators=[EqualTo("password", message=_l("两次输入的密码不一致"))])


class InvitationForm(FlaskForm):
    password = PasswordField(_l("设置密码"), validators=[DataRequired(), Length(min=10, max=128)])
    confirm = PasswordField(_l("再次输入密码"), validators=[EqualTo("password", message=_l("两次输入的密码不一致"))])
    email = StringField(_l("电子邮箱（接收报名回执、退回和批准通知）"), validators=[Optional(), Length(max=200), EMAIL], filters=[stripped])


class NewLeaderForm(FlaskForm):
    games = SelectField(_l("比赛"), validators=[DataRequired()])
    unit = SelectField(_l("参赛单位"), validators=[Optional()])
    club_name = StringField(_l("或：俱乐部、学校等单位名称"), validators=[Optional(), Length(max=200), ONE_LINE])
    username = StringField(_l("用户名"), validators=[DataRequired(), Length(min=3, max=80),
                                                   Regexp(r"^[A-Za-z0-9_.-]+$", message=_l("只能用字母、数字和 _ . -"))])
    display_name = StringField(_l("领队姓名"), validators=[DataRequired(), Length(max=100), ONE_LINE])
    email = StringField(_l("领队电子邮箱（填写后自动发送邀请）"), validators=[Optional(), Length(max=200), EMAIL], filters=[stripped])


class NewStaffForm(FlaskForm):
    """An administrator's: a staff account for the Games it serves (invited, like a leader)."""
    username = StringField(_l("用户名"), validators=[DataRequired(), Length(min=3, max=80),
                                                   Regexp(r"^[A-Za-z0-9_.-]+$", message=_l("只能用字母、数字和 _ . -"))])
    display_name = StringField(_l("姓名"), validators=[DataRequired(), Length(max=100), ONE_LINE])
    role = SelectField(_l("角色"), validators=[DataRequired()])
    games = SelectMultipleField(_l("负责的比赛"), validators=[Optional()])


class NotificationsForm(FlaskForm):
    email = StringField(_l("电子邮箱"), validators=[Optional(), Length(max=200), EMAIL], filters=[stripped])
    reminders = BooleanField(_l("接收截止提醒（报名回执、退回和审核结果总会发送）"))

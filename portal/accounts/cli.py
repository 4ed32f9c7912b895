"""`flask accounts ...`: what an administrator does from the server's shell when no one can
do it in the screens (the last administrator locked out, or the first one on a new install)."""
from __future__ import annotations

import sys

import click
from flask.cli import AppGroup
from sqlalchemy import select

from ..audit.services import Actor
from ..cli_support import say, terminal_en
from ..extensions import db
from ..roles import Role
from ..text import Text
from . import services
from .models import User
from .two_factor import reset

accounts_cli = AppGroup("accounts", help="Make an administrator, unlock accounts, reset two-factor login, check for demo passwords.")
SHELL = Actor("服务器命令行")  # stored in Chinese, read in the reader's language (audit.sentences)


def _user(username: str) -> User:
    user = db.session.scalar(select(User).where(User.username == username.strip()))
    if user is None:
        say(Text(f"没有用户名为 {username} 的账号", f"no account named {username}"), err=True)
        sys.exit(2)
    return user


@accounts_cli.command("unlock")
@click.argument("username")
def unlock_cmd(username):
    """Let every client try USERNAME again at once (after failed logins)."""
    user = _user(username)
    services.unlock(user, SHELL)
    say(Text(f"已解锁 {user.username}", f"{user.username} unlocked"))


@accounts_cli.command("reset-2fa")
@click.argument("username")
def reset_two_factor_cmd(username):
    """USERNAME enrols a new authenticator at the next login (a lost phone)."""
    user = _user(username)
    reset(user, SHELL)
    say(Text(f"已重置 {user.username} 的两步验证", f"two-factor login of {user.username} reset"))


@accounts_cli.command("create-admin")
@click.argument("username")
@click.option("--name", "display_name", default=None, help="The name shown in the portal (default: USERNAME).")
@click.option("--invite", is_flag=True, help="Print a one-time invitation link instead of asking for a password.")
def create_admin_cmd(username, display_name, invite):
    """Make an administrator: the first one of a new install, or one more. Asks for the
    password twice (never on the command line), or with --invite prints a link with which
    the person sets it (14 days, once)."""
    from flask import current_app

    from ..db_tx import write_transaction
    from .passwords import password_problem
    username = username.strip()
    if db.session.scalar(select(User.id).where(User.username == username)):
        say(Text(f"用户名 {username} 已被使用", f"the username {username} is taken"), err=True)
        sys.exit(2)
    password = None
    if not invite:
        en = terminal_en()
        password = click.prompt("password" if en else "密码", hide_input=True,
                                confirmation_prompt="again" if en else "再输一次")
        if problem := password_problem(password, username=username, names=(display_name or "",)):
            say(Text(f"密码不行：{problem[0]}", f"password refused: {problem[1]}"), err=True)
            sys.exit(2)
    with write_transaction():
        _user, token = services.create_account(username, display_name or username, Role.ADMIN, SHELL, password=password)
    if token is None:
        say(Text(f"已创建管理员 {username}", f"administrator {username} created"))
        return
    base = (current_app.config.get("PUBLIC_URL") or "").rstrip("/")
    link = f"{base}/invite/{token}"
    days = services.INVITATION_DAYS
    say(Text(f"已创建管理员 {username}；请在 {days} 天内打开这个一次性链接设置密码：",
             f"administrator {username} created; open this one-time link within {days} days to set the password:"))
    say(link if base else Text(f"{link}   （在前面加上门户的地址；或设置 PUBLIC_URL）",
                               f"{link}   (prefix the portal's address; set PUBLIC_URL)"))


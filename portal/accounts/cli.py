"""`flask accounts ...`: what an administrator does from the server's shell when no one can
do it in the screens (the last administrator locked out, or the first one on a new install)."""
from __future__ import annotations

import sys

import click
from flask.cli import AppGroup
from sqlalchemy import select

from ..audit.services import Actor
from ..extensions import db
from . import services
from .models import User
from .two_factor import reset

accounts_cli = AppGroup("accounts", help="Unlock accounts, reset two-factor login, make the first administrator.")
SHELL = Actor("服务器命令行 (server shell)")


def _user(username: str) -> User:
    user = db.session.scalar(select(User).where(User.username == username.strip()))
    if user is None:
        click.echo(f"没有用户名为 {username} 的账号 / no account named {username}", err=True)
        sys.exit(2)
    return user


@accounts_cli.command("unlock")
@click.argument("username")
def unlock_cmd(username):
    """Let every client try USERNAME again at once (after failed logins)."""
    user = _user(username)
    services.unlock(user, SHELL)
    click.echo(f"已解锁 {user.username} / {user.username} unlocked")


@accounts_cli.command("reset-2fa")
@click.argument("username")
def reset_two_factor_cmd(username):
    """USERNAME enrols a new authenticator at the next login (a lost phone)."""
    user = _user(username)
    reset(user, SHELL)
    click.echo(f"已重置 {user.username} 的两步验证 / two-factor login of {user.username} reset")

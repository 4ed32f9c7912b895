"""`flask notify send [--every SECONDS]`: send the outbox's due messages (under cron, or
looping beside the job workers). Several senders at once never send a message twice."""
from __future__ import annotations

import time

import click
from flask import current_app
from flask.cli import AppGroup

from .sender import send_due

notify_cli = AppGroup("notify", help="E-mail: send the outbox.")


@notify_cli.command("send")
@click.option("--every", type=click.IntRange(0, 3600), default=0,
              help="Keep sending, every this many seconds (0: once, then stop).")
def send_cmd(every: int) -> None:
    while True:
        counts = send_due()
        if counts["sent"] or counts["retry"] or counts["failed"] or not every:
            where = ""
            if current_app.config.get("MAIL_BACKEND") == "file":
                where = f" (written to {current_app.config['MAIL_FILE_PATH']}, not sent: set MAIL_SERVER to send)"
            click.echo(f"sent {counts['sent']}, to retry {counts['retry']}, failed {counts['failed']}{where}")
        if not every:
            return
        time.sleep(every)

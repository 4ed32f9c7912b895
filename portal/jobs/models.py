"""A background job's row: what to do, who asked, how far it is, where its file is."""
from __future__ import annotations

import datetime as dt
from enum import StrEnum

from sqlalchemy import JSON, ForeignKey, Index, String
from sqlalchemy.orm import Mapped, mapped_column

from ..db_types import UTCDateTime, status_check
from ..extensions import db
from ..games.models import utcnow


class JobStatus(StrEnum):
    """queued -> running -> done | failed."""
    QUEUED = "queued"
    RUNNING = "running"
    DONE = "done"
    FAILED = "failed"


class Job(db.Model):
    __tablename__ = "job"
    __table_args__ = (Index("ix_job_user_created", "user_id", "created_at"),
                      status_check(JobStatus))
    id: Mapped[int] = mapped_column(primary_key=True)
    kind: Mapped[str] = mapped_column(String(40))
    params: Mapped[dict] = mapped_column(JSON, default=dict)
    user_id: Mapped[int | None] = mapped_column(ForeignKey("user_account.id", ondelete="SET NULL"), index=True)
    status: Mapped[str] = mapped_column(String(20), default=JobStatus.QUEUED)
    done_count: Mapped[int] = mapped_column(default=0)
    total_count: Mapped[int | None]
    title: Mapped[str] = mapped_column(String(200), default="")
    error: Mapped[str | None] = mapped_column(String(500))
    file_name: Mapped[str | None] = mapped_column(String(200))
    mimetype: Mapped[str | None] = mapped_column(String(100))
    created_at: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=utcnow)
    started_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime)
    # Written when the job starts, every HEARTBEAT_EVERY while it runs and with each
    # progress: a running job whose node was lost stops beating, and is then started again
    # elsewhere or failed (services.sweep_stale), never "running" for ever.
    heartbeat_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime)
    finished_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime)

    @property
    def percent(self) -> int:
        if self.status == JobStatus.DONE:
            return 100
        if not self.total_count:
            return 0
        return min(99, int(100 * self.done_count / self.total_count))

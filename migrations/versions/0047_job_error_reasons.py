"""A job that failed for one of the portal's own reasons stores the reason's name, told in
the reader's language on its page, not both languages joined with " / "

Revision ID: 0047
Revises: 0046
Create Date: 2026-12-04 07:00:00

"""
import sqlalchemy as sa
from alembic import op

revision = '0047'
down_revision = '0046'
branch_labels = None
depends_on = None

WORDS = {
    'queue_unavailable': "后台任务服务暂时无法连接，任务没有开始。请稍后再试；如仍不行，请联系系统管理员。"
                         " / The background job service cannot be reached, so the job did not start. "
                         "Try again later, or tell the administrator.",
    'stopped': "后台任务中断了（运行它的服务器停止了），请重新开始这项任务。"
               " / The job stopped (the server running it went away): start it again.",
}
PUBLISHED = "发布 / published"


def upgrade():
    for name, words in WORDS.items():
        op.execute(sa.text("UPDATE job SET error = :name WHERE error = :words").bindparams(name=name, words=words))
    # version 1 of a published Games: its row already says "published" (no amendment)
    op.execute(sa.text("UPDATE games_version SET reason = NULL WHERE reason = :words").bindparams(words=PUBLISHED))


def downgrade():
    for name, words in WORDS.items():
        op.execute(sa.text("UPDATE job SET error = :words WHERE error = :name").bindparams(name=name, words=words))
    op.execute(sa.text("UPDATE games_version SET reason = :words WHERE reason IS NULL AND amendment IS NULL")
               .bindparams(words=PUBLISHED))

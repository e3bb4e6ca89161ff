"""`boards.send_limits`: a limit of hours the board set on the GM account's sends.

Discourse refuses a personal message for up to a day once `max_personal_messages_per_day`
is spent; MyBB's PM flood can ask for long too. The limit is the account's, not the
process's: kept here, a `run --once` (or a restarted service) knows the kind waits and
until when, sends nothing of it meanwhile, and tells the host.

Revision ID: 0017
Revises: 0016
Create Date: 2026-12-05
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0017"
down_revision: str | None = "0016"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("boards") as batch:
        batch.add_column(sa.Column("send_limits", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("boards") as batch:
        batch.drop_column("send_limits")

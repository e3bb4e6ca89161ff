"""A game lease names its owner's process (host, kernel boot and pid namespace, pid and the
process's start), so a process on the same machine takes the lease of one that is gone
(`kill -9`, a crash) at once instead of waiting for it to expire.

Revision ID: 0014
Revises: 0013
Create Date: 2026-12-05
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0014"
down_revision: str | None = "0013"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("game_leases") as batch:
        batch.add_column(sa.Column("host", sa.String(length=255), nullable=True))
        batch.add_column(sa.Column("machine", sa.String(length=200), nullable=True))
        batch.add_column(sa.Column("pid", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("pid_start", sa.BigInteger(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("game_leases") as batch:
        batch.drop_column("pid_start")
        batch.drop_column("pid")
        batch.drop_column("machine")
        batch.drop_column("host")

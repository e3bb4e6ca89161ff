"""Several games on one GM account, late results, and logins the board refused.

`raw_pms.routing` marks a PM whose game is unclear; `games.tag` and `games.accounts` are
what PMs are routed by. `phases.next_deadline` is the deadline a phase's results announce
and `games.deadline_shift` how far the host moved the schedule. `boards.login_*` keep a
refused login (and when the service last tried one) so it stops until the host acts.

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-03
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0010"
down_revision: str | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("raw_pms") as batch:
        batch.add_column(sa.Column("routing", sa.String(length=16), nullable=True))
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("tag", sa.String(length=100), nullable=True))
        batch.add_column(sa.Column("accounts", sa.JSON(), nullable=True))
        batch.add_column(
            sa.Column("deadline_shift", sa.Integer(), nullable=False, server_default="0")
        )
    with op.batch_alter_table("phases") as batch:
        batch.add_column(sa.Column("next_deadline", sa.DateTime(timezone=True), nullable=True))
    with op.batch_alter_table("boards") as batch:
        batch.add_column(sa.Column("login_tried_at", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("login_failed_at", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("login_error", sa.Text(), nullable=True))
        batch.add_column(sa.Column("login_refused_hash", sa.String(length=200), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("boards") as batch:
        for column in ("login_refused_hash", "login_error", "login_failed_at", "login_tried_at"):
            batch.drop_column(column)
    with op.batch_alter_table("phases") as batch:
        batch.drop_column("next_deadline")
    with op.batch_alter_table("games") as batch:
        for column in ("deadline_shift", "accounts", "tag"):
            batch.drop_column(column)
    with op.batch_alter_table("raw_pms") as batch:
        batch.drop_column("routing")

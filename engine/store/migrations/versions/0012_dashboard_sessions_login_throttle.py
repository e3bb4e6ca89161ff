"""The dashboard's sessions and login throttle, kept in the store.

`dashboard_sessions`: one row per host login (the SHA-256 of the cookie's token); logging out
deletes it. `login_throttle`: per client address, the login attempts that were not the right
password and when the next may be checked; a restart no longer forgets them.

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-05
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0012"
down_revision: str | None = "0011"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "dashboard_sessions",
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("host_id", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("client", sa.String(length=64), nullable=False),
        sa.ForeignKeyConstraint(
            ["host_id"],
            ["host_accounts.id"],
            name=op.f("fk_dashboard_sessions_host_id_host_accounts"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("token_hash", name=op.f("pk_dashboard_sessions")),
    )
    op.create_index(
        op.f("ix_dashboard_sessions_host_id"), "dashboard_sessions", ["host_id"], unique=False
    )
    op.create_table(
        "login_throttle",
        sa.Column("client", sa.String(length=64), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("last_attempt_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("next_check_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("client", name=op.f("pk_login_throttle")),
    )
    op.create_index(
        op.f("ix_login_throttle_last_attempt_at"),
        "login_throttle",
        ["last_attempt_at"],
        unique=False,
    )


def downgrade() -> None:
    op.drop_index(op.f("ix_login_throttle_last_attempt_at"), table_name="login_throttle")
    op.drop_table("login_throttle")
    op.drop_index(op.f("ix_dashboard_sessions_host_id"), table_name="dashboard_sessions")
    op.drop_table("dashboard_sessions")

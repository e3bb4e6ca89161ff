"""An index on raw posts by time: a phase's window (and a poll's check of it) reads a range.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_index(
        "ix_raw_posts_game_id_thread_id_posted_at",
        "raw_posts",
        ["game_id", "thread_id", "posted_at"],
    )


def downgrade() -> None:
    op.drop_index("ix_raw_posts_game_id_thread_id_posted_at", table_name="raw_posts")

"""Parse results kept per content of a post or PM; the driver's read cursors persisted.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "parse_cache",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("key", sa.String(length=64), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("result", sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"],
            ["games.id"],
            name=op.f("fk_parse_cache_game_id_games"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_parse_cache")),
        sa.UniqueConstraint("game_id", "key", name=op.f("uq_parse_cache_game_id_key")),
    )
    op.create_index("ix_parse_cache_game_id_at", "parse_cache", ["game_id", "at"])
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("thread_cursor", sa.JSON(), nullable=True))
        batch.add_column(sa.Column("inbox_cursor", sa.JSON(), nullable=True))
    with op.batch_alter_table("phases") as batch:
        batch.add_column(sa.Column("read_from", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("phases") as batch:
        batch.drop_column("read_from")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("inbox_cursor")
        batch.drop_column("thread_cursor")
    op.drop_index("ix_parse_cache_game_id_at", table_name="parse_cache")
    op.drop_table("parse_cache")

"""Messages from board members who hold no seat: logged for the host, never read for commands.

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-04
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "outsider_messages",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("phase", sa.String(length=32), nullable=False),
        sa.Column("channel", sa.String(length=16), nullable=False),
        sa.Column("item_id", sa.String(length=100), nullable=False),
        sa.Column("author", sa.String(length=200), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("url", sa.String(length=500), nullable=True),
        sa.Column("excerpt", sa.Text(), nullable=False),
        sa.Column("noted_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"],
            ["games.id"],
            name=op.f("fk_outsider_messages_game_id_games"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_outsider_messages")),
        sa.UniqueConstraint(
            "game_id",
            "channel",
            "item_id",
            name=op.f("uq_outsider_messages_game_id_channel_item_id"),
        ),
    )
    op.create_index("ix_outsider_messages_game_id_phase", "outsider_messages", ["game_id", "phase"])


def downgrade() -> None:
    op.drop_index("ix_outsider_messages_game_id_phase", table_name="outsider_messages")
    op.drop_table("outsider_messages")

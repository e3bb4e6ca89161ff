"""Seats offered to the reserve: who, for which seat, until when, and the answer
(issue 29 item 3).

Revision ID: 0015
Revises: 0014
Create Date: 2026-12-05
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0015"
down_revision: str | None = "0014"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "substitute_offers",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("seat", sa.String(length=200), nullable=False),
        sa.Column("leaving", sa.String(length=200), nullable=False),
        sa.Column("candidate", sa.String(length=200), nullable=False),
        sa.Column("reason", sa.String(length=32), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("offered_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("answered_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("answer_pm", sa.String(length=100), nullable=True),
        sa.ForeignKeyConstraint(
            ["game_id"],
            ["games.id"],
            name=op.f("fk_substitute_offers_game_id_games"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_substitute_offers")),
    )
    with op.batch_alter_table("substitute_offers", schema=None) as batch_op:
        batch_op.create_index(
            "ix_substitute_offers_game_id_status", ["game_id", "status"], unique=False
        )


def downgrade() -> None:
    with op.batch_alter_table("substitute_offers", schema=None) as batch_op:
        batch_op.drop_index("ix_substitute_offers_game_id_status")

    op.drop_table("substitute_offers")

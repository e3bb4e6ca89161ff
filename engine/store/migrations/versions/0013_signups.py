"""Sign-up threads: their posts as last read, the list they make, the host's decisions on
joins and the GM's answers in the thread (issue 29).

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-05
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0013"
down_revision: str | None = "0012"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "signups",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("board_id", sa.Integer(), nullable=False),
        sa.Column("thread_id", sa.String(length=100), nullable=False),
        sa.Column("marker_key", sa.String(length=64), nullable=False),
        sa.Column("cursor", sa.JSON(), nullable=True),
        sa.Column("closed_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("written_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("list_posted_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["board_id"], ["boards.id"], name=op.f("fk_signups_board_id_boards"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_signups")),
        sa.UniqueConstraint("board_id", "thread_id", name=op.f("uq_signups_board_id_thread_id")),
    )
    op.create_table(
        "signup_decisions",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("signup_id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("decision", sa.String(length=16), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["signup_id"],
            ["signups.id"],
            name=op.f("fk_signup_decisions_signup_id_signups"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_signup_decisions")),
        sa.UniqueConstraint("signup_id", "name", name=op.f("uq_signup_decisions_signup_id_name")),
    )
    op.create_table(
        "signup_entries",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("signup_id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("place", sa.Integer(), nullable=False),
        sa.Column("joined_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("post_id", sa.String(length=100), nullable=True),
        sa.ForeignKeyConstraint(
            ["signup_id"],
            ["signups.id"],
            name=op.f("fk_signup_entries_signup_id_signups"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_signup_entries")),
        sa.UniqueConstraint("signup_id", "name", name=op.f("uq_signup_entries_signup_id_name")),
    )
    op.create_table(
        "signup_messages",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("signup_id", sa.Integer(), nullable=False),
        sa.Column("marker", sa.String(length=100), nullable=False),
        sa.Column("bbcode", sa.Text(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("post_id", sa.String(length=100), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("sent_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["signup_id"],
            ["signups.id"],
            name=op.f("fk_signup_messages_signup_id_signups"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_signup_messages")),
        sa.UniqueConstraint("marker", name=op.f("uq_signup_messages_marker")),
    )
    op.create_table(
        "signup_posts",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("signup_id", sa.Integer(), nullable=False),
        sa.Column("post_id", sa.String(length=100), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("author", sa.String(length=200), nullable=False),
        sa.Column("posted_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("marker", sa.String(length=100), nullable=True),
        sa.Column("deleted", sa.Boolean(), nullable=False),
        sa.Column("answered", sa.String(length=32), nullable=True),
        sa.Column("edits", sa.Integer(), nullable=False),
        sa.Column("seen_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["signup_id"],
            ["signups.id"],
            name=op.f("fk_signup_posts_signup_id_signups"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_signup_posts")),
        sa.UniqueConstraint("signup_id", "post_id", name=op.f("uq_signup_posts_signup_id_post_id")),
    )


def downgrade() -> None:
    op.drop_table("signup_posts")
    op.drop_table("signup_messages")
    op.drop_table("signup_entries")
    op.drop_table("signup_decisions")
    op.drop_table("signups")

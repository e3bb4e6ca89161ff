"""Create the store tables.

Boards, games, players, phases, raw posts and PMs with their history, parse results, host
overrides, events and the outbox.

Revision ID: 0001
Revises:
Create Date: 2026-11-30
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "boards",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("engine", sa.String(length=32), nullable=False),
        sa.Column("base_url", sa.String(length=500), nullable=False),
        sa.Column("gm_user", sa.String(length=200), nullable=False),
        sa.Column("credentials_ref", sa.String(length=200), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_boards")),
        sa.UniqueConstraint("base_url", "gm_user", name=op.f("uq_boards_base_url_gm_user")),
    )
    op.create_table(
        "games",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("board_id", sa.Integer(), nullable=False),
        sa.Column("title", sa.String(length=300), nullable=False),
        sa.Column("thread_id", sa.String(length=100), nullable=False),
        sa.Column("thread_url", sa.String(length=500), nullable=True),
        sa.Column("ruleset", sa.String(length=64), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("language", sa.String(length=16), nullable=False),
        sa.Column("time_zone", sa.String(length=64), nullable=False),
        sa.Column(
            "status",
            sa.Enum(
                "setup", "running", "finished", name="gamestatus", native_enum=False, length=16
            ),
            nullable=False,
        ),
        sa.Column("state", sa.JSON(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["board_id"], ["boards.id"], name=op.f("fk_games_board_id_boards"), ondelete="RESTRICT"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_games")),
        sa.UniqueConstraint("board_id", "thread_id", name=op.f("uq_games_board_id_thread_id")),
    )
    op.create_table(
        "phases",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("phase", sa.String(length=32), nullable=False),
        sa.Column("opened_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("deadline", sa.DateTime(timezone=True), nullable=False),
        sa.Column(
            "status",
            sa.Enum(
                "open",
                "frozen",
                "resolved",
                "published",
                name="phasestatus",
                native_enum=False,
                length=16,
            ),
            nullable=False,
        ),
        sa.Column("state_before", sa.JSON(), nullable=False),
        sa.Column("state_after", sa.JSON(), nullable=True),
        sa.Column("frozen_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("resolved_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("published_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name=op.f("fk_phases_game_id_games"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_phases")),
        sa.UniqueConstraint("game_id", "phase", name=op.f("uq_phases_game_id_phase")),
    )
    op.create_table(
        "players",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("board_user_id", sa.String(length=100), nullable=True),
        sa.Column("role", sa.String(length=100), nullable=True),
        sa.Column("faction", sa.String(length=100), nullable=True),
        sa.Column("alive", sa.Boolean(), nullable=False),
        sa.Column("in_play", sa.Boolean(), nullable=False),
        sa.Column("replaced_by", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name=op.f("fk_players_game_id_games"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["replaced_by"],
            ["players.id"],
            name=op.f("fk_players_replaced_by_players"),
            ondelete="SET NULL",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_players")),
        sa.UniqueConstraint("game_id", "name", name=op.f("uq_players_game_id_name")),
    )
    op.create_index("ix_players_game_id_seat", "players", ["game_id", "seat"])

    op.create_table(
        "raw_pms",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("pm_id", sa.String(length=100), nullable=False),
        sa.Column("sender", sa.String(length=200), nullable=False),
        sa.Column("sender_id", sa.String(length=100), nullable=True),
        sa.Column("recipients", sa.JSON(), nullable=False),
        sa.Column("sent_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("subject", sa.String(length=500), nullable=False),
        sa.Column("url", sa.String(length=500), nullable=True),
        sa.Column("raw", sa.Text(), nullable=True),
        sa.Column("body", sa.JSON(), nullable=False),
        sa.Column("content_hash", sa.String(length=64), nullable=False),
        sa.Column("first_seen_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_seen_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name=op.f("fk_raw_pms_game_id_games"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_raw_pms")),
        sa.UniqueConstraint("game_id", "pm_id", name=op.f("uq_raw_pms_game_id_pm_id")),
    )
    op.create_index("ix_raw_pms_game_id_sent_at", "raw_pms", ["game_id", "sent_at"])

    op.create_table(
        "raw_posts",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("thread_id", sa.String(length=100), nullable=False),
        sa.Column("post_id", sa.String(length=100), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("author", sa.String(length=200), nullable=False),
        sa.Column("author_id", sa.String(length=100), nullable=True),
        sa.Column("posted_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("url", sa.String(length=500), nullable=True),
        sa.Column("raw", sa.Text(), nullable=True),
        sa.Column("body", sa.JSON(), nullable=False),
        sa.Column("content_hash", sa.String(length=64), nullable=False),
        sa.Column("edit_by", sa.String(length=200), nullable=True),
        sa.Column("edit_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("edit_count", sa.Integer(), nullable=False),
        sa.Column("deleted", sa.Boolean(), nullable=False),
        sa.Column("deleted_seen_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("first_seen_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_seen_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name=op.f("fk_raw_posts_game_id_games"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_raw_posts")),
        sa.UniqueConstraint("game_id", "post_id", name=op.f("uq_raw_posts_game_id_post_id")),
    )
    op.create_index(
        "ix_raw_posts_game_id_thread_id_number", "raw_posts", ["game_id", "thread_id", "number"]
    )

    op.create_table(
        "events",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("phase_id", sa.Integer(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("type", sa.String(length=64), nullable=False),
        sa.Column("fields", sa.JSON(), nullable=False),
        sa.Column(
            "audience",
            sa.Enum("public", "private", "host", name="audience", native_enum=False, length=16),
            nullable=False,
        ),
        sa.Column("recipients", sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name=op.f("fk_events_game_id_games"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["phase_id"], ["phases.id"], name=op.f("fk_events_phase_id_phases"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_events")),
        sa.UniqueConstraint("phase_id", "seq", name=op.f("uq_events_phase_id_seq")),
    )
    op.create_table(
        "host_overrides",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("phase_id", sa.Integer(), nullable=False),
        sa.Column(
            "target",
            sa.Enum("order", "warning", name="overridetarget", native_enum=False, length=16),
            nullable=False,
        ),
        sa.Column("ref", sa.String(length=64), nullable=False),
        sa.Column("order", sa.JSON(), nullable=True),
        sa.Column("fix", sa.JSON(), nullable=True),
        sa.Column("by", sa.String(length=200), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"],
            ["games.id"],
            name=op.f("fk_host_overrides_game_id_games"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["phase_id"],
            ["phases.id"],
            name=op.f("fk_host_overrides_phase_id_phases"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_host_overrides")),
    )
    op.create_index("ix_host_overrides_phase_id_ref", "host_overrides", ["phase_id", "ref"])

    op.create_table(
        "outbox",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("phase_id", sa.Integer(), nullable=True),
        sa.Column(
            "kind",
            sa.Enum("post", "pm", name="outboxkind", native_enum=False, length=16),
            nullable=False,
        ),
        sa.Column("recipients", sa.JSON(), nullable=False),
        sa.Column("subject", sa.String(length=500), nullable=True),
        sa.Column("bbcode", sa.Text(), nullable=False),
        sa.Column("marker", sa.String(length=100), nullable=False),
        sa.Column(
            "status",
            sa.Enum(
                "draft",
                "approved",
                "posted",
                "failed",
                name="outboxstatus",
                native_enum=False,
                length=16,
            ),
            nullable=False,
        ),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("last_error", sa.Text(), nullable=True),
        sa.Column("board_id", sa.String(length=100), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("approved_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("posted_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name=op.f("fk_outbox_game_id_games"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["phase_id"], ["phases.id"], name=op.f("fk_outbox_phase_id_phases"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_outbox")),
        sa.UniqueConstraint("marker", name=op.f("uq_outbox_marker")),
    )
    op.create_index("ix_outbox_status_id", "outbox", ["status", "id"])

    op.create_table(
        "parse_warnings",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("phase_id", sa.Integer(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("code", sa.String(length=64), nullable=False),
        sa.Column("message", sa.Text(), nullable=False),
        sa.Column("player", sa.String(length=200), nullable=True),
        sa.Column("action", sa.String(length=100), nullable=True),
        sa.Column("accepted", sa.Boolean(), nullable=False),
        sa.Column(
            "channel",
            sa.Enum("pm", "thread", name="channel", native_enum=False, length=16),
            nullable=True,
        ),
        sa.Column("source_id", sa.String(length=100), nullable=True),
        sa.Column("source_url", sa.String(length=500), nullable=True),
        sa.Column("line", sa.Integer(), nullable=True),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("choices", sa.JSON(), nullable=False),
        sa.Column("resolved_by_host", sa.Boolean(), nullable=False),
        sa.Column("fix", sa.JSON(), nullable=True),
        sa.Column("ref", sa.String(length=64), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"],
            ["games.id"],
            name=op.f("fk_parse_warnings_game_id_games"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["phase_id"],
            ["phases.id"],
            name=op.f("fk_parse_warnings_phase_id_phases"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_parse_warnings")),
    )
    op.create_index("ix_parse_warnings_phase_id_code", "parse_warnings", ["phase_id", "code"])
    op.create_index(op.f("ix_parse_warnings_ref"), "parse_warnings", ["ref"])

    op.create_table(
        "parsed_orders",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("phase_id", sa.Integer(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("player", sa.String(length=200), nullable=False),
        sa.Column(
            "kind",
            sa.Enum(
                "vote",
                "unvote",
                "no_lynch",
                "order",
                "cancel",
                "request",
                name="orderkind",
                native_enum=False,
                length=16,
            ),
            nullable=False,
        ),
        sa.Column("action", sa.String(length=100), nullable=True),
        sa.Column("targets", sa.JSON(), nullable=False),
        sa.Column("args", sa.JSON(), nullable=False),
        sa.Column("candidates", sa.JSON(), nullable=False),
        sa.Column("form", sa.String(length=32), nullable=True),
        sa.Column(
            "channel",
            sa.Enum("pm", "thread", name="channel", native_enum=False, length=16),
            nullable=False,
        ),
        sa.Column("source_id", sa.String(length=100), nullable=True),
        sa.Column("source_url", sa.String(length=500), nullable=True),
        sa.Column("line", sa.Integer(), nullable=True),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=True),
        sa.Column(
            "status",
            sa.Enum(
                "accepted",
                "rejected",
                "overridden",
                name="orderstatus",
                native_enum=False,
                length=16,
            ),
            nullable=False,
        ),
        sa.Column("ref", sa.String(length=64), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"],
            ["games.id"],
            name=op.f("fk_parsed_orders_game_id_games"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["phase_id"],
            ["phases.id"],
            name=op.f("fk_parsed_orders_phase_id_phases"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_parsed_orders")),
        sa.UniqueConstraint("phase_id", "seq", name=op.f("uq_parsed_orders_phase_id_seq")),
    )
    op.create_index("ix_parsed_orders_ref", "parsed_orders", ["ref"])

    op.create_table(
        "raw_pm_revisions",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("raw_pm_id", sa.Integer(), nullable=False),
        sa.Column("rev", sa.Integer(), nullable=False),
        sa.Column("content_hash", sa.String(length=64), nullable=False),
        sa.Column("subject", sa.String(length=500), nullable=False),
        sa.Column("raw", sa.Text(), nullable=True),
        sa.Column("body", sa.JSON(), nullable=False),
        sa.Column("seen_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("valid_from", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["raw_pm_id"],
            ["raw_pms.id"],
            name=op.f("fk_raw_pm_revisions_raw_pm_id_raw_pms"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_raw_pm_revisions")),
        sa.UniqueConstraint("raw_pm_id", "rev", name=op.f("uq_raw_pm_revisions_raw_pm_id_rev")),
    )
    op.create_table(
        "raw_post_revisions",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("raw_post_id", sa.Integer(), nullable=False),
        sa.Column("rev", sa.Integer(), nullable=False),
        sa.Column("content_hash", sa.String(length=64), nullable=False),
        sa.Column("raw", sa.Text(), nullable=True),
        sa.Column("body", sa.JSON(), nullable=False),
        sa.Column("edit_by", sa.String(length=200), nullable=True),
        sa.Column("edit_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("edit_count", sa.Integer(), nullable=False),
        sa.Column("seen_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("valid_from", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["raw_post_id"],
            ["raw_posts.id"],
            name=op.f("fk_raw_post_revisions_raw_post_id_raw_posts"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_raw_post_revisions")),
        sa.UniqueConstraint(
            "raw_post_id", "rev", name=op.f("uq_raw_post_revisions_raw_post_id_rev")
        ),
    )


def downgrade() -> None:
    op.drop_table("raw_post_revisions")
    op.drop_table("raw_pm_revisions")
    op.drop_table("parsed_orders")
    op.drop_table("parse_warnings")
    op.drop_table("outbox")
    op.drop_table("host_overrides")
    op.drop_table("events")
    op.drop_table("raw_posts")
    op.drop_table("raw_pms")
    op.drop_table("players")
    op.drop_table("phases")
    op.drop_table("games")
    op.drop_table("boards")

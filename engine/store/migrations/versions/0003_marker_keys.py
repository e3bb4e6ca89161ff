"""Marker keys: outbox markers become an HMAC under a per-game key; sends are marked first.

`games.marker_key` stays empty for games created before this revision: they keep their
old markers, so items already queued are still recognised on the board after an upgrade.
`outbox.sending_at` records that a send was started, so only an item that may already be
on the board is looked for there.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-02
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("marker_key", sa.String(length=64), nullable=True))
    with op.batch_alter_table("outbox") as batch:
        batch.add_column(sa.Column("sending_at", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("outbox") as batch:
        batch.drop_column("sending_at")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("marker_key")

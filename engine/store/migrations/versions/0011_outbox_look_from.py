"""Where the publisher looks for an item that may already be on the board, kept in the store.

`outbox.look_from`: a board cursor from before the item's first send (the thread for a post,
the sent box for a PM): a restarted process looks only after it. `games.sent_cursor`: where
the publisher's last look at the sent box ended.

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-04
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0011"
down_revision: str | None = "0010"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("outbox") as batch:
        batch.add_column(sa.Column("look_from", sa.JSON(), nullable=True))
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("sent_cursor", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("sent_cursor")
    with op.batch_alter_table("outbox") as batch:
        batch.drop_column("look_from")

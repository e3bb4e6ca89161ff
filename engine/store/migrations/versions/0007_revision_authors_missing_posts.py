"""Post revisions carry their author; posts that vanish from the board are marked.

A post id that changes author ("change poster", an id reused after a hard delete) is a new
revision, so a vote stored under the first author stays theirs. `missing_since`: a full
read of the board no longer served the post.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-02
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("raw_post_revisions") as batch:
        batch.add_column(sa.Column("author", sa.String(length=200), nullable=True))
        batch.add_column(sa.Column("author_id", sa.String(length=100), nullable=True))
    with op.batch_alter_table("raw_posts") as batch:
        batch.add_column(sa.Column("missing_since", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("raw_posts") as batch:
        batch.drop_column("missing_since")
    with op.batch_alter_table("raw_post_revisions") as batch:
        batch.drop_column("author_id")
        batch.drop_column("author")

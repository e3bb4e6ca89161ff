"""The store's recording of one post before issue 12, for the freeze row's baseline.

What `record_post` did for a post seen again unchanged (the common case at a deadline): its
own transaction, the game row with its whole state JSON, the post row and its latest
revision with their bodies, and a commit.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import select

from engine.store import Store
from engine.store.models import Game, RawPost, RawPostRevision
from forums.records import Post


def record_unchanged_one_by_one(store: Store, game_id: int, post: Post, seen: datetime) -> None:
    with store._sessions.begin() as s:
        s.get(Game, game_id)
        row = s.scalar(
            select(RawPost).where(RawPost.game_id == game_id, RawPost.post_id == post.id)
        )
        assert row is not None
        s.scalar(
            select(RawPostRevision)
            .where(RawPostRevision.raw_post_id == row.id)
            .order_by(RawPostRevision.rev.desc())
            .limit(1)
        )
        row.number, row.url, row.author = post.number, post.url, post.author
        row.last_seen_at = seen

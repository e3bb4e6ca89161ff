"""Scheduled vote count posts: the ruleset's public vote view, posted once per slot of a phase.

A phase's slots fall every `vote_count` interval after it opened, and only before its
deadline. Each slot's post has the marker (game, phase, "vote_count", slot), so a restart
never posts one twice; when the service was down over several slots, only the latest is
posted. A ruleset whose public view is secret (classic's PM votes) gets no post at all.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from engine.publish import make_marker, post_draft
from engine.service.posts import renderer_for
from engine.store import OutboxDraft
from engine.store.models import PhaseRecord

if TYPE_CHECKING:
    from engine.service.driver import GameDriver

log = logging.getLogger("forumgm.vote_count")


def due_slot(
    opened_at: datetime, deadline: datetime, every: timedelta, now: datetime
) -> int | None:
    """The latest slot (1, 2, …) whose time has come and that is before the deadline."""
    if now < opened_at + every:
        return None
    slot = int((min(now, deadline) - opened_at) / every)
    while slot >= 1 and opened_at + slot * every >= deadline:
        slot -= 1  # a slot at or after the deadline is the results post's business
    return slot if slot >= 1 else None


def next_slot_at(
    opened_at: datetime, deadline: datetime, every: timedelta, now: datetime
) -> datetime | None:
    """When the next slot after `now` falls (None: none before the deadline)."""
    slot = max(1, int((now - opened_at) / every) + 1)
    at = opened_at + slot * every
    return at if at < deadline else None


def next_vote_count(driver: GameDriver, ph: PhaseRecord, now: datetime) -> datetime | None:
    """The next moment the runner should wake this game for a vote count post."""
    every = driver.config.vote_count
    if every is None:
        return None
    return next_slot_at(ph.opened_at, ph.deadline, every, now)


def vote_count_draft(driver: GameDriver, ph: PhaseRecord, now: datetime) -> OutboxDraft | None:
    """The vote count post due now, if one is due, not yet queued, and the votes are public."""
    every = driver.config.vote_count
    if every is None:
        return None
    slot = due_slot(ph.opened_at, ph.deadline, every, now)
    if slot is None:
        return None
    marker = make_marker(driver.game_id, ph.phase, "vote_count", slot)
    if driver.store.find_by_marker(marker) is not None:
        return None
    replay = driver.replay(ph, now)
    session = replay.session
    assert session.inputs is not None
    view = driver.ruleset.vote_view(session.state, session.inputs, public=True)
    if view.secret:
        log.debug("game %s: %s votes are secret; no vote count post", driver.game_id, ph.phase)
        return None
    body = renderer_for(driver, "vote_count").render_post(
        "vote_count",
        phase=view.phase,
        votes=view.votes,
        totals=view.totals,
        not_voting=view.not_voting,
        leader=view.leader,
        majority=view.majority,
        at=now,
        slot=slot,
    )
    return post_draft(body, marker)

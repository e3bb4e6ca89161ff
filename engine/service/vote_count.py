"""Scheduled vote count posts: the ruleset's public vote view, posted once per slot of a phase.

A phase's slots fall every `vote_count` interval after it opened, and only before its
deadline. Each slot's post has the marker (game, phase, "vote_count", slot), so a restart
never posts one twice; when the service was down over several slots, only the latest is
posted. A ruleset whose public view is secret (classic's PM votes) gets no post at all.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime, timedelta

from engine.core.ruleset import Ruleset
from engine.publish import Markers, post_draft
from engine.render import Renderer
from engine.service.posts import renderer_for
from engine.service.replay import Replay
from engine.store import OutboxDraft
from engine.store.models import PhaseRecord

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


def next_vote_count(every: timedelta | None, ph: PhaseRecord, now: datetime) -> datetime | None:
    """The next moment the runner should wake a game (`[game] vote_count` = `every`)."""
    if every is None:
        return None
    return next_slot_at(ph.opened_at, ph.deadline, every, now)


def vote_count_draft(
    markers: Markers,
    ph: PhaseRecord,
    now: datetime,
    *,
    every: timedelta | None,
    ruleset: Ruleset,
    renderer: Renderer,
    taken: Callable[[str], bool],
    replay: Callable[[PhaseRecord, datetime], Replay],
    footer: Callable[[], str] | None = None,
) -> OutboxDraft | None:
    """The vote count post due now, if one is due, its marker not `taken`, and the votes are
    public; `replay` reads the phase as of a moment (the driver's); `footer` gives a last
    line (each player's posts, `[activity] in_vote_count`)."""
    if every is None:
        return None
    slot = due_slot(ph.opened_at, ph.deadline, every, now)
    if slot is None:
        return None
    marker = markers.make(ph.phase, "vote_count", slot)
    if taken(marker):
        return None
    session = replay(ph, now).session
    assert session.inputs is not None
    view = ruleset.vote_view(session.state, session.inputs, public=True)
    if view.secret:
        log.debug("game %s: %s votes are secret; no vote count post", markers.game_id, ph.phase)
        return None
    body = renderer_for(renderer, "vote_count").render_post(
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
    if footer is not None:
        body = f"{body.rstrip()}\n\n{footer()}"
    return post_draft(body, marker)

"""Events, resolution bookkeeping and the outbox lifecycle draft → approved → posted."""

from __future__ import annotations

import pytest
from sqlalchemy.exc import IntegrityError

from engine.core import Audience, Event
from engine.store import (
    InvalidTransition,
    MarkerTaken,
    NotFound,
    OutboxDraft,
    OutboxKind,
    OutboxStatus,
    PhaseStatus,
    Store,
)
from engine.store.models import Game, OutboxItem

from .conftest import make_phase, make_state

EVENTS = [
    Event.public("death", player="Петя", cause="lynch"),
    Event.private(["Маша", "Вася"], "check_result", target="Петя", result="mafia"),
    Event.host("anonymous_sender", sender="Вася"),
]
RESULTS = OutboxDraft(OutboxKind.POST, "[b]Итоги дня 1[/b]", "fgm:1:day1:results")
CHECK = OutboxDraft(OutboxKind.PM, "Петя — мафия", "fgm:1:day1:pm:Маша", ("Маша",), "Проверка")


@pytest.fixture
def phased(store: Store, game: Game) -> Game:
    store.open_phase(game.id, make_phase(), make_state())
    return game


def test_events_round_trip(store: Store, phased: Game) -> None:
    store.save_events(phased.id, "day 1", EVENTS)
    assert store.events(phased.id, "day 1") == EVENTS
    assert store.events(phased.id, "day 1", audience=Audience.PRIVATE) == [EVENTS[1]]
    store.save_events(phased.id, "day 1", EVENTS[:1])
    assert store.events(phased.id, "day 1") == EVENTS[:1]


def test_resolve_then_publish(store: Store, phased: Game) -> None:
    after = make_state()
    after.player("Петя").fields["alive"] = False
    store.resolve_phase(phased.id, "day 1", EVENTS, after)
    store.resolve_phase(phased.id, "day 1", EVENTS[:2], after)  # again, after a host fix
    assert store.events(phased.id, "day 1") == EVENTS[:2]
    row = store.publish_phase(phased.id, "day 1")
    assert row.status is PhaseStatus.PUBLISHED and row.published_at is not None
    with pytest.raises(InvalidTransition):
        store.resolve_phase(phased.id, "day 1", [], after)
    with pytest.raises(InvalidTransition):
        store.publish_phase(phased.id, "day 1")


def test_outbox_item_round_trip(store: Store, phased: Game) -> None:
    [item] = store.enqueue(phased.id, "day 1", [CHECK])
    loaded = store.find_by_marker(CHECK.marker)
    assert loaded is not None and loaded.id == item.id
    assert (loaded.kind, loaded.recipients, loaded.subject, loaded.bbcode) == (
        OutboxKind.PM,
        ["Маша"],
        "Проверка",
        "Петя — мафия",
    )
    assert (loaded.status, loaded.attempts, loaded.board_id) == (OutboxStatus.DRAFT, 0, None)
    assert loaded.created_at.tzinfo is not None
    assert store.find_by_marker("nope") is None


def test_draft_approved_posted(store: Store, phased: Game) -> None:
    store.enqueue(phased.id, "day 1", [RESULTS, CHECK])
    assert store.pending() == []
    approved = store.approve(phased.id, "day 1")
    assert [i.marker for i in approved] == [RESULTS.marker, CHECK.marker]
    assert [i.marker for i in store.pending(phased.id)] == [RESULTS.marker, CHECK.marker]
    posted = store.mark_posted(RESULTS.marker, "p5001")
    assert (posted.status, posted.board_id, posted.attempts) == (OutboxStatus.POSTED, "p5001", 1)
    assert posted.posted_at is not None
    # A restarted publisher confirming the same post again changes nothing.
    assert store.mark_posted(RESULTS.marker, "p5001").attempts == 1
    with pytest.raises(InvalidTransition):
        store.mark_posted(RESULTS.marker, "p5002")
    assert [i.marker for i in store.pending()] == [CHECK.marker]


def test_failures_are_retried_until_out_of_attempts(store: Store, phased: Game) -> None:
    store.enqueue(phased.id, "day 1", [CHECK])
    store.approve(phased.id, "day 1")
    failed = store.mark_failed(CHECK.marker, "FloodControl(retry_after=30)")
    assert (failed.status, failed.attempts, failed.last_error) == (
        OutboxStatus.FAILED,
        1,
        "FloodControl(retry_after=30)",
    )
    assert [i.marker for i in store.pending()] == [CHECK.marker]
    store.mark_failed(CHECK.marker, "again")
    assert store.pending(max_attempts=2) == []
    assert store.mark_posted(CHECK.marker, "pm77").status is OutboxStatus.POSTED


def test_drafts_cannot_be_posted_or_failed(store: Store, phased: Game) -> None:
    store.enqueue(phased.id, "day 1", [RESULTS])
    with pytest.raises(InvalidTransition):
        store.mark_posted(RESULTS.marker, "p1")
    with pytest.raises(InvalidTransition):
        store.mark_failed(RESULTS.marker, "x")
    with pytest.raises(NotFound):
        store.mark_posted("unknown", "p1")


def test_markers_are_unique(store: Store, phased: Game) -> None:
    store.enqueue(phased.id, "day 1", [RESULTS])
    # Re-rendering before approval replaces the draft under the same marker.
    store.enqueue(phased.id, "day 1", [OutboxDraft(OutboxKind.POST, "v2", RESULTS.marker)])
    [item] = store.outbox(phased.id)
    assert item.bbcode == "v2"
    store.approve(phased.id, "day 1")
    with pytest.raises(MarkerTaken):
        store.enqueue(phased.id, "day 1", [RESULTS])
    with pytest.raises(IntegrityError), store._sessions.begin() as s:
        s.add(
            OutboxItem(
                game_id=phased.id,
                kind=OutboxKind.POST,
                recipients=[],
                bbcode="x",
                marker=RESULTS.marker,
            )
        )


def test_items_without_a_phase(store: Store, game: Game) -> None:
    store.enqueue(
        game.id, None, [OutboxDraft(OutboxKind.PM, "Ваша роль: доктор", "fgm:1:role:Маша")]
    )
    assert [i.marker for i in store.approve(game.id, None)] == ["fgm:1:role:Маша"]

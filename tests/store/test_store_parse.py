"""Parse results: stored per phase, replaced whole on re-parse, host overrides kept."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta

import pytest

from engine.core import Channel, Order, OrderKind, ParseWarning, Source
from engine.store import NotFound, OrderStatus, Store, StoredOrder
from engine.store.models import Game

from .conftest import T0, make_phase, make_state


def _vote(player: str, target: str, post_id: str, line: int = 1) -> Order:
    src = Source(
        Channel.THREAD, post_id, f"https://forum.example/p{post_id}", line, f"голос {target}"
    )
    return Order(
        player,
        OrderKind.VOTE,
        targets=(target,),
        channel=Channel.THREAD,
        at=T0 + timedelta(hours=2),
        source=src,
        form="canonical",
    )


HEAL = Order(
    "Маша",
    OrderKind.ORDER,
    action="heal",
    targets=("Петя",),
    args={"note": "ночью"},
    channel=Channel.PM,
    at=T0 + timedelta(hours=3),
    source=Source(Channel.PM, "m7", None, 2, "лечу Петю"),
    candidates=("heal", "protect"),
)
TYPO = ParseWarning(
    "unknown_target",
    "«Пеття» is not on the roster",
    player="Вася",
    source=Source(Channel.THREAD, "p9", None, 1, "голос Пеття"),
    choices=("Петя",),
)


@pytest.fixture
def phased(store: Store, game: Game) -> Game:
    store.open_phase(game.id, make_phase(), make_state())
    return game


def test_orders_and_warnings_round_trip(store: Store, phased: Game) -> None:
    rejected = Order("Петя", OrderKind.NO_LYNCH, channel=Channel.PM)
    store.save_parse(
        phased.id,
        "day 1",
        [_vote("Вася", "Петя", "p1"), HEAL, StoredOrder(rejected, OrderStatus.REJECTED)],
        [TYPO, ParseWarning("late", "after the deadline")],
    )
    stored = store.parsed_orders(phased.id, "day 1")
    assert [s.order for s in stored] == [_vote("Вася", "Петя", "p1"), HEAL, rejected]
    assert [s.status for s in stored] == [OrderStatus.ACCEPTED] * 2 + [OrderStatus.REJECTED]
    assert all(s.id is not None for s in stored)
    assert stored[0].order.at is not None and stored[0].order.at.tzinfo is not None
    accepted = store.parsed_orders(phased.id, "day 1", status=OrderStatus.ACCEPTED)
    assert len(accepted) == 2
    warnings = store.parse_warnings(phased.id, "day 1")
    assert [w.warning for w in warnings] == [TYPO, ParseWarning("late", "after the deadline")]
    assert not any(w.resolved_by_host for w in warnings)


def test_reparse_replaces_the_previous_results(store: Store, phased: Game) -> None:
    store.save_parse(phased.id, "day 1", [_vote("Вася", "Петя", "p1"), HEAL], [TYPO])
    store.save_parse(phased.id, "day 1", [_vote("Вася", "Маша", "p1")], [])
    assert [s.order.targets for s in store.parsed_orders(phased.id, "day 1")] == [("Маша",)]
    assert store.parse_warnings(phased.id, "day 1") == []


def test_phases_keep_their_own_results(store: Store, phased: Game) -> None:
    store.open_phase(phased.id, make_phase("night 1", T0 + timedelta(days=1)), make_state())
    store.save_parse(phased.id, "day 1", [_vote("Вася", "Петя", "p1")], [])
    store.save_parse(phased.id, "night 1", [HEAL], [])
    store.save_parse(phased.id, "night 1", [], [])
    assert len(store.parsed_orders(phased.id, "day 1")) == 1
    assert store.parsed_orders(phased.id, "night 1") == []


def test_a_failed_reparse_leaves_the_old_results(store: Store, phased: Game) -> None:
    store.save_parse(phased.id, "day 1", [HEAL], [TYPO])

    def crashing_parser() -> Iterator[Order]:
        yield _vote("Вася", "Петя", "p1")
        raise RuntimeError("parser crashed")

    with pytest.raises(RuntimeError):
        store.save_parse(phased.id, "day 1", crashing_parser(), [])
    assert [s.order for s in store.parsed_orders(phased.id, "day 1")] == [HEAL]


def test_host_fix_of_a_warning_survives_a_reparse(store: Store, phased: Game) -> None:
    store.save_parse(phased.id, "day 1", [], [TYPO])
    [warning] = store.parse_warnings(phased.id, "day 1")
    override = store.fix_warning(warning.id, "Петя", by="host")
    assert override.by == "host" and override.at.tzinfo is not None
    store.save_parse(phased.id, "day 1", [], [TYPO])
    [again] = store.parse_warnings(phased.id, "day 1")
    assert again.resolved_by_host and again.fix == "Петя"
    assert store.parse_warnings(phased.id, "day 1", unresolved_only=True) == []


def test_only_unsettled_warnings_that_are_no_notes_wait_for_the_host(
    store: Store, phased: Game
) -> None:
    note = ParseWarning("early", "sent before the start; counted", accepted=True)
    store.save_parse(phased.id, "day 1", [], [TYPO, note, ParseWarning("late", "too late")])
    assert store.count_waiting_warnings(phased.id, "day 1") == 2
    typo = next(w for w in store.parse_warnings(phased.id, "day 1") if w.warning == TYPO)
    store.fix_warning(typo.id, "Петя", by="host")
    assert store.count_waiting_warnings(phased.id, "day 1") == 1


def test_order_overrides_decide_the_effective_orders(store: Store, phased: Game) -> None:
    vote = _vote("Вася", "Петя", "p1")
    store.save_parse(phased.id, "day 1", [vote, HEAL], [])
    first, heal = store.parsed_orders(phased.id, "day 1")
    assert first.id is not None and heal.id is not None
    fixed = vote.with_(targets=("Маша",))
    store.override_order(first.id, fixed, by="host")
    store.override_order(heal.id, None, by="host")
    assert store.effective_orders(phased.id, "day 1") == [fixed]
    # Re-reading the same posts keeps the host's decisions.
    store.save_parse(phased.id, "day 1", [vote, HEAL], [])
    statuses = [s.status for s in store.parsed_orders(phased.id, "day 1")]
    assert statuses == [OrderStatus.OVERRIDDEN, OrderStatus.OVERRIDDEN]
    assert store.effective_orders(phased.id, "day 1") == [fixed]
    assert len(store.overrides(phased.id, "day 1")) == 2


def test_overrides_of_missing_rows_are_refused(store: Store, phased: Game) -> None:
    with pytest.raises(NotFound):
        store.override_order(999, None, by="host")
    with pytest.raises(NotFound):
        store.fix_warning(999, "x", by="host")


def test_ids_stay_with_what_was_read_from_the_same_place(store: Store, phased: Game) -> None:
    """A host reads `#3` and fixes `#3` after the phase was read again (another game's rows
    came in between): the same warning and order keep their ids, new ones get new ids."""
    store.open_phase(phased.id, make_phase("night 1", T0 + timedelta(days=1)), make_state())
    late = ParseWarning("unknown_target", "«Машка»?", "Оля", Source(Channel.PM, "m9", None, 1, "x"))
    vote = _vote("Вася", "Петя", "p1")
    store.save_parse(phased.id, "day 1", [vote, HEAL], [TYPO, late])
    before = {s.warning: s.id for s in store.parse_warnings(phased.id, "day 1")}
    orders = {s.order.player: s.id for s in store.parsed_orders(phased.id, "day 1")}
    store.save_parse(phased.id, "night 1", [HEAL], [TYPO, late])  # rows of another phase
    gone = ParseWarning("late", "after the deadline", "Коля", Source(Channel.PM, "m1", None, 1))
    store.save_parse(phased.id, "day 1", [HEAL, vote], [gone, late, TYPO])
    after = {s.warning: s.id for s in store.parse_warnings(phased.id, "day 1")}
    assert after[TYPO] == before[TYPO] and after[late] == before[late]
    assert after[gone] not in before.values()
    assert {s.order.player: s.id for s in store.parsed_orders(phased.id, "day 1")} == orders
    store.append_parse(phased.id, "day 1", [], [TYPO], after=(2, 2))  # a poll cut short
    assert {s.warning: s.id for s in store.parse_warnings(phased.id, "day 1")}[TYPO] == after[TYPO]

"""Boards, games, players, state and phases round-trip through the store."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest

from engine.core import GameState, PhaseId
from engine.store import GameStatus, InvalidTransition, NotFound, PhaseStatus, Store, StoreError
from engine.store.models import Game

from .conftest import T0, make_phase, make_state

MSK = timezone(timedelta(hours=3))


def test_board_and_game_round_trip(store: Store, game: Game) -> None:
    board = store.get_board(game.board_id)
    assert (board.engine, board.base_url, board.gm_user) == ("phpbb", "https://forum.example", "GM")
    assert board.credentials_ref == "env:FORUMGM_GM_PASSWORD"
    loaded = store.get_game(game.id)
    assert (loaded.thread_id, loaded.ruleset, loaded.seed) == ("1234", "classic", 42)
    assert loaded.options == {"hp": 3}
    assert (loaded.language, loaded.time_zone, loaded.status) == (
        "ru",
        "Europe/Moscow",
        GameStatus.SETUP,
    )
    assert loaded.created_at.tzinfo is not None
    assert store.find_game(game.board_id, "1234") is not None
    assert store.find_game(game.board_id, "999") is None
    with pytest.raises(NotFound):
        store.get_game(game.id + 100)


def test_state_round_trips_exactly_and_mirrors_players(store: Store, game: Game) -> None:
    assert store.load_state(game.id) is None
    for name in ("Вася", "Петя", "Маша"):
        store.add_player(game.id, name)
    state = make_state()
    state.player("Петя").fields["alive"] = False
    state.data["night_kills"] = ["Петя"]
    store.save_state(game.id, state, in_play=["Вася"])
    loaded = store.load_state(game.id)
    assert loaded is not None
    assert loaded.to_json() == state.to_json()
    flags = {p.name: (p.seat, p.alive, p.in_play, p.role) for p in store.players(game.id)}
    assert flags == {
        "Вася": (1, True, True, "citizen"),
        "Петя": (2, False, False, "citizen"),
        "Маша": (3, True, False, "citizen"),
    }


def test_a_finished_state_leaves_finishing_to_the_driver(store: Store, game: Game) -> None:
    """The last results may still wait for the host: the game runs until they are out."""
    store.set_game_status(game.id, GameStatus.RUNNING)
    state = make_state()
    state.finished, state.winner = True, "town"
    store.save_state(game.id, state)
    assert store.get_game(game.id).status is GameStatus.RUNNING
    store.set_game_status(game.id, GameStatus.FINISHED)
    assert store.get_game(game.id).status is GameStatus.FINISHED


def test_substitute_takes_the_seat(store: Store, game: Game) -> None:
    store.add_player(game.id, "Вася", board_user_id="11", role="doctor", faction="town")
    store.add_player(game.id, "Петя", board_user_id="12")
    sub = store.replace_player(game.id, "Вася", "Коля", board_user_id="13")
    assert (sub.seat, sub.role, sub.faction) == (1, "doctor", "town")
    assert [p.name for p in store.players(game.id)] == ["Коля", "Петя"]
    everyone = store.players(game.id, include_replaced=True)
    old = next(p for p in everyone if p.name == "Вася")
    assert old.replaced_by == sub.id and old.since is None and sub.since is not None


def test_replacing_a_former_holder_extends_the_chain(store: Store, game: Game) -> None:
    store.add_player(game.id, "Вася", role="doctor")
    first = store.replace_player(game.id, "Вася", "Коля", at=datetime(2026, 3, 2, tzinfo=UTC))
    second = store.replace_player(game.id, "Вася", "Лёша", at=datetime(2026, 3, 3, tzinfo=UTC))
    rows = {p.name: p for p in store.players(game.id, include_replaced=True)}
    assert rows["Коля"].replaced_by == second.id and rows["Вася"].replaced_by == first.id
    assert (second.seat, second.role, second.since) == (
        1,
        "doctor",
        datetime(2026, 3, 3, tzinfo=UTC),
    )
    with pytest.raises(StoreError, match="already plays"):
        store.replace_player(game.id, "Лёша", "Коля")


def test_aware_datetimes_round_trip_as_utc(store: Store, game: Game) -> None:
    opened = datetime(2026, 3, 1, 19, 0, tzinfo=MSK)
    phase = make_phase("night 1", opened, hours=12)
    store.open_phase(game.id, phase, make_state())
    row = store.get_phase(game.id, "night 1")
    assert row.opened_at == opened and row.opened_at.tzinfo is UTC
    assert row.deadline == opened + timedelta(hours=12)
    assert row.deadline.hour == 4  # 07:00 Moscow is 04:00 UTC


def test_naive_datetimes_are_refused(store: Store, game: Game) -> None:
    store.open_phase(game.id, make_phase(), make_state())
    with pytest.raises(Exception, match="naive datetime"):
        store.freeze_phase(game.id, "day 1", at=datetime(2026, 3, 2, 16, 0))


def test_phase_lifecycle(store: Store, game: Game) -> None:
    state = make_state()
    row = store.open_phase(game.id, make_phase(), state)
    assert row.status is PhaseStatus.OPEN and row.state_before == state.to_json()
    assert store.get_game(game.id).status is GameStatus.RUNNING
    store.open_phase(game.id, make_phase("night 1", T0 + timedelta(days=1)), state)
    assert [p.phase for p in store.phases(game.id)] == ["day 1", "night 1"]
    current = store.current_phase(game.id)
    assert current is not None and current.phase == "night 1"
    frozen = store.freeze_phase(game.id, PhaseId("day", 1), at=T0 + timedelta(hours=24))
    assert frozen.status is PhaseStatus.FROZEN and frozen.frozen_at == T0 + timedelta(hours=24)
    with pytest.raises(InvalidTransition):
        store.freeze_phase(game.id, "day 1")
    with pytest.raises(NotFound):
        store.get_phase(game.id, "day 7")


def test_state_after_resolution_is_kept_per_phase(store: Store, game: Game) -> None:
    before = make_state()
    store.open_phase(game.id, make_phase(), before)
    after: GameState = before.copy()
    after.player("Маша").fields["alive"] = False
    store.resolve_phase(game.id, "day 1", [], after)
    row = store.get_phase(game.id, "day 1")
    assert row.status is PhaseStatus.RESOLVED
    assert row.state_before == before.to_json() and row.state_after == after.to_json()
    loaded = store.load_state(game.id)
    assert loaded is not None and loaded.to_json() == after.to_json()

"""The stored random stream: a restored stream draws exactly what the stored state would, and a
phase that draws nothing stores back the very state it started from."""

from __future__ import annotations

import copy
import pickle
import random
from collections.abc import Callable
from typing import Any

import pytest

from engine.core import rng as rngmod
from engine.core.model import GameState, PlayerState

STATE = rngmod.new_rng_state(42)


def _plain() -> random.Random:
    r = random.Random()
    version, internal, gauss = STATE
    r.setstate((version, tuple(internal), gauss))
    return r


DRAWS: dict[str, Callable[[random.Random], Any]] = {
    "nothing": lambda r: None,
    "random": lambda r: r.random(),
    "choice": lambda r: r.choice(range(100)),
    "shuffle": lambda r: (lambda x: (r.shuffle(x), x)[1])(list(range(20))),
    "sample": lambda r: r.sample(range(50), 5),
    "choices": lambda r: r.choices(range(9), [1, 2, 3, 1, 1, 1, 1, 1, 1], k=4),
    "randint": lambda r: r.randint(1, 10**30),
    "uniform": lambda r: r.uniform(0, 1),
    "gauss twice": lambda r: (r.gauss(), r.gauss()),
    "getstate": lambda r: r.getstate(),
    "randbytes": lambda r: r.randbytes(7),
}


@pytest.mark.parametrize("draw", list(DRAWS))
def test_a_restored_stream_is_the_stored_generator(draw: str) -> None:
    restored, plain = rngmod.restore(STATE), _plain()
    assert DRAWS[draw](restored) == DRAWS[draw](plain)
    assert rngmod.snapshot(restored) == rngmod.snapshot(plain)
    assert [restored.random() for _ in range(3)] == [plain.random() for _ in range(3)]
    assert rngmod.snapshot(restored) == rngmod.snapshot(plain)


def test_seed_and_setstate_replace_a_pending_state() -> None:
    restored = rngmod.restore(STATE)
    restored.seed(7)
    assert restored.random() == random.Random(7).random()
    other = rngmod.new_rng_state(9)
    restored = rngmod.restore(STATE)
    restored.setstate((other[0], tuple(other[1]), other[2]))
    assert rngmod.snapshot(restored) == other


def test_a_stream_that_drew_nothing_gives_back_its_state_untouched_by_later_changes() -> None:
    state = copy.deepcopy(STATE)
    restored = rngmod.restore(state)
    state[1][0] = 12345  # the caller's list changes: the stream kept its own copy
    assert rngmod.snapshot(restored) == STATE
    assert rngmod.snapshot(restored) is not rngmod.snapshot(restored)  # a fresh list each time


def test_a_state_copy_is_deep_for_plain_data_and_leaves_the_original_alone() -> None:
    state = GameState(
        "classic",
        {"roles": {"mafioso": 2}, "layout": ["a", "b"]},
        [PlayerState("Вася", "doctor", "town", {"alive": True, "spent": ["heal"], "k": (1, [2])})],
        rng=copy.deepcopy(STATE),
        data={"swaps": [{"a": 1}], "kept": {1, 2}},
    )
    twin = state.copy()
    assert twin == state
    twin.options["roles"]["mafioso"] = 3
    twin.options["layout"].append("c")
    twin.players[0].fields["spent"].append("x")
    twin.players[0].fields["k"][1].append(3)
    twin.rng[1][0] = 0
    twin.data["swaps"][0]["a"] = 2
    twin.data["kept"].add(3)
    assert state.options == {"roles": {"mafioso": 2}, "layout": ["a", "b"]}
    assert state.players[0].fields == {"alive": True, "spent": ["heal"], "k": (1, [2])}
    assert state.rng == STATE
    assert state.data == {"swaps": [{"a": 1}], "kept": {1, 2}}


def test_a_kept_generator_reads_as_its_snapshot_and_is_handed_over_once() -> None:
    state = GameState("classic", {}, [PlayerState("Вася")])
    assert state.rng == rngmod.new_rng_state(0)  # the default stream, made when read
    generator = _plain()
    generator.random()
    state.keep(generator)
    twin = state.copy()  # reads the stream: written out now, the copy is on its own
    assert state.rng == twin.rng == rngmod.snapshot(generator)
    plain = _plain()
    plain.random()
    drawing = state.stream()
    assert drawing.random() == plain.random()
    state.keep(drawing)
    assert state.stream() is drawing  # what the last phase left is drawn on, not reloaded
    with pytest.raises(RuntimeError, match="being drawn from"):
        _ = state.rng  # handed over and not kept: no old stream passes for the current one
    state.keep(drawing)
    assert state.rng == rngmod.snapshot(plain)
    behind = _plain()
    behind.random()
    assert twin.stream().random() == behind.random()  # the copy did not move with it
    state.rng = copy.deepcopy(STATE)  # a stored stream replaces a kept one
    assert state.rng == STATE and state.stream() is not drawing


def test_a_state_copied_or_pickled_keeps_its_stream_whatever_form_it_is_kept_in() -> None:
    fresh = GameState("classic", {}, [PlayerState("Вася")])  # the default stream, not yet made
    kept = GameState("classic", {}, [PlayerState("Вася")])
    generator = _plain()
    generator.random()
    kept.keep(generator)
    for state in (fresh, kept):
        expected = rngmod.snapshot(generator) if state is kept else rngmod.new_rng_state(0)
        for twin in (copy.deepcopy(state), pickle.loads(pickle.dumps(state))):
            assert twin.rng == expected
    taken = GameState("classic", {}, [PlayerState("Вася")])
    taken.keep(_plain())
    taken.stream()
    with pytest.raises(RuntimeError, match="being drawn from"):
        _ = copy.deepcopy(taken).rng

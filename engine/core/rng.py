"""The game's seeded random stream, kept in the game state so every phase replays exactly."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, TypeVar

T = TypeVar("T")

RngState = list[Any]
"""`random.Random.getstate()` as JSON-friendly lists."""


def new_rng_state(seed: int) -> RngState:
    return _to_json(random.Random(seed).getstate())


def restore(state: RngState) -> random.Random:
    # Not random.Random(): that seeds itself from the OS first (most of this call's cost, once
    # per phase), and setstate() below replaces every bit of what seeding would set.
    rng = random.Random.__new__(random.Random)
    version, internal, gauss = state
    rng.setstate((version, tuple(internal), gauss))
    return rng


def snapshot(rng: random.Random) -> RngState:
    return _to_json(rng.getstate())


def _to_json(state: tuple[Any, ...]) -> RngState:
    version, internal, gauss = state
    return [version, list(internal), gauss]


def choice(rng: random.Random, options: Sequence[T]) -> T:
    """Pick one option; draws from the stream only when there is a real choice."""
    if not options:
        raise ValueError("choice from no options")
    if len(options) == 1:
        return options[0]
    return rng.choice(list(options))

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


class _Stream(random.Random):
    """A stream restored from a stored state, loaded only when it is first used.

    Most phases draw nothing (a vote with one leader, no peek among several attackers); such
    a phase then costs neither loading the generator's 625 words nor reading them back:
    `snapshot` hands back the state it was restored from. Every draw of random.Random goes
    through `random()`, `getrandbits()` or `gauss()`'s kept value, and `seed`, `setstate`
    and `getstate` are the other calls that touch the state, so these load it first. A
    stream that has loaded and drawn is an ordinary generator.
    """

    gauss_next: float | None  # random.Random's own attribute, which typeshed leaves out
    _pending: tuple[Any, ...] | None = None
    """The state to load before the first use."""
    _source: tuple[Any, ...] | None = None
    """The state it was restored from, while nothing has been drawn."""

    def _load(self) -> None:
        pending = self._pending
        if pending is not None:
            self._pending = None
            random.Random.setstate(self, pending)

    def random(self) -> float:
        if self._source is not None:
            self._load()
            self._source = None
        return super().random()

    def getrandbits(self, k: int, /) -> int:
        if self._source is not None:
            self._load()
            self._source = None
        return super().getrandbits(k)

    def gauss(self, mu: float = 0.0, sigma: float = 1.0) -> float:
        self._load()
        self._source = None
        return super().gauss(mu, sigma)

    def seed(self, *args: Any, **kwargs: Any) -> None:
        self._pending = self._source = None
        super().seed(*args, **kwargs)

    def setstate(self, state: tuple[Any, ...]) -> None:
        self._pending = self._source = None
        super().setstate(state)

    def getstate(self) -> tuple[Any, ...]:
        self._load()
        return super().getstate()


def restore(state: RngState) -> random.Random:
    version, internal, gauss = state
    frozen = (version, tuple(internal), gauss)
    rng = _Stream.__new__(_Stream)  # not _Stream(): that would seed from the OS first
    rng._pending = rng._source = frozen
    rng.gauss_next = gauss
    return rng


def snapshot(rng: random.Random) -> RngState:
    source = getattr(rng, "_source", None)
    if source is not None:  # restored and nothing drawn since: the same state
        return [source[0], list(source[1]), source[2]]
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

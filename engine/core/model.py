"""The game model: players in seating order, their state, the phase, the RNG and the winner."""

from __future__ import annotations

import copy
import random
from dataclasses import dataclass, field
from typing import Any

from engine.core import rng as rngmod
from engine.core.phases import PhaseId
from engine.core.rng import RngState, new_rng_state


@dataclass
class PlayerState:
    """One player slot. `fields` holds the ruleset's per-player state (alive, free, hp, …)."""

    name: str
    role: str | None = None
    faction: str | None = None
    fields: dict[str, Any] = field(default_factory=dict)

    def get(self, key: str, default: Any = None) -> Any:
        if key == "role":
            return self.role
        if key == "faction":
            return self.faction
        return self.fields.get(key, default)


class _Mark:
    """A marker in a state's stream slot that a copy or a pickle keeps as the same object."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __reduce__(self) -> str:
        return self.name  # copy.deepcopy keeps it; pickle finds it by this module's name

    def __repr__(self) -> str:
        return self.name


_SEED_ZERO: Any = _Mark("_SEED_ZERO")
"""GameState's default stream (seed 0), made only if it is read."""
_TAKEN: Any = _Mark("_TAKEN")
"""The stream is out being drawn from (`GameState.stream`) and not yet kept again."""


class _StoredStream:
    """`GameState.rng`: the stored random stream as JSON-friendly lists, or the generator a
    resolution left it in, turned into those lists only when someone reads them.

    A resolution draws from the stream (`GameState.stream`) and gives the generator back
    (`GameState.keep`); the next phase draws on from the same generator. Reading `rng`
    (storing the state, copying it, comparing it) snapshots the generator then: the lists
    read are the ones a snapshot after every phase would have stored. A simulated game thus
    never writes out and reloads the generator's 625 words between its phases.
    """

    def __get__(self, obj: GameState | None, owner: type | None = None) -> RngState:
        if obj is None:
            return _SEED_ZERO  # the dataclass's default
        kept = obj.__dict__
        live = kept.get("_live")
        if live is not None:
            kept["_rng"], kept["_live"] = rngmod.snapshot(live), None
        stored = kept["_rng"]
        if stored is _SEED_ZERO:
            stored = kept["_rng"] = new_rng_state(0)
        elif stored is _TAKEN:
            raise RuntimeError("the game's random stream is being drawn from: keep it first")
        return stored

    def __set__(self, obj: GameState, value: RngState) -> None:
        obj.__dict__["_rng"], obj.__dict__["_live"] = value, None


@dataclass
class GameState:
    """Everything resolution needs besides the phase's orders. Plain data, JSON-serialisable."""

    ruleset: str
    options: dict[str, Any]
    players: list[PlayerState]
    phase: PhaseId | None = None
    rng: _StoredStream = _StoredStream()
    """Reads and takes `RngState` (the descriptor above)."""
    data: dict[str, Any] = field(default_factory=dict)
    winner: str | None = None
    finished: bool = False

    def stream(self) -> random.Random:
        """The random stream to draw from, as stored (or as the last resolution left it).
        A generator the state kept is handed over: the state has no stream until it is given
        back with `keep` (reading `rng` meanwhile is an error, not an old stream)."""
        kept = self.__dict__
        live: random.Random | None = kept.get("_live")
        if live is None:
            return rngmod.restore(self.rng)
        kept["_rng"], kept["_live"] = _TAKEN, None
        return live

    def keep(self, stream: random.Random) -> None:
        """Store `stream` as the game's random stream: the generator itself, snapshotted
        only when `rng` is read. Whoever keeps a stream draws no more from it."""
        self.__dict__["_live"] = stream

    def player(self, name: str) -> PlayerState:
        for p in self.players:
            if p.name == name:
                return p
        raise KeyError(f"no player named {name!r}")

    def has_player(self, name: str) -> bool:
        # A loop, not any() over a generator (twice the cost): intake asks for every order.
        for p in self.players:  # noqa: SIM110
            if p.name == name:
                return True
        return False

    @property
    def names(self) -> list[str]:
        return [p.name for p in self.players]

    def seat(self, name: str) -> int:
        return self.names.index(name)

    def in_seating_order(self, names: Any) -> list[str]:
        if not names:  # most turns ask for nobody's death, cough or miss
            return []
        wanted = set(names)
        return [p.name for p in self.players if p.name in wanted]

    def copy(self) -> GameState:
        """A deep copy, made for the plain data a state holds (dicts, lists, strings, numbers):
        every phase's resolution starts with one, and `copy.deepcopy` spent most of a simulated
        game walking the RNG's 625 numbers one by one. Anything else is deep-copied as before.
        Shared references are not kept shared (a stored state has none: it is JSON)."""
        return GameState(
            ruleset=self.ruleset,
            options=_plain_copy(self.options),
            players=[
                PlayerState(p.name, p.role, p.faction, _plain_copy(p.fields)) for p in self.players
            ],
            phase=self.phase,
            rng=_rng_copy(self.rng),
            data=_plain_copy(self.data),
            winner=self.winner,
            finished=self.finished,
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "ruleset": self.ruleset,
            "options": copy.deepcopy(self.options),
            "players": [
                {"name": p.name, "role": p.role, "faction": p.faction, **copy.deepcopy(p.fields)}
                for p in self.players
            ],
            "phase": str(self.phase) if self.phase else None,
            "rng": copy.deepcopy(self.rng),
            "data": copy.deepcopy(self.data),
            "winner": self.winner,
            "finished": self.finished,
        }

    @classmethod
    def from_json(cls, raw: dict[str, Any]) -> GameState:
        players = []
        for p in raw["players"]:
            p = dict(p)
            players.append(PlayerState(p.pop("name"), p.pop("role"), p.pop("faction"), p))
        phase = PhaseId.parse(raw["phase"]) if raw.get("phase") else None
        return cls(
            ruleset=raw["ruleset"],
            options=dict(raw["options"]),
            players=players,
            phase=phase,
            rng=raw["rng"],
            data=dict(raw.get("data", {})),
            winner=raw.get("winner"),
            finished=bool(raw.get("finished", False)),
        )


def _rng_copy(state: RngState) -> RngState:
    """The RNG's [version, internal state, gauss]: numbers only, so one list() copies it."""
    if type(state) is list and len(state) == 3 and type(state[1]) is list:
        return [state[0], list(state[1]), state[2]]
    return _plain_copy(state)


_ATOMIC = frozenset({str, int, float, bool, type(None)})


def _plain_copy(value: Any) -> Any:
    """A deep copy of JSON-like data; other objects go through `copy.deepcopy`. A dict or a
    list is copied whole, then the values that are not plain copied in turn (keys are
    hashable, so immutable: they are kept)."""
    kind = type(value)
    if kind in _ATOMIC:
        return value
    if kind is dict:
        out = dict(value)
        for k, v in out.items():
            if type(v) not in _ATOMIC:
                out[k] = _plain_copy(v)
        return out
    if kind is list:
        items = list(value)
        for i, v in enumerate(items):
            if type(v) not in _ATOMIC:
                items[i] = _plain_copy(v)
        return items
    if kind is tuple:
        return tuple(v if type(v) in _ATOMIC else _plain_copy(v) for v in value)
    return copy.deepcopy(value)

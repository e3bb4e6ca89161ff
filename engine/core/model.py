"""The game model: players in seating order, their state, the phase, the RNG and the winner."""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

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


@dataclass
class GameState:
    """Everything resolution needs besides the phase's orders. Plain data, JSON-serialisable."""

    ruleset: str
    options: dict[str, Any]
    players: list[PlayerState]
    phase: PhaseId | None = None
    rng: RngState = field(default_factory=lambda: new_rng_state(0))
    data: dict[str, Any] = field(default_factory=dict)
    winner: str | None = None
    finished: bool = False

    def player(self, name: str) -> PlayerState:
        for p in self.players:
            if p.name == name:
                return p
        raise KeyError(f"no player named {name!r}")

    def has_player(self, name: str) -> bool:
        return any(p.name == name for p in self.players)

    @property
    def names(self) -> list[str]:
        return [p.name for p in self.players]

    def seat(self, name: str) -> int:
        return self.names.index(name)

    def in_seating_order(self, names: Any) -> list[str]:
        wanted = set(names)
        return [n for n in self.names if n in wanted]

    def copy(self) -> GameState:
        return copy.deepcopy(self)

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

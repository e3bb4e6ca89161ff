"""What the steps of one minimafik phase share while it resolves (§8)."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from engine.core.events import Event
from engine.core.model import GameState, PlayerState
from engine.core.ruleset import PhaseInputs, Resolution
from rulesets.minimafik.cards import Collection, Effect
from rulesets.minimafik.state import alive, collection, hand

PENDING = None
"""A slot whose card was played or discarded for replacement this phase (§6.2)."""

Slot = str | None


@dataclass
class Act:
    """One played card side or used ability whose effects resolve at E6."""

    player: str
    effects: tuple[Effect, ...]
    target: str | None
    text: str | None = None
    dark: bool = False
    card: str | None = None
    ability: str | None = None


@dataclass
class Turn(Resolution):
    """The working state of one night, day or draft."""

    coll: Collection = field(default_factory=lambda: collection_placeholder())
    kind: str = ""
    number: int = 0
    alive0: list[str] = field(default_factory=list)
    """Living characters at the deadline (only they act)."""
    orders: dict[str, dict[str, Any]] = field(default_factory=dict)
    """Player → slot → the order's args (with `targets`), as registered by the intake."""
    votes: dict[str, str] = field(default_factory=dict)
    snapshot: dict[str, list[str]] = field(default_factory=dict)
    """Each living hand at the deadline, in the player's order (E2, D-08)."""
    instances: dict[str, list[int]] = field(default_factory=dict)
    """The phase-start instance of each deadline slot (orders name instances, D-33)."""
    slots: dict[str, list[tuple[int, Slot]]] = field(default_factory=dict)
    """The working hand: (instance or -1 for a new card, card id or PENDING)."""
    chosen: dict[str, list[str]] = field(default_factory=dict)
    """Cards a character chose to lose this phase: played first, then by deadline slot."""
    acts: list[Act] = field(default_factory=list)
    damage: Counter[str] = field(default_factory=Counter)
    armor: Counter[str] = field(default_factory=Counter)
    protected: set[str] = field(default_factory=set)
    draws: list[tuple[str, int]] = field(default_factory=list)
    gains: list[tuple[str, int]] = field(default_factory=list)
    changes: list[tuple[str, Effect]] = field(default_factory=list)
    """Card transformations by effects, in seat order of who played them (E11a)."""
    dark_law: list[str] = field(default_factory=list)
    extra_votes: Counter[str] = field(default_factory=Counter)
    immune: set[str] = field(default_factory=set)
    messages: list[Event] = field(default_factory=list)
    kill_target: str | None = None
    kill_damage: int = 0
    points_start: dict[str, int] = field(default_factory=dict)
    beaten_target: str | None = None
    died: list[str] = field(default_factory=list)
    public: list[Event] = field(default_factory=list)
    private: list[Event] = field(default_factory=list)

    @property
    def night(self) -> bool:
        return self.kind == "night"

    def p(self, name: str) -> PlayerState:
        return self.state.player(name)

    def tell(self, to: str, type: str, /, **fields: Any) -> None:
        self.private.append(Event.private(to, type, **fields))

    def announce(self, type: str, /, **fields: Any) -> None:
        self.public.append(Event.public(type, **fields))

    def emit_private(self, to: str, type: str, /, **fields: Any) -> None:
        """A private event that goes out at once (the start-of-phase steps)."""
        self.emit(Event.private(to, type, **fields))

    def cards_of(self, name: str) -> list[str]:
        return [c for _, c in self.slots[name] if c is not None]

    def living(self) -> list[PlayerState]:
        return [p for p in self.state.players if alive(p)]


def collection_placeholder() -> Collection:
    return Collection({})


def new_turn(state: GameState, inputs: PhaseInputs, rng: random.Random) -> Turn:
    turn = Turn(state, inputs, rng)
    turn.coll = collection(state)
    turn.kind = inputs.phase.id.kind
    turn.number = inputs.phase.id.number
    turn.alive0 = [p.name for p in state.players if alive(p)]
    for p in state.players:
        turn.points_start[p.name] = int(p.fields.get("points", 0))
        if alive(p):
            turn.slots[p.name] = [(i, c) for i, c in enumerate(hand(p))]
    return turn

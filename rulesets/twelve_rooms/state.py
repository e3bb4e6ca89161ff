"""Questions about a twelve-rooms game state: rooms, roles held, statuses, protections."""

from __future__ import annotations

from typing import Any

from engine.core.model import GameState, PlayerState
from rulesets.twelve_rooms.roles import (
    ACTIVE,
    MAFIA,
    NEGATIVE,
    POSITIVE,
    ROLES,
    SKILLS,
    TOWN,
    ULTIMATE,
    Role,
)
from rulesets.twelve_rooms.rooms import COCOA, INVERTED, PASS_THROUGH, SAFE, Grid

ROLE_HELD = ("lynch_shield_used", "used_ults", "support_lost", "inherited", "last_targets")
"""State that belongs to the role and moves with it in an Обмен (§6); `offers` and
`reliability_lost` too (the deputy's)."""


def new_role_state() -> dict[str, Any]:
    return {
        "lynch_shield_used": False,
        "used_ults": [],
        "support_lost": False,
        "inherited": [],
        "last_targets": {},
        "offers": [],
        "reliability_lost": False,
    }


def alive(p: PlayerState) -> bool:
    return bool(p.fields.get("alive", True))


def living(state: GameState) -> list[str]:
    return [p.name for p in state.players if alive(p)]


def grid_of(state: GameState) -> Grid:
    return Grid(int(state.options["rows"]), int(state.options["cols"]))


def rooms_of(state: GameState) -> dict[str, dict[str, Any]]:
    rooms: dict[str, dict[str, Any]] = state.data["rooms"]
    return rooms


def room(state: GameState, number: int) -> dict[str, Any]:
    return rooms_of(state)[str(number)]


def room_type(state: GameState, number: int) -> str:
    return str(room(state, number)["type"])


def occupants(state: GameState, number: int) -> list[str]:
    """Living players in the room, in seating order."""
    return [p.name for p in state.players if alive(p) and p.fields["room"] == number]


def role_of(p: PlayerState) -> Role:
    return ROLES[p.role or "citizen"]


def role_state(p: PlayerState) -> dict[str, Any]:
    held: dict[str, Any] = p.fields["role_state"]
    return held


def skills_of(p: PlayerState) -> list[str]:
    """The role's skills plus the deputy's inherited ones."""
    return [*role_of(p).skills, *role_state(p).get("inherited", [])]


def actives_of(p: PlayerState) -> list[str]:
    return [s for s in skills_of(p) if SKILLS[s].kind == ACTIVE]


def has_skill(p: PlayerState, skill: str) -> bool:
    return skill in skills_of(p)


def ult_used(p: PlayerState, skill: str) -> bool:
    return SKILLS[skill].kind == ULTIMATE and skill in role_state(p).get("used_ults", [])


def is_mafia(p: PlayerState) -> bool:
    return p.faction == MAFIA


def is_town(p: PlayerState) -> bool:
    return p.faction == TOWN


def base_status(p: PlayerState) -> str:
    return NEGATIVE if is_mafia(p) else POSITIVE


def effective_status(state: GameState, p: PlayerState, turn: int, where: int | None = None) -> str:
    """Base status, inverted per active Обман (parity) and by the inverted room (§5.2)."""
    flips = sum(1 for until in p.fields.get("deceit_until", []) if int(until) >= turn)
    number = p.fields["room"] if where is None else where
    if room_type(state, number) == INVERTED:
        flips += 1
    status = base_status(p)
    if flips % 2:
        status = NEGATIVE if status == POSITIVE else POSITIVE
    return status


def immune(p: PlayerState, turn: int) -> bool:
    return turn <= int(p.fields.get("immune_until", 0) or 0)


def reliable(p: PlayerState) -> bool:
    """Надежность: the deputy cannot be eliminated except by vote until his first inheritance."""
    return "reliability" in role_of(p).skills and not role_state(p).get("reliability_lost")


def in_cocoa(state: GameState, p: PlayerState) -> bool:
    return room_type(state, int(p.fields["room"])) == COCOA


def passable(state: GameState, number: int) -> bool:
    return room_type(state, number) == PASS_THROUGH


def place(state: GameState, p: PlayerState, number: int) -> None:
    """Put a player in his starting room (§3.5): no entry effects, the room counts as visited."""
    kind = room_type(state, number)
    p.fields["room"] = number
    p.fields["visited_rooms"] = [] if kind == PASS_THROUGH else [number]
    p.fields["vote_weight"] = 1
    p.fields["safe_turns"] = 1 if kind == SAFE else 0
    p.fields["cocoa_lock"] = kind == COCOA

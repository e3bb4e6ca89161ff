"""The roles and skills of «12 комнат» (twelve-rooms.md §6, §12.1), as data."""

from __future__ import annotations

from dataclasses import dataclass

MAFIA, TOWN, NEUTRAL = "mafia", "town", "neutral"
POSITIVE, NEGATIVE = "positive", "negative"
NO_LYNCH = "no_lynch"

ACTIVE, ULTIMATE, PASSIVE = "active", "ultimate", "passive"
"""АС (each turn), УС (once per game), ПС (always on)."""

# What an order of the skill names (§12.2).
NONE, PLAYER, TWO_PLAYERS, I_SAID, ROOM, DOORS = (
    "none",
    "player",
    "two_players",
    "i_said",
    "room",
    "doors",
)

MOVEMENT_STEP = 17


@dataclass(frozen=True)
class Skill:
    """One skill: its kind, the resolution step (§9), what it targets and its limits."""

    id: str
    kind: str
    step: int | None = None
    target: str = NONE
    self_ok: bool = True
    not_twice: bool = False
    """«не может … одного игрока два хода подряд»: not the same target as last turn (§6)."""
    information: bool = False
    """A failed information skill answers `no_result` (§6, D51)."""

    @property
    def after_movement(self) -> bool:
        return self.step is not None and self.step > MOVEMENT_STEP


SKILLS: dict[str, Skill] = {
    s.id: s
    for s in (
        # mafia
        Skill("i_said", ACTIVE, 4, I_SAID),
        Skill("hush", ACTIVE, 5, ROOM),
        Skill("composure", PASSIVE),
        Skill("rest", ACTIVE, 1, PLAYER, not_twice=True),
        Skill("stay_put", ACTIVE, 2, PLAYER, not_twice=True),
        Skill("unnoticed", PASSIVE),
        Skill("swap", ACTIVE, 9, TWO_PLAYERS),
        Skill("deceit", ACTIVE, 10, PLAYER),
        Skill("therapy", ACTIVE, 11, PLAYER, self_ok=False),
        Skill("sow_doubt", ACTIVE, 12, PLAYER),
        Skill("absolution", ULTIMATE, 3),
        Skill("unhurried", PASSIVE),
        Skill("inheritance", PASSIVE),
        Skill("knack", PASSIVE),
        Skill("reliability", PASSIVE),
        # town
        Skill("route", ACTIVE, 21, PLAYER, information=True),
        Skill("door_cameras", ACTIVE, 16, DOORS, information=True),
        Skill("in_shadow", PASSIVE),
        Skill("support", ACTIVE, 8, PLAYER, not_twice=True),
        Skill("injection", ULTIMATE, 14, PLAYER),
        Skill("relax", PASSIVE),
        Skill("guise", ACTIVE, 15, PLAYER, information=True),
        Skill("who_is_here", ACTIVE, 19, ROOM, information=True),
        Skill("acquaintance", ULTIMATE, 7),
        Skill("prudence", PASSIVE),
        Skill("papers", ACTIVE, 18, TWO_PLAYERS, self_ok=False, information=True),
        Skill("interrogation", ACTIVE, 20, PLAYER, information=True),
    )
}

TURN_ACTIONS = frozenset({"move", "vote", "mafkill", "use_vest", "inherit"} | set(SKILLS))
"""Components of a turn submission (§2.2): they set the submission time."""

REQUESTS = frozenset({"guess_room", "submit_map", "anon", "start_room"})
"""Orders outside the turn: they never change the submission time."""


@dataclass(frozen=True)
class Role:
    id: str
    faction: str
    skills: tuple[str, ...]
    """In the seed's order: АС1, АС2, УС, ПС…"""
    max_active: int | None = 1
    """АС per turn (None: any number, «Сноровка»)."""

    @property
    def actives(self) -> tuple[str, ...]:
        return tuple(s for s in self.skills if SKILLS[s].kind == ACTIVE)


ROLES: dict[str, Role] = {
    r.id: r
    for r in (
        Role("manager", MAFIA, ("i_said", "hush", "composure")),
        Role("guarantor", MAFIA, ("rest", "stay_put", "unnoticed")),
        Role("executor", MAFIA, ("swap", "deceit")),
        Role("minister", MAFIA, ("therapy", "sow_doubt", "absolution", "unhurried"), 2),
        Role("deputy", MAFIA, ("inheritance", "knack", "reliability"), None),
        Role("observer", TOWN, ("route", "door_cameras", "in_shadow")),
        Role("savior", TOWN, ("support", "injection", "relax")),
        Role("warden", TOWN, ("guise", "who_is_here", "acquaintance", "prudence")),
        Role("custodian", TOWN, ("papers",)),
        Role("interrogator", TOWN, ("interrogation",)),
        Role("citizen", TOWN, ()),
        Role("mafioso", MAFIA, ()),
    )
}
ROLE_ORDER = tuple(ROLES)

DEFAULT_ROSTER: tuple[str, ...] = (
    "manager",
    "guarantor",
    "executor",
    "minister",
    "deputy",
    "observer",
    "savior",
    "warden",
    "custodian",
    "interrogator",
)
"""The seed's ten roles, five a side (§1)."""

LYNCH_SHIELDS = ("composure", "in_shadow")

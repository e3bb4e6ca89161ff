"""The classic roles and actions (classic.md §5, §6.1), as data."""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

TOWN = "town"
MAFIA = "mafia"
MAFIA_B = "mafia_b"
LONER = "loner"
DRAW = "draw"
CLANS = (MAFIA, MAFIA_B)
CLAN = "clan"
"""Placeholder faction in the catalogue: the host or scenario picks mafia or mafia_b."""


class Step(IntEnum):
    """The seed's step in which an action takes effect (§6.1–6.4)."""

    VOTE = 1
    DISTRACT = 2
    COVER = 3
    ALL_AT_ONCE = 4


@dataclass(frozen=True)
class Action:
    id: str
    step: Step
    self_allowed: bool = False
    kills: bool = False
    """Counts as "can kill" for the early-end rule (§8 rule 3b)."""


ACTIONS: dict[str, Action] = {
    a.id: a
    for a in (
        Action("distract", Step.DISTRACT),
        Action("protect", Step.COVER),
        Action("heal", Step.COVER, self_allowed=True),
        Action("shot", Step.ALL_AT_ONCE, kills=True),
        Action("team_shot", Step.ALL_AT_ONCE, kills=True),
        Action("vigilante", Step.ALL_AT_ONCE, kills=True),
        Action("check", Step.ALL_AT_ONCE),
        Action("poison", Step.ALL_AT_ONCE, kills=True),
        Action("peek", Step.ALL_AT_ONCE),
    )
}


@dataclass(frozen=True)
class Role:
    id: str
    faction: str
    actions: tuple[str, ...] = ()
    check_immune: bool = False


ROLES: dict[str, Role] = {
    r.id: r
    for r in (
        Role("citizen", TOWN),
        Role("commissar", TOWN, ("check",)),
        Role("doctor", TOWN, ("heal",)),
        Role("bodyguard", TOWN, ("protect",)),
        Role("sheriff", TOWN, ("vigilante",)),
        Role("witness", TOWN, ("peek",)),
        Role("mafioso", CLAN, ("team_shot",)),
        Role("lawyer", CLAN, ("check", "protect"), check_immune=True),
        Role("killer", CLAN, ("shot",)),
        Role("thief", CLAN, ("distract",)),
        Role("outcast", LONER, (), check_immune=True),
        Role("maniac", LONER, ("shot",)),
        Role("sorcerer", LONER, ("poison",)),
    )
}

REQUESTS = ("rating_request", "anon_request", "target_list_request")

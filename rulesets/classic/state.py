"""Questions about a classic game state: who is in play, what a player can do, how a check sees them."""

from __future__ import annotations

from typing import Any

from engine.core.model import GameState, PlayerState
from rulesets.classic.roles import ACTIONS, CLANS, LONER, ROLES, TOWN


def in_play(p: PlayerState) -> bool:
    """«Живой и свободный»: alive and not imprisoned."""
    return bool(p.fields.get("alive", True) and p.fields.get("free", True))


def in_play_names(state: GameState) -> list[str]:
    # in_play() written out: asked several times a turn for every player
    return [
        p.name for p in state.players if p.fields.get("alive", True) and p.fields.get("free", True)
    ]


def is_clan(faction: str | None) -> bool:
    return faction in CLANS


def joined_outcast(p: PlayerState) -> bool:
    return p.role == "outcast" and is_clan(p.faction)


def check_immune(p: PlayerState) -> bool:
    """The lawyer always; the outcast until he joins a clan (§6.2)."""
    if p.role == "outcast":
        return p.faction == LONER
    return ROLES[p.role or "citizen"].check_immune


def apparent(p: PlayerState) -> tuple[str, str]:
    """The role and faction a check sees."""
    if check_immune(p):
        return "citizen", TOWN
    return p.role or "citizen", p.faction or TOWN


def actions_of(p: PlayerState, options: dict[str, Any]) -> tuple[str, ...]:
    """The actions a player may order now (the role's, plus the team shot where it applies)."""
    actions = ROLES[p.role or "citizen"].actions
    if (
        p.faction in CLANS
        and (p.role == "outcast" or options.get("team_shot_by") == "any_member")
        and "team_shot" not in actions
    ):
        return (*actions, "team_shot")  # a joined outcast's, or any clan member's by option
    return actions


def can_kill(p: PlayerState, options: dict[str, Any]) -> bool:
    """§8 rule 3b: has a killing action, or is an outcast who may still join."""
    if p.role == "outcast" and p.faction == LONER:
        return True
    return any(ACTIONS[a].kills for a in actions_of(p, options))


def team_of(p: PlayerState) -> str:
    """The team for the win check: town, a clan, or each loner on their own."""
    if p.faction == LONER:
        return f"{LONER}:{p.name}"
    return p.faction or TOWN


def clan_members(state: GameState, faction: str) -> list[PlayerState]:
    return [p for p in state.players if p.faction == faction]

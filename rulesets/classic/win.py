"""The end of a classic game (classic.md §8)."""

from __future__ import annotations

from engine.core.model import GameState
from rulesets.classic.roles import CLANS, DRAW, LONER, TOWN
from rulesets.classic.state import can_kill


def winner(state: GameState) -> str | None:
    """The winning faction, ``draw``, or None while the game goes on."""
    # in_play() written out: asked at the end of every turn
    alive = [p for p in state.players if p.fields.get("alive", True) and p.fields.get("free", True)]
    if not alive:
        return DRAW
    teams = {f"{LONER}:{p.name}" if p.faction == LONER else p.faction or TOWN for p in alive}
    # (team_of() written out)
    if len(teams) == 1:
        team = teams.pop()
        return LONER if team.startswith(LONER) else team
    if not state.options["early_end"]:
        return None
    for clan in CLANS:
        members = [p for p in alive if p.faction == clan]
        if not members or len(members) * 2 <= len(alive):
            continue
        others = [p for p in alive if p.faction != clan]
        if sum(1 for p in others if can_kill(p, state.options)) <= 1 and not any(
            p.fields.get("poisoned") for p in members
        ):
            return clan
    return None

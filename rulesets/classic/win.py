"""The end of a classic game (classic.md §8)."""

from __future__ import annotations

from engine.core.model import GameState
from rulesets.classic.roles import CLANS, DRAW, LONER
from rulesets.classic.state import can_kill, in_play, team_of


def winner(state: GameState) -> str | None:
    """The winning faction, ``draw``, or None while the game goes on."""
    alive = [p for p in state.players if in_play(p)]
    if not alive:
        return DRAW
    teams = {team_of(p) for p in alive}
    if len(teams) == 1:
        team = teams.pop()
        return LONER if team.startswith(LONER) else team
    if not state.options["early_end"]:
        return None
    for clan in CLANS:
        members = [p for p in alive if p.faction == clan]
        others = [p for p in alive if p.faction != clan]
        if (
            members
            and len(members) * 2 > len(alive)
            and sum(1 for p in others if can_kill(p, state.options)) <= 1
            and not any(p.fields.get("poisoned") for p in members)
        ):
            return clan
    return None

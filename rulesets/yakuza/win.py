"""The end of a yakuza game (yakuza.md §3): one faction left alive, or nobody (draw)."""

from __future__ import annotations

from engine.core.model import GameState
from rulesets.yakuza.roles import DRAW
from rulesets.yakuza.state import alive


def winner(state: GameState) -> str | None:
    """The winning faction, ``draw``, or None while the game goes on.

    Mortally wounded avengers are alive (D49); with `neutral_joint_win` off the maniac and
    the psycho are factions of their own (their faction ids are then `maniac`, `psycho`).
    """
    factions = {p.faction for p in state.players if alive(p)}
    if not factions:
        return DRAW
    if len(factions) == 1:
        return factions.pop()
    return None

"""Questions about a minimafik game state: who is alive, hands, the Leader, the collection."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.core.model import GameState, PlayerState
from rulesets.minimafik.cards import Collection
from rulesets.minimafik.collection_file import collection_of
from rulesets.minimafik.roles import BLANK, MAFIA, ROLES, ROT


def alive(p: PlayerState) -> bool:
    return bool(p.fields.get("alive", True))


def alive_names(state: GameState) -> list[str]:
    return [p.name for p in state.players if alive(p)]


def collection(state: GameState) -> Collection:
    """The game's cards: the state keeps them as a document from setup on."""
    return collection_of(state.options.get("collection"))


def hand(p: PlayerState) -> list[str]:
    return list(p.fields.get("hand") or [])


def non_rot(cards: Sequence[str | None]) -> int:
    """How many slots are not Rot (Rot always sits at the bottom)."""
    return sum(1 for c in cards if c != ROT)


def only_blanks(cards: Sequence[str]) -> bool:
    """All non-Rot cards are Blanks, and there is at least one (§5.4)."""
    rest = [c for c in cards if c != ROT]
    return bool(rest) and all(c == BLANK for c in rest)


def is_mafia(p: PlayerState) -> bool:
    return p.faction == MAFIA


def leader(state: GameState) -> str | None:
    name = state.data.get("leader")
    if name and state.has_player(name) and alive(state.player(name)):
        return str(name)
    return None


def character(p: PlayerState) -> str:
    return str(p.fields.get("character") or p.name)


def partner_of(state: GameState, p: PlayerState) -> PlayerState | None:
    for q in state.players:
        if q.name != p.name and is_mafia(q):
            return q
    return None


def colours_of(role: str | None) -> list[str]:
    return list(ROLES[role or "citizen"].colours)


def view(state: GameState, p: PlayerState) -> dict[str, Any]:
    """The per-player fields of §13.4, derived ones included."""
    cards = hand(p)
    deck = list(p.fields.get("deck") or [])
    out = {"role": p.role, "faction": p.faction, **p.fields}
    out.update(
        hand=cards,
        hand_size=len(cards),
        deck=deck,
        deck_size=len(deck),
        rot_count=sum(1 for c in cards if c == ROT),
        blank_count=sum(1 for c in cards if c == BLANK),
        is_leader=leader(state) == p.name,
    )
    return out

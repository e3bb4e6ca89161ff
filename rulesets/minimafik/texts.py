"""Words of the minimafik ruleset in Russian and English, and the per-game render context."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.core.model import GameState
from rulesets.minimafik.roles import ROLE_ORDER as _ROLE_ORDER
from rulesets.minimafik.state import character, collection

TEMPLATES = "rulesets.minimafik.templates"
LANGS = ("ru", "en")
ROLE_ORDER = _ROLE_ORDER

TEXTS: Mapping[str, Mapping[str, Mapping[str, str]]] = {"ru": {}, "en": {}}

RESULTS_ORDER: tuple[tuple[str, ...], ...] = (
    ("decks_built",),
    ("vote_tally",),
    ("vece_result",),
    ("death", "role_revealed"),
    ("leader_elected", "leader_none"),
    ("beaten_reveal",),
    ("hand_sizes",),
    ("game_over",),
)
SEATED: Mapping[str, str] = {
    "death": "player",
    "role_revealed": "player",
    "beaten_reveal": "player",
}
SEPARATE_POSTS = frozenset({"game_started"})


def render_context(state: GameState) -> dict[str, Any]:
    """Card names and rules and character names of this game, for its templates."""
    coll = collection(state)
    return {
        "cards": {c.id: c.as_doc() for c in coll.cards.values()},
        "characters": {p.name: character(p) for p in state.players},
    }

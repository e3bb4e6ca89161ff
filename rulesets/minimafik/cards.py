"""The card collection as data: cards and visible-role abilities built from effect primitives.

A collection is a YAML (or TOML) document with `cards:` and, optionally, `visible_roles:`
(minimafik.md §3.3, §4.2, §4.3; the schema is documented in docs/rulesets/minimafik.md);
`schema` checks one and `collection_file` loads it. The spec's sample collection ships as package data
beside this module and is the default.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rulesets.minimafik.roles import BLANK, NEUTRAL, NIGHT, NONE, ROT, TARGET_NONE

SAMPLE = "sample_collection.yaml"
"""The default collection (the spec's Appendix A), shipped beside this module."""

SELF, TARGET = "self", "target"


@dataclass(frozen=True)
class Primitive:
    """One effect primitive: its parameters and the resolution step it acts in."""

    params: Mapping[str, str]
    """Parameter → kind: ``count`` (int ≥ 1), ``card`` (a card id), ``flag`` (bool)."""
    step: str
    required: tuple[str, ...] = ()
    day_only: bool = False


PRIMITIVES: dict[str, Primitive] = {
    "deal_damage": Primitive({"n": "count"}, "E8", ("n",)),
    "give_armor": Primitive({"n": "count"}, "E8", ("n",)),
    "protect": Primitive({}, "E8"),
    "gain_points": Primitive({"n": "count"}, "E10", ("n",)),
    "draw": Primitive({"n": "count"}, "E10", ("n",)),
    "add_rot": Primitive({"n": "count"}, "E11a", ("n",)),
    "transform": Primitive({"into": "card", "n": "count"}, "E11a", ("into", "n")),
    "look_at_hand": Primitive({}, "E6"),
    "reveal_colour": Primitive({}, "E6"),
    "reveal_card": Primitive({}, "E6"),
    "check_faction": Primitive({}, "E6"),
    "check_role": Primitive({}, "E6"),
    "send_message": Primitive({"signed": "flag"}, "E15"),
    "extra_vote": Primitive({"n": "count"}, "E7", ("n",), day_only=True),
    "vece_immunity": Primitive({}, "E7", day_only=True),
}
"""Every effect primitive by its `do` name (§4.3)."""


@dataclass(frozen=True)
class Effect:
    do: str
    to: str
    """``self`` (the player) or ``target`` (the side's target)."""
    n: int = 1
    into: str | None = None
    signed: bool = False

    def as_doc(self) -> dict[str, Any]:
        doc: dict[str, Any] = {"do": self.do, "to": self.to}
        params = PRIMITIVES[self.do].params
        if "n" in params:
            doc["n"] = self.n
        if self.into is not None:
            doc["into"] = self.into
        if self.signed:
            doc["signed"] = True
        return doc


@dataclass(frozen=True)
class Side:
    target: str
    cost: int
    effects: tuple[Effect, ...]

    def has(self, do: str) -> bool:
        return any(e.do == do for e in self.effects)

    def as_doc(self) -> dict[str, Any]:
        return {
            "target": self.target,
            "cost": self.cost,
            "effects": [e.as_doc() for e in self.effects],
        }


@dataclass(frozen=True)
class Card:
    id: str
    name: str
    colour: str
    cost: int
    timing: str
    light: Side
    dark: Side
    aliases: tuple[str, ...] = ()
    text: str = ""

    def side(self, which: str) -> Side:
        return self.dark if which == "dark" else self.light

    def as_doc(self) -> dict[str, Any]:
        doc: dict[str, Any] = {
            "id": self.id,
            "name": self.name,
            "aliases": list(self.aliases),
            "colour": self.colour,
            "cost": self.cost,
            "timing": self.timing,
            "light": self.light.as_doc(),
            "dark": self.dark.as_doc(),
        }
        if self.text:
            doc["text"] = self.text
        return doc


@dataclass(frozen=True)
class Ability:
    """A visible role's ability, used with `use_ability` (not a card play, D-44)."""

    id: str
    name: str
    timing: str
    cost: int
    side: Side
    per_game: int | None = None
    per_phase: int | None = 1
    aliases: tuple[str, ...] = ()
    text: str = ""

    def as_doc(self) -> dict[str, Any]:
        uses = {"per_game": self.per_game} if self.per_game else {"per_phase": self.per_phase}
        doc = {
            "id": self.id,
            "name": self.name,
            "aliases": list(self.aliases),
            "timing": self.timing,
            "uses": uses,
            "cost": self.cost,
            "target": self.side.target,
            "effects": [e.as_doc() for e in self.side.effects],
        }
        if self.text:
            doc["text"] = self.text
        return doc


@dataclass(frozen=True)
class VisibleRole:
    id: str
    name: str
    abilities: tuple[Ability, ...] = ()
    aliases: tuple[str, ...] = ()

    def ability(self, ability_id: str) -> Ability | None:
        return next((a for a in self.abilities if a.id == ability_id), None)


def _special(card_id: str, name: str, colour: str) -> Card:
    empty = Side(TARGET_NONE, 0, ())
    return Card(card_id, name, colour, 0, NIGHT, empty, empty)


SPECIAL_CARDS = {
    ROT: _special(ROT, "Гниль", NONE),
    BLANK: _special(BLANK, "Пустышка", NEUTRAL),
}
"""Rot and Blank exist outside every collection (§4.1, D-25)."""


@dataclass(frozen=True)
class Collection:
    """The cards of one game and its visible roles' abilities."""

    cards: Mapping[str, Card]
    visible_roles: Mapping[str, VisibleRole] = field(default_factory=dict)
    source: str = ""

    def card(self, card_id: str) -> Card:
        if card_id in SPECIAL_CARDS:
            return SPECIAL_CARDS[card_id]
        return self.cards[card_id]

    def knows(self, card_id: str) -> bool:
        return card_id in self.cards or card_id in SPECIAL_CARDS

    def colour_of(self, card_id: str) -> str:
        return self.card(card_id).colour

    def of_colour(self, *colours: str) -> list[str]:
        return [c.id for c in self.cards.values() if c.colour in colours]

    def abilities_of(self, visible_role: str | None) -> tuple[Ability, ...]:
        role = self.visible_roles.get(visible_role or "")
        return role.abilities if role else ()

    def as_doc(self) -> dict[str, Any]:
        """The collection as a plain document (stored in the game state, loadable again)."""
        return {
            "source": self.source,
            "cards": [c.as_doc() for c in self.cards.values()],
            "visible_roles": {
                r.id: {
                    "name": r.name,
                    "aliases": list(r.aliases),
                    "abilities": [a.as_doc() for a in r.abilities],
                }
                for r in self.visible_roles.values()
            },
        }


def card_words(collection: Collection) -> dict[str, tuple[str, ...]]:
    """Every name a card answers to (name, aliases, id) → card ids, for the parser."""
    words: dict[str, tuple[str, ...]] = {}
    for card in collection.cards.values():
        for name in (card.name, *card.aliases, card.id.replace("_", " ")):
            key = norm_name(name)
            words.setdefault(key, ())
            if card.id not in words[key]:
                words[key] += (card.id,)
    return words


def norm_name(text: str) -> str:
    """A name as the parser's words spell it: lower case, ё → е, words joined by spaces."""
    return " ".join(re.findall(r"[^\W_]+", text.casefold().replace("ё", "е")))


def names_of(cards: Sequence[Card]) -> list[str]:
    return [c.name for c in cards]

"""Deck building: the Law's draft offers and picks, the Mafia's free build, shuffling (§5)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from engine.core.warnings import N_, Nn_
from rulesets.minimafik.cards import Collection
from rulesets.minimafik.roles import (
    BAD_COMPOSITION,
    BLANK,
    COLOURS,
    NEUTRAL,
    ROLES,
    ROT,
    TOO_MANY_COPIES,
    UNKNOWN_CARD,
)


def draft_offers(
    rng: random.Random, collection: Collection, options: Mapping[str, Any]
) -> list[list[str]]:
    """`law_draft_picks` offers, each `law_draft_choices` different non-neutral card types (D-05)."""
    pool = [c for c in collection.cards if collection.cards[c].colour != NEUTRAL]
    size = min(int(options["law_draft_choices"]), len(pool))
    return [rng.sample(pool, size) for _ in range(int(options["law_draft_picks"]))]


def complete_picks(
    rng: random.Random, offers: Sequence[Sequence[str]], picks: Sequence[str | None]
) -> list[str]:
    """The Law deck: the picked card of every offer, a random one where none was picked (D-06)."""
    deck = []
    for i, pair in enumerate(offers):
        chosen = picks[i] if i < len(picks) else None
        deck.append(chosen if chosen is not None else rng.choice(list(pair)))
    return deck


def other_colours(role: str, options: Mapping[str, Any]) -> list[str]:
    """The colours a mafia member takes exactly `mafia_other_colour_cards` of (D-03)."""
    own = ROLES[role].colours
    colours = [c for c in COLOURS if c not in own]
    if not options["mafia_other_colours_include_neutral"]:
        colours.remove(NEUTRAL)
    return colours


def deck_size(role: str, options: Mapping[str, Any]) -> int:
    if ROLES[role].faction != "mafia":
        return int(options["law_draft_picks"])
    return int(options["mafia_own_colour_cards"]) + int(options["mafia_other_colour_cards"]) * len(
        other_colours(role, options)
    )


def check_mafia_deck(
    cards: Sequence[str], role: str, collection: Collection, options: Mapping[str, Any]
) -> str | None:
    """None for a deck the rules allow (§5.2), else the rejection reason."""
    for card in cards:
        if card in (ROT, BLANK) or card not in collection.cards:
            return UNKNOWN_CARD
    if max(Counter(cards).values(), default=0) > int(options["mafia_max_copies"]):
        return TOO_MANY_COPIES
    own = ROLES[role].colours
    colours = Counter(collection.colour_of(c) for c in cards)
    if sum(colours[c] for c in own) != int(options["mafia_own_colour_cards"]):
        return BAD_COMPOSITION
    others = other_colours(role, options)
    for colour in others:
        if colours[colour] != int(options["mafia_other_colour_cards"]):
            return BAD_COMPOSITION
    if any(colours[c] for c in COLOURS if c not in own and c not in others):
        return BAD_COMPOSITION
    return None


def random_mafia_deck(
    rng: random.Random, role: str, collection: Collection, options: Mapping[str, Any]
) -> list[str]:
    """A random deck the rules allow, for a member who sent none that was valid (D-06)."""
    copies = int(options["mafia_max_copies"])
    pool = [c for c in collection.of_colour(*ROLES[role].colours) for _ in range(copies)]
    deck = rng.sample(pool, int(options["mafia_own_colour_cards"]))
    for colour in other_colours(role, options):
        kinds = collection.of_colour(colour)
        take = int(options["mafia_other_colour_cards"])
        deck.extend(rng.sample([c for c in kinds for _ in range(copies)], take))
    return deck


def buildable(role: str, collection: Collection, options: Mapping[str, Any]) -> str | None:
    """Why no legal deck exists for `role` with this collection, as the game file's option
    (None: one does); made from `N_`/`Nn_` templates, shown in the host's language."""
    copies = int(options["mafia_max_copies"])
    own = ROLES[role].colours
    if len(collection.of_colour(*own)) * copies < int(options["mafia_own_colour_cards"]):
        said = Nn_(
            "option collection: the {role}'s deck needs {cards} cards of {colours} with at "
            "most {n} copy of each; the collection has {types} such card types",
            "option collection: the {role}'s deck needs {cards} cards of {colours} with at "
            "most {n} copies of each; the collection has {types} such card types",
            copies,
        )
        return said.format(
            role=role,
            cards=options["mafia_own_colour_cards"],
            colours="/".join(own),
            n=copies,
            types=len(collection.of_colour(*own)),
        )
    for colour in other_colours(role, options):
        if len(collection.of_colour(colour)) * copies < int(options["mafia_other_colour_cards"]):
            said = N_(
                "option collection: the {role}'s deck needs a {colour} card; the collection has none"
            )
            return said.format(role=role, colour=colour)
    return None


def shuffled(rng: random.Random, cards: Sequence[str]) -> list[str]:
    deck = list(cards)
    rng.shuffle(deck)
    return deck

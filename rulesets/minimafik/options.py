"""The host's settings (minimafik.md §14), checked with clear errors, and the deal of a new game."""

from __future__ import annotations

import random
import unicodedata
from collections.abc import Mapping, Sequence
from typing import Any

from engine.core.model import PlayerState
from engine.core.ruleset import NOT_ONE_OF, UNKNOWN_ROLE, RulesError, Seat
from engine.core.warnings import N_, Nn_
from rulesets.minimafik.collection_file import (
    COLLECTION_REFUSED,
    CollectionError,
    collection_of,
    stored,
    with_visible_roles,
)
from rulesets.minimafik.deck import buildable
from rulesets.minimafik.roles import (
    BOSS,
    CITIZEN,
    EXECUTION,
    KILLER,
    LAW,
    MAFIA,
    PUNISHMENTS,
    ROLES,
    VISIBLE_ROLES,
)

DEFAULT_SETUP = {BOSS: 1, KILLER: 1}
"""One boss and one killer; every other seat is a citizen (8 players: the seed's 1 + 1 + 6)."""

OPTION_DEFAULTS: dict[str, Any] = {
    "collection": None,
    "visible_roles": None,
    "characters": {},
    "setup": dict(DEFAULT_SETUP),
    "hand_size": 5,
    "starting_points": 1,
    "law_draft_picks": 10,
    "law_draft_choices": 2,
    "mafia_own_colour_cards": 10,
    "mafia_other_colour_cards": 1,
    "mafia_max_copies": 2,
    "mafia_other_colours_include_neutral": True,
    "killer_vote_weight": 2,
    "boss_vote_weight": 1.5,
    "mafia_kill_damage": 3,
    "first_night_damage_cap": 4,
    "beating_damage": 2,
    "execution_damage": 5,
    "default_punishment": EXECUTION,
    "leader_term": "one_cycle",
    "leader_discount": 1,
    "reveal_role_on_death": "none",
    "message_max_chars": 500,
    "lenient_names": True,
}
"""`collection`/`visible_roles`: a file path (or, in a scenario, the document itself);
`characters`: player → character name, or → {name, visible_role}; `setup`: the secret
roles dealt ({role: count} or a list; a game file's `[deal]` table fills it; citizens fill
the seats left);
`lenient_names`: a unique prefix or the first word of a longer name is enough («Клифф», §12.1)."""

_COUNTS = {
    "hand_size": 1,
    "starting_points": 0,
    "law_draft_picks": 1,
    "law_draft_choices": 2,
    "mafia_own_colour_cards": 0,
    "mafia_other_colour_cards": 0,
    "mafia_max_copies": 1,
    "mafia_kill_damage": 0,
    "first_night_damage_cap": 0,
    "beating_damage": 0,
    "execution_damage": 0,
    "leader_discount": 0,
    "message_max_chars": 1,
}
_CHOICES = {
    "default_punishment": PUNISHMENTS,
    "leader_term": ("one_cycle", "until_replaced"),
    "reveal_role_on_death": ("none", "faction", "role"),
}
STATE_FIELDS = {
    "hand",
    "deck",
    "points",
    "is_leader",
    "alive",
    "beaten",
    "nick",
    "offers",
    "character",
    "uses",
}


def check(options: dict[str, Any]) -> None:
    """Raise RulesError for a value out of range; loads and checks the card collection."""
    for key, low in _COUNTS.items():
        value = options[key]
        if isinstance(value, bool) or not isinstance(value, int) or value < low:
            said = N_("option {key}: expected a whole number ≥ {low}, got {value}")
            raise RulesError(said.format(key=key, low=low, value=repr(value)))
    for key in ("killer_vote_weight", "boss_vote_weight"):
        value = options[key]
        if isinstance(value, bool) or not isinstance(value, int | float) or value <= 0:
            said = N_("option {key}: expected a positive number, got {value}")
            raise RulesError(said.format(key=key, value=repr(value)))
    for key, allowed in _CHOICES.items():
        if options[key] not in allowed:
            said = NOT_ONE_OF.format(key=key, value=repr(options[key]), allowed=", ".join(allowed))
            raise RulesError(said)
    for key in ("mafia_other_colours_include_neutral", "lenient_names"):
        if not isinstance(options[key], bool):
            raise RulesError(N_("option {key}: expected true or false").format(key=key))
    if not isinstance(options["characters"], Mapping):
        raise RulesError(N_('option characters: expected a table player = "character name"'))
    try:
        coll = with_visible_roles(collection_of(options["collection"]), options["visible_roles"])
    except CollectionError as exc:
        key = (
            "visible_roles"
            if options["visible_roles"] and "visible_roles" in str(exc)
            else "collection"
        )
        raise RulesError(COLLECTION_REFUSED.format(key=key, said=exc)) from exc
    options["collection"] = stored(coll)
    options["visible_roles"] = None  # merged into the collection document
    for who, char in options["characters"].items():
        visible = char.get("visible_role") if isinstance(char, Mapping) else None
        known = set(VISIBLE_ROLES) | set(coll.visible_roles)
        if visible is not None and visible not in known:
            said = N_("option characters.{name}: unknown visible role {role} (known: {known})")
            raise RulesError(
                said.format(name=who, role=repr(visible), known=", ".join(sorted(known)))
            )
    role_counts(options)


def check_buildable(roles: Sequence[str], options: Mapping[str, Any]) -> None:
    """A game that starts with the draft needs a legal deck for each mafia member (§5.2)."""
    coll = collection_of(options["collection"])
    for role in (BOSS, KILLER):
        if role in roles:
            problem = buildable(role, coll, options)
            if problem:
                raise RulesError(problem)


def role_counts(options: Mapping[str, Any]) -> dict[str, int]:
    """The secret roles to deal (`setup`, a game file's [deal]); citizens fill the rest."""
    raw = options.get("setup") or DEFAULT_SETUP
    if isinstance(raw, list):
        counts: dict[str, int] = {}
        for role in raw:
            counts[str(role)] = counts.get(str(role), 0) + 1
        raw = counts
    if not isinstance(raw, Mapping):
        raise RulesError(N_("option setup: expected {role: count} or a list of roles"))
    out = {}
    for role, count in raw.items():
        if role not in ROLES:
            raise RulesError(
                N_("option setup.{role}: unknown role {value} (known: {known})").format(
                    role=role, value=repr(role), known=", ".join(ROLES)
                ),
                where=("options", "setup", str(role)),
            )
        if isinstance(count, bool) or not isinstance(count, int) or count < 0:
            raise RulesError(
                N_("option setup.{role}: expected a count, got {value}").format(
                    role=role, value=repr(count)
                ),
                where=("options", "setup", str(role)),
            )
        out[str(role)] = count
    return out


def deal(seats: Sequence[Seat], options: Mapping[str, Any], rng: random.Random) -> list[str]:
    """Secret roles in seating order: the host's where given, the rest dealt by the RNG (§3.1)."""
    for seat in seats:
        if seat.role is not None and seat.role not in ROLES:
            said = UNKNOWN_ROLE.format(name=seat.name, role=repr(seat.role), known=", ".join(ROLES))
            raise RulesError(said)
    missing = [s for s in seats if s.role is None]
    pool: list[str] = []
    for role, count in role_counts(options).items():
        pool.extend([role] * count)
    for seat in seats:
        if seat.role in pool:
            pool.remove(str(seat.role))
    if missing and len(pool) > len(missing):
        said = Nn_(
            "the setup deals {n} role to {seats} open seats",
            "the setup deals {n} roles to {seats} open seats",
            len(pool),
        )
        raise RulesError(said.format(n=len(pool), seats=len(missing)))
    pool.extend([CITIZEN] * (len(missing) - len(pool)))
    rng.shuffle(pool)
    dealt = iter(pool)
    roles = [s.role if s.role is not None else next(dealt) for s in seats]
    factions = {ROLES[r].faction for r in roles}
    if missing and not {LAW, MAFIA} <= factions:
        raise RulesError(N_("the setup needs at least one mafia member and one citizen"))
    if sum(1 for r in roles if ROLES[r].faction == MAFIA) > 2 and missing:
        raise RulesError(N_("the Mafia has at most two members: one boss and one killer"))
    return roles


def seat_fields(seat: Seat, role: str, options: Mapping[str, Any]) -> PlayerState:
    """One player's starting state: the role, the character, the given scenario state."""
    char = options["characters"].get(seat.name)
    visible = seat.visible_role
    name = seat.name
    if isinstance(char, Mapping):
        name = str(char.get("name") or seat.name)
        visible = visible or char.get("visible_role")
        unknown = set(char) - {"name", "visible_role"}
        if unknown:
            raise RulesError(
                N_(
                    "option characters.{name}: unknown key {key} (known: name, visible_role)"
                ).format(name=seat.name, key=repr(sorted(unknown)[0]))
            )
    elif isinstance(char, str):
        name = char
    elif char is not None:
        said = N_(
            "option characters.{name}: expected the character's name or a table with name "
            "and visible_role"
        )
        raise RulesError(said.format(name=seat.name))
    known = set(VISIBLE_ROLES) | set(collection_of(options["collection"]).visible_roles)
    if visible is not None and visible not in known:
        raise RulesError(
            N_("option characters.{name}: unknown visible role {role} (known: {known})").format(
                name=seat.name, role=repr(visible), known=", ".join(sorted(known))
            )
        )
    fields: dict[str, Any] = {
        "alive": True,
        "visible_role": visible,
        "character": name,
        "points": int(options["starting_points"]),
        "deck": [],
        "armor": 0,
        "beaten": False,
        "offers": None,
        "built_deck": [],
        "can_rebuild": False,
        "uses": {},
    }
    for key, value in seat.state.items():
        if key not in STATE_FIELDS:
            raise RulesError(
                f"{seat.name}: unknown state field {key!r} for minimafik (known: {', '.join(sorted(STATE_FIELDS))})"
            )
        fields[key] = list(value) if isinstance(value, list) else value
    return PlayerState(seat.name, role, ROLES[role].faction, fields)


def check_character_names(players: Sequence[PlayerState]) -> None:
    """Every character's name is its own: not empty, not another character's, and not
    another player's forum nickname (players address characters by either, §12.1)."""

    def key(name: str) -> str:
        # As the parser reads a name: zero-width and bidi characters (Unicode's format
        # characters) are not part of it, so «Бад\u00adди» is «Бадди».
        seen = "".join(c for c in name if unicodedata.category(c) != "Cf")
        return " ".join(seen.casefold().replace("ё", "е").split())

    owner = {key(p.name): p.name for p in players}
    for p in players:
        name = str(p.fields.get("character") or "")
        where = ("options", "characters", p.name)
        if not key(name):
            raise RulesError(
                N_("option characters.{name}: the character's name is empty").format(name=p.name),
                where=where,
            )
        other = owner.setdefault(key(name), p.name)
        if other != p.name:
            raise RulesError(
                N_(
                    "option characters.{name}: {character} is already {other}'s name or "
                    "character; players must be able to tell the characters apart"
                ).format(name=p.name, character=repr(name), other=other),
                where=where,
            )


def check_unique_visible(players: Sequence[PlayerState]) -> None:
    used = [p.fields["visible_role"] for p in players if p.fields.get("visible_role")]
    twice = {v for v in used if used.count(v) > 1}
    if twice:
        raise RulesError(
            N_("each visible role has one holder: {roles} is dealt twice").format(
                roles=", ".join(sorted(twice))
            ),
            where=("players", "visible_roles"),
        )

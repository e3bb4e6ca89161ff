"""The collection schema: a loaded YAML/TOML document checked card by card, field by field.

Every error names the file (with the line of the card where the file is YAML), the card (or
visible role and ability) and the field, e.g. «cards.yaml:40: card 'ambush', field
dark.effects[0].n: expected a whole number ≥ 1, got 0». The schema is documented in
docs/rulesets/minimafik.md.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from engine.core.warnings import N_
from rulesets.minimafik.cards import (
    PRIMITIVES,
    SELF,
    SPECIAL_CARDS,
    TARGET,
    Ability,
    Card,
    Collection,
    Effect,
    Side,
    VisibleRole,
)
from rulesets.minimafik.roles import (
    ANY,
    COLOURS,
    DAY,
    NEUTRAL,
    NIGHT,
    TARGET_NONE,
    TARGET_OTHER,
    TARGET_RULES,
    TIMINGS,
)

_ID_RE = re.compile(r"^[a-z][a-z0-9_]*$")
_CARD_FIELDS = {"id", "name", "aliases", "colour", "cost", "timing", "light", "dark", "text"}
_SIDE_FIELDS = {"target", "cost", "effects"}
_ROLE_FIELDS = {"name", "aliases", "abilities"}
_ABILITY_FIELDS = {"id", "name", "aliases", "timing", "uses", "cost", "target", "effects", "text"}
_ABILITY_TIMINGS = (NIGHT, DAY, ANY)

ERROR = N_("{where}: {what}: {said}")
"""A collection's error: the file (and line), what it is about, and why. Each part is made
from an `N_` template (the labels and reasons below), so `engine.i18n.warning_text` says
it in the host's language inside "option collection: {said}"."""

CARD = N_("card {card}")
CARD_FIELD = N_("card {card}, field {field}")
CARD_AT = N_("card #{n}")
CARD_AT_FIELD = N_("card #{n}, field {field}")
ROLE = N_("visible role {role}")
ROLE_FIELD = N_("visible role {role}, field {field}")
ABILITY = N_("visible role {role}, ability {ability}")
ABILITY_FIELD = N_("visible role {role}, ability {ability}, field {field}")
ABILITY_AT = N_("visible role {role}, ability #{n}")
ABILITY_AT_FIELD = N_("visible role {role}, ability #{n}, field {field}")

UNKNOWN_FIELD = N_("unknown field (known: {known})")
WHOLE_NUMBER = N_("expected a whole number ≥ {low}, got {value}")
SNAKE_ID = N_("expected a snake_case id, got {value}")
NOT_ONE_OF = N_("{value} is not one of {allowed}")
NAMES = N_("expected a list of names")


class CollectionError(ValueError):
    """A collection that cannot be used; the message names the file, the card and the field."""


class Checker:
    """Walks one document; `where` prefixes every error with the file, line and card."""

    def __init__(self, source: str, lines: Mapping[tuple[str, ...], int]) -> None:
        self.source = source
        self.lines = lines

    def fail(self, path: tuple[str, ...], what: str, message: str) -> CollectionError:
        """The error about `what` (a label made from a template above, or a key as written)
        at `path` of the document; `message` is made from an `N_` template."""
        line = None
        for n in range(len(path), 0, -1):
            line = self.lines.get(path[:n])
            if line is not None:
                break
        where = f"{self.source}:{line}" if line else self.source
        return CollectionError(ERROR.format(where=where, what=what, said=message))

    def cards(self, raw: Any) -> dict[str, Card]:
        if not isinstance(raw, list) or not raw:
            raise self.fail(("cards",), "cards", N_("expected a non-empty list of cards"))
        cards: dict[str, Card] = {}
        names: dict[str, str] = {}
        for index, item in enumerate(raw):
            card = self.card(item, index)
            if card.id in cards:
                label = CARD.format(card=repr(card.id))
                raise self.fail(("cards", str(index)), label, N_("the id is used twice"))
            for name in (card.name, *card.aliases, card.id):
                key = name.casefold().replace("ё", "е")
                other = names.get(key)
                if other is not None and other != card.id:
                    said = N_("the name {name} is also card {other}'s")
                    raise self.fail(
                        ("cards", str(index)),
                        CARD.format(card=repr(card.id)),
                        said.format(name=repr(name), other=repr(other)),
                    )
                names[key] = card.id
            cards[card.id] = card
        for card in cards.values():
            for which in ("light", "dark"):
                for k, effect in enumerate(card.side(which).effects):
                    if effect.into is not None and effect.into not in cards | SPECIAL_CARDS:
                        field = f"{which}.effects[{k}].into"
                        raise self.fail(
                            ("cards", str(list(cards).index(card.id))),
                            CARD_FIELD.format(card=repr(card.id), field=field),
                            N_("no card with id {into}").format(into=repr(effect.into)),
                        )
        return cards

    def card(self, item: Any, index: int) -> Card:
        path = ("cards", str(index))
        if not isinstance(item, dict):
            said = N_("a card is a mapping with id, name, colour, light, dark")
            raise self.fail(path, CARD_AT.format(n=index + 1), said)
        card_id = item.get("id")

        def bad(field_name: str, message: str) -> CollectionError:
            if isinstance(card_id, str):
                label = CARD_FIELD.format(card=repr(card_id), field=field_name)
            else:
                label = CARD_AT_FIELD.format(n=index + 1, field=field_name)
            return self.fail(path, label, message)

        unknown = sorted(set(item) - _CARD_FIELDS)
        if unknown:
            raise bad(unknown[0], UNKNOWN_FIELD.format(known=", ".join(sorted(_CARD_FIELDS))))
        if not isinstance(card_id, str) or not _ID_RE.match(card_id):
            raise bad("id", SNAKE_ID.format(value=repr(card_id)))
        if card_id in SPECIAL_CARDS:
            said = N_("{value} is reserved (Rot and Blank are built in)")
            raise bad("id", said.format(value=repr(card_id)))
        name = _text(item.get("name"))
        if not name:
            raise bad("name", N_("expected the card's name (the text players write)"))
        aliases = _aliases(item.get("aliases", []))
        if aliases is None:
            raise bad("aliases", NAMES)
        colour = item.get("colour")
        if colour not in COLOURS:
            raise bad("colour", NOT_ONE_OF.format(value=repr(colour), allowed=", ".join(COLOURS)))
        cost = _count(item.get("cost", 0), minimum=0)
        if cost is None:
            raise bad("cost", WHOLE_NUMBER.format(low=0, value=repr(item.get("cost"))))
        timing = item.get("timing", NIGHT)
        if timing not in TIMINGS:
            raise bad("timing", NOT_ONE_OF.format(value=repr(timing), allowed=", ".join(TIMINGS)))
        text = item.get("text", "")
        if not isinstance(text, str):
            raise bad("text", N_("expected a string"))
        sides = {}
        for which in ("light", "dark"):
            if which not in item:
                raise bad(which, N_("both sides (light and dark) are required"))
            sides[which] = self.side(item[which], cost, which, bad)
            if timing == NIGHT and any(PRIMITIVES[e.do].day_only for e in sides[which].effects):
                said = N_(
                    "extra_vote and vece_immunity act on the Вече: the card must be playable by day"
                )
                raise bad(which, said)
        return Card(
            card_id, name, colour, cost, timing, sides["light"], sides["dark"], aliases, text
        )

    def side(self, raw: Any, cost: int, where: str, bad: Any) -> Side:
        if not isinstance(raw, dict):
            raise bad(where, N_("a side is a mapping with target and effects"))
        unknown = sorted(set(raw) - _SIDE_FIELDS)
        if unknown:
            known = ", ".join(sorted(_SIDE_FIELDS))
            raise bad(f"{where}.{unknown[0]}", UNKNOWN_FIELD.format(known=known))
        target = raw.get("target", TARGET_OTHER)
        if target not in TARGET_RULES:
            allowed = ", ".join(TARGET_RULES)
            raise bad(f"{where}.target", NOT_ONE_OF.format(value=repr(target), allowed=allowed))
        side_cost = _count(raw.get("cost", cost), minimum=0)
        if side_cost is None:
            raise bad(f"{where}.cost", WHOLE_NUMBER.format(low=0, value=repr(raw.get("cost"))))
        effects = raw.get("effects")
        if not isinstance(effects, list) or not effects:
            raise bad(f"{where}.effects", N_("expected a non-empty list of effects"))
        return Side(
            target,
            side_cost,
            tuple(
                self.effect(e, target, f"{where}.effects[{k}]", bad) for k, e in enumerate(effects)
            ),
        )

    def effect(self, raw: Any, target: str, where: str, bad: Any) -> Effect:
        if not isinstance(raw, dict) or "do" not in raw:
            raise bad(
                where, N_("an effect is a mapping with do (an effect primitive) and its fields")
            )
        do = raw["do"]
        primitive = PRIMITIVES.get(do) if isinstance(do, str) else None
        if primitive is None:
            said = N_("{value} is not an effect primitive (known: {known})")
            raise bad(f"{where}.do", said.format(value=repr(do), known=", ".join(PRIMITIVES)))
        allowed = {"do", "to", *primitive.params}
        unknown = sorted(set(raw) - allowed)
        if unknown:
            said = N_("{do} takes {allowed}").format(do=do, allowed=", ".join(sorted(allowed)))
            raise bad(f"{where}.{unknown[0]}", said)
        for param in primitive.required:
            if param not in raw:
                raise bad(f"{where}.{param}", N_("{do} needs `{param}`").format(do=do, param=param))
        to = raw.get("to", SELF if target == TARGET_NONE else TARGET)
        if to not in (SELF, TARGET):
            raise bad(
                f"{where}.to", N_("expected self or target, got {value}").format(value=repr(to))
            )
        if to == TARGET and target == TARGET_NONE:
            raise bad(f"{where}.to", N_("the side has no target (target: none): use to: self"))
        n = 1
        if "n" in primitive.params:
            counted = _count(raw.get("n", 1), minimum=1)
            if counted is None:
                raise bad(f"{where}.n", WHOLE_NUMBER.format(low=1, value=repr(raw.get("n"))))
            n = counted
        into = raw.get("into")
        if "into" in primitive.params and (not isinstance(into, str) or not _ID_RE.match(into)):
            raise bad(
                f"{where}.into", N_("expected a card id, got {value}").format(value=repr(into))
            )
        signed = raw.get("signed", False)
        if not isinstance(signed, bool):
            said = N_("expected true or false, got {value}").format(value=repr(signed))
            raise bad(f"{where}.signed", said)
        if to == SELF and do in ("look_at_hand", "reveal_colour", "reveal_card", "send_message"):
            said = N_("{do} reads or reaches another character: use to: target").format(do=do)
            raise bad(f"{where}.to", said)
        return Effect(do, to, n, into if "into" in primitive.params else None, signed)

    def visible_roles(self, raw: Any, cards: Mapping[str, Card]) -> dict[str, VisibleRole]:
        if raw is None:
            return {}
        if not isinstance(raw, dict):
            said = N_("expected a mapping role id → role")
            raise self.fail(("visible_roles",), "visible_roles", said)
        roles = {}
        for role_id, body in raw.items():
            path = ("visible_roles", str(role_id))
            label = ROLE.format(role=repr(role_id))

            def field(name: str, role_id: Any = role_id) -> str:
                return ROLE_FIELD.format(role=repr(role_id), field=name)

            if not isinstance(role_id, str) or not _ID_RE.match(role_id):
                raise self.fail(path, label, N_("expected a snake_case id"))
            if body is None:
                body = {}
            if not isinstance(body, dict):
                raise self.fail(path, label, N_("expected a mapping with name and abilities"))
            unknown = sorted(set(body) - _ROLE_FIELDS)
            if unknown:
                known = ", ".join(sorted(_ROLE_FIELDS))
                raise self.fail(path, field(unknown[0]), UNKNOWN_FIELD.format(known=known))
            name = _text(body.get("name")) or role_id
            aliases = _aliases(body.get("aliases", []))
            if aliases is None:
                raise self.fail(path, field("aliases"), NAMES)
            abilities_raw = body.get("abilities") or []
            if not isinstance(abilities_raw, list):
                said = N_("expected a list of abilities")
                raise self.fail(path, field("abilities"), said)
            abilities = tuple(
                self.ability(a, k, path, role_id) for k, a in enumerate(abilities_raw)
            )
            ids = [a.id for a in abilities]
            if len(set(ids)) != len(ids):
                said = N_("an ability id is used twice")
                raise self.fail(path, field("abilities"), said)
            roles[role_id] = VisibleRole(role_id, name, abilities, aliases)
        return roles

    def ability(self, raw: Any, index: int, path: tuple[str, ...], role_id: str) -> Ability:
        role = repr(role_id)
        named = isinstance(raw, dict) and isinstance(raw.get("id"), str)

        def bad(field_name: str, message: str) -> CollectionError:
            if named:
                label = ABILITY_FIELD.format(role=role, ability=repr(raw["id"]), field=field_name)
            else:
                label = ABILITY_AT_FIELD.format(role=role, n=index + 1, field=field_name)
            return self.fail(path, label, message)

        if not isinstance(raw, dict):
            said = N_("an ability is a mapping with id, name, effects")
            raise self.fail(path, ABILITY_AT.format(role=role, n=index + 1), said)
        unknown = sorted(set(raw) - _ABILITY_FIELDS)
        if unknown:
            known = ", ".join(sorted(_ABILITY_FIELDS))
            raise bad(unknown[0], UNKNOWN_FIELD.format(known=known))
        ability_id = raw.get("id")
        if not isinstance(ability_id, str) or not _ID_RE.match(ability_id):
            raise bad("id", SNAKE_ID.format(value=repr(ability_id)))
        name = _text(raw.get("name")) or ability_id
        aliases = _aliases(raw.get("aliases", []))
        if aliases is None:
            raise bad("aliases", NAMES)
        timing = raw.get("timing", NIGHT)
        if timing not in _ABILITY_TIMINGS:
            allowed = ", ".join(_ABILITY_TIMINGS)
            raise bad("timing", NOT_ONE_OF.format(value=repr(timing), allowed=allowed))
        uses = raw.get("uses", {"per_phase": 1})
        per_game = per_phase = None
        if (
            not isinstance(uses, dict)
            or len(uses) != 1
            or not set(uses) <= {"per_game", "per_phase"}
        ):
            raise bad("uses", N_("expected per_game: N or per_phase: N"))
        count = _count(next(iter(uses.values())), minimum=1)
        if count is None:
            raise bad("uses", N_("expected a whole number ≥ 1 of uses"))
        if "per_phase" in uses and count != 1:
            raise bad("uses", N_("an ability is used at most once a phase: per_phase is 1"))
        if "per_game" in uses:
            per_game = count
        else:
            per_phase = count
        cost = _count(raw.get("cost", 0), minimum=0)
        if cost is None:
            raise bad("cost", WHOLE_NUMBER.format(low=0, value=repr(raw.get("cost"))))
        side = self.side(
            {"target": raw.get("target", TARGET_NONE), "effects": raw.get("effects")},
            cost,
            "effects",
            bad,
        )
        if timing == NIGHT and any(PRIMITIVES[e.do].day_only for e in side.effects):
            said = N_("extra_vote and vece_immunity act on the Вече: use timing day or any")
            raise bad("timing", said)
        return Ability(
            ability_id,
            name,
            timing,
            cost,
            Side(side.target, cost, side.effects),
            per_game,
            per_phase,
            aliases,
            str(raw.get("text", "")),
        )


def _text(value: Any) -> str:
    return value.strip() if isinstance(value, str) else ""


def _aliases(value: Any) -> tuple[str, ...] | None:
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
        return None
    return tuple(v.strip() for v in value)


def _count(value: Any, *, minimum: int) -> int | None:
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        return None
    return value


def parse_collection(
    doc: Any, source: str = "<collection>", lines: Mapping[tuple[str, ...], int] | None = None
) -> Collection:
    """Check a loaded document and build the collection; raises CollectionError."""
    checker = Checker(source, lines or {})
    if not isinstance(doc, dict):
        said = N_("expected a mapping with `cards:` (and `visible_roles:`)")
        raise checker.fail((), "collection", said)
    unknown = sorted(set(doc) - {"cards", "visible_roles", "source"})
    if unknown:
        said = N_("unknown section (known: cards, visible_roles)")
        raise checker.fail((unknown[0],), unknown[0], said)
    cards = checker.cards(doc.get("cards"))
    if len([c for c in cards.values() if c.colour != NEUTRAL]) < 2:
        said = N_("the Law draft needs at least 2 non-neutral cards")
        raise checker.fail(("cards",), "cards", said)
    roles = checker.visible_roles(doc.get("visible_roles"), cards)
    return Collection(cards, roles, str(doc.get("source") or source))

"""What a minimafik player can write (§12), for the role PM, the «помощь» reply and
refusals: forms from the game's own grammar (`engine.core.usage`), examples with cards of
the game's collection and names of its players; the mafia's deck rules in figures (issue 23).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.core import warnings as w
from engine.core.grammar import Grammar
from engine.core.model import GameState, PlayerState
from engine.core.orders import OrderKind
from engine.core.usage import Part, UsageSpec, usage
from rulesets.minimafik.cards import Card, Collection
from rulesets.minimafik.collection_file import collection_of
from rulesets.minimafik.deck import deck_size, other_colours
from rulesets.minimafik.grammar import grammar_for
from rulesets.minimafik.roles import (
    ATTACK,
    BAD_COMPOSITION,
    BAD_PICK,
    CITIZEN,
    LAW,
    MAFIA,
    ROLES,
    TARGET_OTHER,
    TARGET_REQUIRED,
    TOO_MANY_COPIES,
    UNKNOWN_CARD,
)
from rulesets.minimafik.state import alive

_SAME_IN_ACCUSATIVE = ("б", "в", "г", "д", "ж", "з", "к", "л", "м", "н", "п", "р", "с", "т",
                       "ф", "х", "ц", "ч", "ш", "щ", "о", "е")  # fmt: skip
"""A one-word card name ending so reads the same after «играю» (Удар, Досье)."""


def _spec(
    action: str,
    phrase: tuple[str, str],
    hint: tuple[str, str] | None = None,
    example: tuple[Sequence[Part], Sequence[Part]] | None = None,
    what: tuple[str, str] | None = None,
    *,
    kind: OrderKind = OrderKind.ORDER,
    case: str | None = None,
) -> UsageSpec:
    return UsageSpec(
        kind,
        action,
        phrase={"ru": phrase[0], "en": phrase[1]},
        hint={"ru": hint[0], "en": hint[1]} if hint else {},
        example={"ru": list(example[0]), "en": list(example[1])} if example else {},
        what={"ru": what[0], "en": what[1]} if what else {},
        case=case,
    )


def _english(card: Card) -> str:
    return next((a for a in card.aliases if a.isascii()), card.name)


def example_card(coll: Collection, colours: Sequence[str]) -> Card:
    """A card of these colours to show in an example: aimed at another player, free, and
    named by a word that reads the same after «играю»."""
    cards = [coll.card(c) for c in coll.of_colour(*colours)] or [
        coll.card(c) for c in coll.of_colour(ATTACK)
    ]

    def rank(card: Card) -> tuple[bool, bool, bool]:
        plain = " " not in card.name and card.name.lower().endswith(_SAME_IN_ACCUSATIVE)
        return (not plain, card.dark.target != TARGET_OTHER, card.cost != 0)

    return min(cards, key=rank)


def example_deck(role: str, coll: Collection, options: Mapping[str, Any]) -> list[str]:
    """A deck the rules accept, for the example of «колода: …»: the own colours' cards in
    turn, then as many of each other colour as the rules ask."""
    copies = int(options["mafia_max_copies"])
    picked: list[str] = []

    def take(colours: Sequence[str], n: int) -> None:
        counted = 0
        for card in coll.of_colour(*colours) * copies:
            if counted == n:
                break
            if picked.count(card) < copies:
                picked.append(card)
                counted += 1

    take(ROLES[role].colours, int(options["mafia_own_colour_cards"]))
    for colour in other_colours(role, options):
        take((colour,), int(options["mafia_other_colour_cards"]))
    return picked


def deck_words(cards: Sequence[str], coll: Collection, lang: str) -> list[str]:
    """«Удар x2, Щит, …» as a player writes a deck."""
    out: list[str] = []
    for card in dict.fromkeys(cards):
        shown = coll.card(card).name if lang == "ru" else _english(coll.card(card))
        n = cards.count(card)
        out.append(f"{shown} x{n}," if n > 1 else f"{shown},")
    if out:
        out[-1] = out[-1].rstrip(",")
    return out


def deck_rules(p: PlayerState, options: Mapping[str, Any]) -> dict[str, Any]:
    """The mafia deck's rules in figures, for the role PM."""
    role = p.role or ""
    return {
        "size": deck_size(role, options),
        "own": list(ROLES[role].colours),
        "own_cards": int(options["mafia_own_colour_cards"]),
        "others": other_colours(role, options),
        "other_cards": int(options["mafia_other_colour_cards"]),
        "copies": int(options["mafia_max_copies"]),
    }


def _others(state: GameState, player: str) -> list[str]:
    others = [p.name for p in state.players if p.name != player and alive(p)]
    return others or [player]


def _specs(state: GameState, p: PlayerState, coll: Collection) -> list[UsageSpec]:
    names = _others(state, p.name)
    first, second = names[0], names[1 % len(names)]
    card = example_card(coll, ROLES[p.role or CITIZEN].colours)
    specs = [
        _spec(
            "play_card", ("играю", "play"),
            ("<карта> <светлой|тёмной> [на <игрок>] [, оплата: …]",
             "<card> <light|dark> [on <player>] [, pay: …]"),
            ([card.name, "тёмной", "на", {"name": first, "case": "acc"}],
             [_english(card), "dark", "on", {"name": first}]),
        ),
        _spec(
            "discard", ("сброс", "discard"), ("<карта>, …", "<card>, …"),
            (["2"], ["2"]), ("сбросить карты и взять новые", "discard cards and draw new ones"),
        ),
        _spec(
            "order_hand", ("порядок", "order"), ("<карта> <карта> …", "<card> <card> …"),
            (["3", "1", "2"], ["3", "1", "2"]), ("новый порядок руки", "a new order of your hand"),
        ),
        _spec(
            "leader_vote", ("голос за", "vote"), None, None,
            ("голос за Лидера (ночью) или на Вече (днём)", "for the Leader (at night) or at the Veche (by day)"),
            kind=OrderKind.VOTE,
        ),
        _spec("unvote", ("снимаю голос", "unvote"), what=("снять голос", "withdraw your vote"),
              kind=OrderKind.UNVOTE),
    ]  # fmt: skip
    if p.faction == MAFIA:
        specs.append(_spec("mafia_vote", ("убить", "kill"), ("<игрок>", "<player>"), case="acc"))
        deck = example_deck(p.role or "", coll, state.options)
        specs.append(
            _spec(
                "build_deck",
                ("колода:", "deck:"),
                ("<карта> [xN], …", "<card> [xN], …"),
                (deck_words(deck, coll, "ru"), deck_words(deck, coll, "en")),
            )
        )
    if p.role == CITIZEN:
        specs.append(_spec("armor", ("даю броню", "give armour"), case="dat"))
    if p.faction == LAW:
        specs.append(
            _spec(
                "draft_pick",
                ("выбор:", "pick"),
                ("1а 2б …", "1a 2b …"),
                (["1а", "2б", "3а"], ["1a", "2b", "3a"]),
                ("какую карту из каждой пары взять в колоду", "the card of each pair you take"),
            )
        )
    for ability in coll.abilities_of(p.fields.get("visible_role")):
        aimed = ability.side.target == TARGET_OTHER
        target: list[Part] = ["на", {"name": second}] if aimed else []
        target_en: list[Part] = ["on", {"name": second}] if aimed else []
        specs.append(
            _spec(
                "use_ability",
                ("способность", "ability"),
                ("<название> [на <игрок>]", "<name> [on <player>]"),
                ([ability.name, *target], [ability.id.replace("_", " "), *target_en]),
            )
        )
    specs += [
        _spec("punishment", ("казнь", "execute"),
              what=("выбор Лидера на Вече: казнить", "the Leader's choice at the Veche: execution")),
        _spec("punishment", ("избиение", "beat"),
              what=("выбор Лидера на Вече: избить", "the Leader's choice at the Veche: a beating")),
        _spec("cancel", ("отмена", "cancel"), what=("отменить свои приказы", "cancel your orders"),
              kind=OrderKind.CANCEL),
        _spec("help_request", ("помощь", "help"), what=("этот список", "this list"),
              kind=OrderKind.REQUEST),
    ]  # fmt: skip
    return specs


def _grammar(state: GameState) -> tuple[Grammar, Collection]:
    coll = collection_of(state.options.get("collection"))
    return grammar_for(coll), coll


def orders_of(state: GameState, player: str) -> list[dict[str, Any]]:
    """Every order `player` can send, each with its form and an example."""
    grammar, coll = _grammar(state)
    p = state.player(player)
    names = _others(state, player)
    return [usage(grammar, s, target=names[0]) for s in _specs(state, p, coll)]


def action_usage(state: GameState, player: str, action: str) -> dict[str, Any] | None:
    """One order's form, for a refusal of how it was written."""
    if not state.has_player(player):
        return None
    grammar, coll = _grammar(state)
    p = state.player(player)
    names = _others(state, player)
    for spec in _specs(state, p, coll):
        if spec.action == action or (action == "vece_vote" and spec.action == "leader_vote"):
            return usage(grammar, spec, target=names[0])
    return None


SHOW_FORM = frozenset(
    {w.UNKNOWN_TARGET, w.AMBIGUOUS_TARGET, w.BAD_PARAMETER, TARGET_REQUIRED, UNKNOWN_CARD,
     BAD_PICK, BAD_COMPOSITION, TOO_MANY_COPIES}
)  # fmt: skip
SHOW_LIST = frozenset({w.UNKNOWN_COMMAND, w.ACTION_NOT_AVAILABLE})


def refusal_extra(state: GameState, player: str, action: str | None, code: str) -> dict[str, Any]:
    """What a refusal adds to its receipt: the order's form, or the list of the player's."""
    if not state.has_player(player):
        return {}
    if code in SHOW_FORM and action:
        form = action_usage(state, player, action)
        extra: dict[str, Any] = {"usage": form} if form is not None else {}
        p = state.player(player)
        if action == "build_deck" and p.faction == MAFIA:
            extra["deck_rules"] = deck_rules(p, state.options)
        return extra
    if code in SHOW_LIST:
        return {"orders": orders_of(state, player)}
    return {}

"""What a classic player can write, for the role PM, the «помощь» reply and refusals (§10).

The forms come from the grammar (`engine.core.usage`), so the texts show only what the
parser reads; the examples name other players of the game.
"""

from __future__ import annotations

from typing import Any

from engine.core import warnings as w
from engine.core.model import GameState
from engine.core.orders import OrderKind
from engine.core.usage import UsageSpec, usage, usages
from rulesets.classic.grammar import GRAMMAR
from rulesets.classic.state import actions_of, in_play, is_clan

VOTE = UsageSpec(OrderKind.VOTE, "vote", phrase={"ru": "голосую за", "en": "vote"})
UNVOTE = UsageSpec(
    OrderKind.UNVOTE,
    "unvote",
    what={"ru": "отозвать свой голос", "en": "withdraw your vote"},
)

_CANCEL_NOUNS = {
    "check": ("проверки", "check"),
    "heal": ("лечения", "heal"),
    "protect": ("защиты", "protect"),
    "shot": ("выстрела", "shot"),
    "team_shot": ("командного выстрела", "team shot"),
    "vigilante": ("самосуда", "vigilante"),
    "peek": ("подсматривания", "peek"),
    "distract": ("отвлечения", "distract"),
    "poison": ("отравления", "poison"),
}
"""How a cancel names each order; the tests read each back as a cancel of that order."""


def _cancel(action: str) -> UsageSpec:
    ru, en = _CANCEL_NOUNS[action]
    return UsageSpec(
        OrderKind.CANCEL,
        "cancel",
        what={
            "ru": "отменить свои приказы этого хода (все или один)",
            "en": "cancel your orders of this turn (all or one)",
        },
        example={"ru": [ru], "en": [en]},
    )


_ACTIONS: dict[str, UsageSpec] = {
    "check": UsageSpec(OrderKind.ORDER, "check", phrase={"ru": "проверка", "en": "check"}),
    "heal": UsageSpec(OrderKind.ORDER, "heal", phrase={"ru": "лечу", "en": "heal"}),
    "protect": UsageSpec(OrderKind.ORDER, "protect", phrase={"ru": "защищаю", "en": "protect"}),
    "shot": UsageSpec(OrderKind.ORDER, "shot", phrase={"ru": "стреляю в", "en": "shoot"}),
    "team_shot": UsageSpec(
        OrderKind.ORDER, "team_shot", phrase={"ru": "командный выстрел в", "en": "team shot"}
    ),
    "vigilante": UsageSpec(
        OrderKind.ORDER, "vigilante", phrase={"ru": "самосуд над", "en": "vigilante"}
    ),
    "peek": UsageSpec(
        OrderKind.ORDER, "peek", phrase={"ru": "слежу за", "en": "watch"}, case="ins"
    ),
    "distract": UsageSpec(OrderKind.ORDER, "distract", phrase={"ru": "отвлекаю", "en": "distract"}),
    "poison": UsageSpec(OrderKind.ORDER, "poison", phrase={"ru": "отравляю", "en": "poison"}),
}

RATING = UsageSpec(
    OrderKind.REQUEST,
    "rating_request",
    what={"ru": "опубликовать рейтинг голосования", "en": "post the vote count"},
)
TARGETS = UsageSpec(
    OrderKind.REQUEST,
    "target_list_request",
    what={"ru": "приказы вашего клана на этот ход", "en": "your clan's orders this turn"},
)
HELP = UsageSpec(
    OrderKind.REQUEST,
    "help_request",
    what={"ru": "этот список", "en": "this list"},
)


def _anon(target: str) -> UsageSpec:
    return UsageSpec(
        OrderKind.REQUEST,
        "anon_request",
        phrase={"ru": "анонимка для", "en": "anon to"},
        hint={"ru": "<игрок>: <текст>", "en": "<player>: <text>"},
        example={"ru": [{"name": target}, ":", "привет"], "en": [{"name": target}, ":", "hi"]},
        what={"ru": "анонимное сообщение", "en": "an anonymous message"},
    )


def _others(state: GameState, player: str) -> list[str]:
    others = [p.name for p in state.players if p.name != player and in_play(p)]
    return others or [player]


def action_usage(state: GameState, player: str, action: str) -> dict[str, Any] | None:
    """The form of one order, for a refusal («Нужно: проверка <игрок>, например: …»)."""
    if action == "vote":
        spec = VOTE
    elif action in _ACTIONS:
        spec = _ACTIONS[action]
    else:
        return None
    return usage(GRAMMAR, spec, target=_others(state, player)[0])


def orders_of(state: GameState, player: str) -> list[dict[str, Any]]:
    """Every command `player` can send now, each with its form and an example."""
    p = state.player(player)
    names = _others(state, player)
    specs = [VOTE, UNVOTE]
    actions = actions_of(p, state.options)
    specs += [_ACTIONS[a] for a in actions if a in _ACTIONS]
    own = [a for a in actions if a in _CANCEL_NOUNS]
    if own:
        specs.append(_cancel(own[0]))
    specs.append(RATING)
    if is_clan(p.faction):
        specs.append(TARGETS)
    found = usages(GRAMMAR, specs, names)
    found.append(usage(GRAMMAR, _anon(names[-1])))
    found.append(usage(GRAMMAR, HELP))
    return found


SHOW_FORM = frozenset(
    {w.UNKNOWN_TARGET, w.AMBIGUOUS_TARGET, w.INVALID_TARGET, w.BAD_PARAMETER, "invalid_vote_form"}
)
"""Refusals that come from how the order was written: the receipt shows its form."""
SHOW_LIST = frozenset({w.UNKNOWN_COMMAND, w.ACTION_NOT_AVAILABLE})
"""Refusals of something the player cannot send: the receipt lists what he can."""


def refusal(state: GameState, player: str, action: str, code: str) -> dict[str, Any]:
    """The fields of an `order_rejected` receipt: what was refused, why, and how to write it."""
    fields: dict[str, Any] = {"action": action, "reason": code}
    if code in SHOW_FORM:
        form = action_usage(state, player, action)
        if form is not None:
            fields["usage"] = form
    elif code in SHOW_LIST:
        fields["orders"] = orders_of(state, player)
    return fields

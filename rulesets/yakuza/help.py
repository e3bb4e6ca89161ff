"""What a yakuza player can write (§13), for the role PM, the «помощь» reply and refusals.

Night orders go by PM, votes and day abilities in the thread; each is shown with its form
from the grammar (`engine.core.usage`) and an example naming other players of the game.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.core import warnings as w
from engine.core.model import GameState
from engine.core.orders import OrderKind
from engine.core.usage import Part, UsageSpec, usage
from rulesets.yakuza.grammar import GRAMMAR
from rulesets.yakuza.state import alive, day_actions, night_actions


def _o(action: str, ru: str, en: str, *, case: str | None = None) -> UsageSpec:
    return UsageSpec(OrderKind.ORDER, action, phrase={"ru": ru, "en": en}, case=case)


def _bare(action: str, ru: str, en: str, what_ru: str, what_en: str) -> UsageSpec:
    return UsageSpec(
        OrderKind.ORDER, action, phrase={"ru": ru, "en": en}, what={"ru": what_ru, "en": what_en}
    )


def _with(
    action: str,
    phrase: tuple[str, str],
    hint: tuple[str, str],
    example: tuple[Sequence[Part], Sequence[Part]],
) -> UsageSpec:
    return UsageSpec(
        OrderKind.ORDER,
        action,
        phrase={"ru": phrase[0], "en": phrase[1]},
        hint={"ru": hint[0], "en": hint[1]},
        example={"ru": list(example[0]), "en": list(example[1])},
    )


_PLAIN: dict[str, UsageSpec] = {
    "guard": _bare("guard", "защищаюсь", "protect myself", "защита себя", "guard yourself"),
    "meditation": _bare("meditation", "медитация", "meditate", "медитация", "meditation"),
    "meditation_off": _bare(
        "meditation_off",
        "без медитации",
        "no meditation",
        "выключить медитацию",
        "switch meditation off",
    ),
    "revenge": _bare("revenge", "месть", "revenge", "включить месть", "activate revenge"),
    "heal": _o("heal", "лечу", "heal"),
    "protection": _o("protection", "защищаю", "protect"),
    "katana": _o("katana", "катана", "katana", case="nom"),
    "trap": _o("trap", "ставлю ловушку на", "trap"),
    "shadow": _o("shadow", "тень на", "shadow"),
    "contract": _o("contract", "заказ", "contract", case="nom"),
    "pistol": _o("pistol", "пистолет", "pistol", case="nom"),
    "nagant": _o("nagant", "наган", "nagant", case="nom"),
    "assault": _o("assault", "нападаю на", "assault"),
    "wiretap": _o("wiretap", "слушаю", "wiretap"),
    "sniper_rifle": _o("sniper_rifle", "снайперка", "sniper", case="nom"),
    "hunt": _o("hunt", "охота на", "hunt"),
    "surveillance": _o("surveillance", "слежка за", "watch", case="ins"),
    "dossier": _o("dossier", "досье на", "dossier"),
    "revolver": _o("revolver", "стреляю в", "revolver"),
    "shuriken": _o("shuriken", "сюрикены", "shuriken", case="nom"),
    # Day abilities (thread).
    "medic_heal": _o("medic_heal", "медик", "heal", case="nom"),
    "shock": _o("shock", "бью током", "shock"),
    "shakedown": _o("shakedown", "отжимаю у", "shake down"),
    "curse": _o("curse", "проклинаю", "curse"),
    "plagiarize": _o("plagiarize", "плагиат", "plagiarize", case="nom"),
    "loot": _o("loot", "обыскиваю", "loot"),
}


def _special(action: str, p: str, q: str, psycho: bool) -> UsageSpec | None:
    """Orders with more than a player: their hint and example name what else they take."""
    if action == "disguise":
        return _with(
            action, ("маскирую", "disguise"),
            ("<игрок> под <роль>", "<player> as <role>"),
            ([{"name": p}, "под", "комиссара"], [{"name": p}, "as", "commissar"]),
        )  # fmt: skip
    if action == "disinformation":
        return _with(
            action, ("дезинформация", "disinformation"),
            ("<игрок> <ХП>", "<player> <HP>"),
            ([{"name": p, "case": "nom"}, "50"], [{"name": p}, "50"]),
        )  # fmt: skip
    if action == "message":
        return _with(
            action, ("послание", "message"),
            ("<кому> <жертва>", "<to whom> <victim>"),
            ([{"name": p, "case": "nom"}, {"name": q, "case": "nom"}], [{"name": p}, {"name": q}]),
        )  # fmt: skip
    if action == "dual_pistols":
        return _with(
            action, ("парные пистолеты", "dual pistols"),
            ("<игрок> и <игрок>", "<player> and <player>"),
            ([{"name": p, "case": "nom"}, "и", {"name": q, "case": "nom"}],
             [{"name": p}, "and", {"name": q}]),
        )  # fmt: skip
    if action == "kill":
        return _with(
            action, ("убийство", "kill"),
            ("<игрок> <роль>", "<player> <role>"),
            ([{"name": p, "case": "nom"}, "киллер"], [{"name": p}, "killer"]),
        )  # fmt: skip
    if action == "knife":
        if not psycho:
            return _o("knife", "нож", "knife", case="nom")
        return _with(
            action, ("нож", "knife"),
            ("<игрок> <урон>", "<player> <damage>"),
            ([{"name": p, "case": "nom"}, "40"], [{"name": p}, "40"]),
        )  # fmt: skip
    if action == "observation":
        return _with(
            action, ("наблюдение", "observe"),
            ("<способность>", "<ability>"),
            (["катана"], ["katana"]),
        )  # fmt: skip
    if action == "rest":
        return _with(
            action, ("отдых", "rest"),
            ("<способность>", "<ability>"),
            (["лечение"], ["heal"]),
        )  # fmt: skip
    if action == "extra_votes":
        return UsageSpec(
            OrderKind.VOTE, "extra_votes",
            phrase={"ru": "голос за", "en": "vote"},
            hint={"ru": "<игрок> +<1–3>", "en": "<player> +<1–3>"},
            example={"ru": [{"name": p}, "+2"], "en": [{"name": p}, "+2"]},
            what={"ru": "голос с дополнительными голосами", "en": "a vote with extra votes"},
        )  # fmt: skip
    return None


VOTE = UsageSpec(OrderKind.VOTE, "vote", phrase={"ru": "голос за", "en": "vote"})
NO_LYNCH = UsageSpec(
    OrderKind.NO_LYNCH,
    "no_lynch",
    what={"ru": "голос за то, чтобы никого не казнить", "en": "vote to execute nobody"},
)
UNVOTE = UsageSpec(
    OrderKind.UNVOTE, "unvote", what={"ru": "снять свой голос", "en": "withdraw your vote"}
)
CANCEL = UsageSpec(
    OrderKind.CANCEL,
    "cancel",
    what={"ru": "отменить свои приказы этой ночи", "en": "cancel your orders of this night"},
)
HELP = UsageSpec(OrderKind.REQUEST, "help_request", what={"ru": "этот список", "en": "this list"})


def _others(state: GameState, player: str) -> list[str]:
    others = [p.name for p in state.players if p.name != player and alive(p)]
    return others or [player]


def spec_of(state: GameState, player: str, action: str, names: Sequence[str]) -> UsageSpec | None:
    p = state.player(player)
    first, second = names[0], names[1 % len(names)]
    if action == "vote":
        return VOTE
    return _special(action, first, second, p.role == "psycho") or _PLAIN.get(action)


def action_usage(state: GameState, player: str, action: str) -> dict[str, Any] | None:
    """One order's form, for a refusal («Нужно: наблюдение <способность>, например: …»)."""
    if not state.has_player(player):
        return None
    names = _others(state, player)
    spec = spec_of(state, player, action, names)
    return None if spec is None else usage(GRAMMAR, spec, target=names[0])


def _list(state: GameState, player: str, actions: Sequence[str]) -> list[dict[str, Any]]:
    names = _others(state, player)
    out = []
    for i, action in enumerate(actions):
        turn = names[i % len(names) :] + names[: i % len(names)]
        spec = spec_of(state, player, action, turn)
        if spec is not None:
            out.append(usage(GRAMMAR, spec, target=turn[0]))
    return out


def night_orders(state: GameState, player: str) -> list[dict[str, Any]]:
    """Orders by PM for the night: the secret role's abilities, cancel, help."""
    found = _list(state, player, night_actions(state.player(player)))
    found.append(usage(GRAMMAR, CANCEL))
    found.append(usage(GRAMMAR, HELP))
    return found


def day_orders(state: GameState, player: str) -> list[dict[str, Any]]:
    """Orders in the thread by day: votes and the visible role's abilities."""
    names = _others(state, player)
    found = [usage(GRAMMAR, VOTE, target=names[0])]
    found.append(usage(GRAMMAR, NO_LYNCH))
    found.append(usage(GRAMMAR, UNVOTE))
    found.extend(_list(state, player, day_actions(state.player(player))))
    return found


SHOW_FORM = frozenset({w.UNKNOWN_TARGET, w.AMBIGUOUS_TARGET, w.BAD_PARAMETER, "too_many_targets"})
SHOW_LIST = frozenset({w.UNKNOWN_COMMAND, w.ACTION_NOT_AVAILABLE})


def refusal(state: GameState, player: str, action: str, code: str) -> dict[str, Any]:
    """The fields of an `order_rejected` receipt: what, why, and how to write it."""
    fields: dict[str, Any] = {"action": action, "reason": code}
    if not state.has_player(player):
        return fields
    if code in SHOW_FORM:
        form = action_usage(state, player, action)
        if form is not None:
            fields["usage"] = form
    elif code in SHOW_LIST:
        fields["orders"] = night_orders(state, player)
        fields["day_orders"] = day_orders(state, player)
    return fields

"""What a «12 комнат» player can write (§11), for the role PM, the «помощь» reply and
refusals: forms from the grammar (`engine.core.usage`), examples naming players of the game.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.core import warnings as w
from engine.core.model import GameState, PlayerState
from engine.core.orders import OrderKind
from engine.core.usage import Part, UsageSpec, usage
from rulesets.twelve_rooms import codes as c
from rulesets.twelve_rooms.grammar import GRAMMAR
from rulesets.twelve_rooms.roles import ACTIVE, ULTIMATE
from rulesets.twelve_rooms.state import alive, is_mafia, skills_of


def _o(
    action: str,
    ru: str,
    en: str,
    *,
    case: str | None = None,
    hint: tuple[str, str] | None = None,
    example: tuple[Sequence[Part], Sequence[Part]] | None = None,
    what: tuple[str, str] | None = None,
    kind: OrderKind = OrderKind.ORDER,
) -> UsageSpec:
    return UsageSpec(
        kind,
        action,
        phrase={"ru": ru, "en": en},
        hint={"ru": hint[0], "en": hint[1]} if hint else {},
        example={"ru": list(example[0]), "en": list(example[1])} if example else {},
        what={"ru": what[0], "en": what[1]} if what else {},
        case=case,
    )


def _two(action: str, ru: str, en: str, p: str, q: str) -> UsageSpec:
    return _o(
        action, ru, en,
        hint=("<игрок> и <игрок>", "<player> and <player>"),
        example=([{"name": p, "case": "acc"}, "и", {"name": q, "case": "acc"}],
                 [{"name": p}, "and", {"name": q}]),
    )  # fmt: skip


def skill_spec(skill: str, p: str, q: str) -> UsageSpec | None:
    """The form of one skill; `p` and `q` name players for the example."""
    simple = {
        "rest": ("блокирую", "block", None),
        "stay_put": ("держу", "hold", None),
        "deceit": ("обман", "deceit", None),
        "therapy": ("терапия", "therapy", None),
        "sow_doubt": ("зародить сомнения", "sow doubt", "dat"),
        "support": ("лечу", "heal", None),
        "injection": ("укол", "injection", "dat"),
        "guise": ("личина", "guise", None),
        "route": ("путевой лист", "route", None),
        "interrogation": ("допрашиваю", "interrogate", None),
    }
    if skill in simple:
        ru, en, case = simple[skill]
        return _o(skill, ru, en, case=case)
    if skill == "swap":
        return _two(skill, "меняю", "swap", p, q)
    if skill == "papers":
        return _two(skill, "сравниваю", "compare", p, q)
    if skill == "i_said":
        return _o(
            skill, "я сказал", "i said",
            hint=("<игрок> за <игрок>", "<player> for <player>"),
            example=([{"name": p, "case": "nom"}, "за", {"name": q, "case": "acc"}],
                     [{"name": p}, "for", {"name": q}]),
        )  # fmt: skip
    if skill == "hush":
        return _o(skill, "молчать", "hush", hint=("комната <номер>", "room <number>"),
                  example=(["комната", "5"], ["room", "5"]))  # fmt: skip
    if skill == "who_is_here":
        return _o(skill, "кто здесь", "who is here", hint=("<номер комнаты>", "<room number>"),
                  example=(["5"], ["5"]))  # fmt: skip
    if skill == "door_cameras":
        return _o(skill, "камеры", "cameras", hint=("<дверь> и <дверь>", "<door> and <door>"),
                  example=(["1-2", "и", "5-6"], ["1-2", "and", "5-6"]))  # fmt: skip
    if skill in ("absolution", "acquaintance"):
        ru, en = {"absolution": ("всепрощение", "absolution"),
                  "acquaintance": ("знакомство", "acquaintance")}[skill]  # fmt: skip
        return _o(skill, ru, en, what=("один раз за игру", "once a game"))
    return None


MOVES = [
    _o("move", "иду вверх", "go up", what=("шаг в соседнюю комнату: вверх, вниз, влево или "
       "вправо", "a step to the next room: up, down, left or right")),
    _o("move", "остаюсь", "stay", what=("остаться в своей комнате", "stay in your room")),
]  # fmt: skip
VOTE = _o("vote", "голос за", "vote", kind=OrderKind.VOTE)
NO_LYNCH = _o(
    "no_lynch", "не судить", "no lynch",
    what=("голос за то, чтобы никого не судить", "vote to lynch nobody"), kind=OrderKind.NO_LYNCH,
)  # fmt: skip
GUESS = _o(
    "guess_room", "угадываю комнату", "guess room",
    hint=("<номер>", "<number>"), example=(["7"], ["7"]),
    what=("угадать, где вы, если не знаете", "guess where you are when you do not know"),
)  # fmt: skip
ANON = _o(
    "anon", "анонимка:", "anon:",
    hint=("<текст>", "<text>"), example=(["всем", "привет"], ["hello", "all"]),
    what=("анонимное сообщение в тему", "an anonymous message to the thread"),
)  # fmt: skip
HELP = _o("help_request", "помощь", "help", what=("этот список", "this list"),
          kind=OrderKind.REQUEST)  # fmt: skip


def _others(state: GameState, player: str) -> list[str]:
    others = [p.name for p in state.players if p.name != player and alive(p)]
    return others or [player]


def _specs(state: GameState, p: PlayerState) -> list[UsageSpec]:
    names = _others(state, p.name)
    first, second = names[0], names[1 % len(names)]
    specs = [*MOVES, VOTE, NO_LYNCH]
    from rulesets.twelve_rooms.roles import SKILLS

    for skill in skills_of(p):
        if SKILLS[skill].kind not in (ACTIVE, ULTIMATE):
            continue
        spec = skill_spec(skill, first, second)
        if spec is not None:
            specs.append(spec)
    if is_mafia(p):
        specs.append(_o("mafkill", "мафкилл", "mafkill",
                        what=("игрок в вашей комнате; совершает кто-то один из команды",
                              "a player in your room; one member of the team does it")))  # fmt: skip
    if int(p.fields.get("vests", 0)) > 0:
        specs.append(_o("use_vest", "отдаю броник", "use vest", case="dat"))
    specs += [GUESS, ANON, HELP]
    return specs


def orders_of(state: GameState, player: str) -> list[dict[str, Any]]:
    """Every order `player` can send, each with its form and an example."""
    p = state.player(player)
    names = _others(state, player)
    out = []
    for i, spec in enumerate(_specs(state, p)):
        out.append(usage(GRAMMAR, spec, target=names[i % len(names)]))
    return out


def action_usage(state: GameState, player: str, action: str) -> dict[str, Any] | None:
    if not state.has_player(player):
        return None
    names = _others(state, player)
    for spec in _specs(state, state.player(player)):
        if spec.action == action:
            return usage(GRAMMAR, spec, target=names[0])
    return None


SHOW_FORM = frozenset({w.UNKNOWN_TARGET, w.AMBIGUOUS_TARGET, w.BAD_PARAMETER, c.INVALID_ROOM})
SHOW_LIST = frozenset({w.UNKNOWN_COMMAND, w.ACTION_NOT_AVAILABLE})


def refusal_extra(state: GameState, player: str, action: str, code: str) -> dict[str, Any]:
    """What a refusal adds to its receipt: the order's form, or the player's list."""
    if not state.has_player(player):
        return {}
    if code in SHOW_FORM:
        form = action_usage(state, player, action)
        return {"usage": form} if form is not None else {}
    if code in SHOW_LIST:
        return {"orders": orders_of(state, player)}
    return {}

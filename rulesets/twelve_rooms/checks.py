"""Checking one skill order, the mafia kill, a vest or an inheritance at receipt (§2.8).

Everything is judged on the state at the start of the turn: rooms do not change before the
deadline. Rule 7 for a skill resolving after movement is judged at resolution (§5.6).
"""

from __future__ import annotations

from typing import Any

from engine.core import warnings as w
from engine.core.model import GameState, PlayerState
from engine.core.orders import Order
from engine.core.ruleset import PhaseInputs
from rulesets.twelve_rooms import codes as c
from rulesets.twelve_rooms.roles import (
    ACTIVE,
    DOORS,
    I_SAID,
    NO_LYNCH,
    PASSIVE,
    PLAYER,
    ROOM,
    SKILLS,
    TWO_PLAYERS,
    ULTIMATE,
)
from rulesets.twelve_rooms.state import (
    alive,
    grid_of,
    is_mafia,
    role_of,
    role_state,
    skills_of,
    ult_used,
)
from rulesets.twelve_rooms.words import doors_of, normal_doors, room_number


class Reject(Exception):
    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


def available(p: PlayerState, inputs: PhaseInputs) -> list[str]:
    """The player's skills now, with one inherited earlier in this same turn (§6.1)."""
    skills = skills_of(p)
    chosen = inputs.orders.get(p.name, {}).get("inherit")
    if chosen is not None:
        skills.append(str(chosen.args["skill"]))
    return skills


def actives_sent(p: PlayerState, inputs: PhaseInputs) -> int:
    return sum(
        1
        for slot in inputs.orders.get(p.name, {})
        if slot in SKILLS and SKILLS[slot].kind == ACTIVE
    )


def check_skill(state: GameState, inputs: PhaseInputs, order: Order) -> Order:
    """The order as it will be registered, or `Reject` with the reason."""
    action = order.action or ""
    p = state.player(order.player)
    if action == "mafkill":
        return _mafkill(state, inputs, p, order)
    if action == "use_vest":
        if int(p.fields.get("vests", 0)) <= 0:
            raise Reject(c.NO_VEST)
        target = _one(state, order)
        return order.with_(targets=(target,), args={}, candidates=())
    if action == "inherit":
        return _inherit(state, p, order)
    skill = SKILLS[action]
    if skill.kind == PASSIVE or action not in available(p, inputs):
        raise Reject(w.ACTION_NOT_AVAILABLE)
    if action == "support" and role_state(p).get("support_lost"):
        raise Reject(c.SKILL_LOST)
    if skill.kind == ULTIMATE and ult_used(p, action):
        raise Reject(w.NO_USES_LEFT)
    if skill.kind == ACTIVE:
        limit = role_of(p).max_active
        if limit is not None and actives_sent(p, inputs) >= limit:
            raise Reject(c.TOO_MANY_SKILLS)
    args: dict[str, Any] = {}
    targets: tuple[str, ...] = ()
    if skill.target == PLAYER:
        targets = (_one(state, order),)
    elif skill.target == TWO_PLAYERS:
        targets = _two(state, order)
    elif skill.target == I_SAID:
        targets, args["vote_for"] = _i_said(state, inputs, order)
    elif skill.target == ROOM:
        number = room_number(order)
        if number is None or not grid_of(state).valid(number):
            raise Reject(c.INVALID_ROOM)
        args["room"] = number
    elif skill.target == DOORS:
        args["doors"] = [list(d) for d in _doors(state, order)]
    if targets and not skill.self_ok and p.name in targets:
        raise Reject(w.TARGET_SELF)
    if action == "therapy" and state.player(targets[0]).faction != p.faction:
        raise Reject(w.INVALID_TARGET)
    if action == "swap":
        _swap_limits(state, targets)
    last = role_state(p).get("last_targets", {}).get(action)
    if skill.not_twice and targets and last == targets[0]:
        raise Reject(c.SAME_TARGET_TWICE)
    if is_mafia(p) and not skill.after_movement:
        rule_seven(state, p, targets)
    return order.with_(targets=targets, args=args, candidates=())


def rule_seven(state: GameState, p: PlayerState, targets: tuple[str, ...]) -> None:
    """A mafia member's АС on a mafia member needs both in one room (§5.6)."""
    for name in targets:
        t = state.player(name)
        if name != p.name and is_mafia(t) and t.fields["room"] != p.fields["room"]:
            raise Reject(c.NOT_SAME_ROOM)


def _known(state: GameState, name: str) -> PlayerState:
    if not state.has_player(name):
        raise Reject(w.UNKNOWN_TARGET)
    t = state.player(name)
    if not alive(t):
        raise Reject(w.TARGET_NOT_IN_PLAY)
    return t


def _one(state: GameState, order: Order) -> str:
    if len(order.targets) != 1:
        raise Reject(w.BAD_PARAMETER)
    return _known(state, order.targets[0]).name


def _two(state: GameState, order: Order) -> tuple[str, ...]:
    if len(order.targets) < 2 and order.args.get("words"):
        raise Reject(w.UNKNOWN_TARGET)  # «обмен Васю и Хрюшу»: the second is nobody's name
    if len(order.targets) != 2 or order.targets[0] == order.targets[1]:
        raise Reject(w.BAD_PARAMETER)
    return tuple(_known(state, n).name for n in order.targets)


def _i_said(
    state: GameState, inputs: PhaseInputs, order: Order
) -> tuple[tuple[str, ...], list[str]]:
    """`targets: [V1, V2], vote_for: [T1, T2]`, or the parsed «Вася за Петю, Маша за Колю»."""
    given = order.args.get("vote_for")
    if given is not None:
        voters, choices = list(order.targets), [str(t) for t in given]
    elif len(order.targets) == 4:
        voters, choices = list(order.targets[0::2]), list(order.targets[1::2])
    else:
        raise Reject(w.BAD_PARAMETER)
    if len(voters) != 2 or len(choices) != 2 or voters[0] == voters[1]:
        raise Reject(w.BAD_PARAMETER)
    for voter in voters:
        _known(state, voter)
    for choice in choices:
        if choice == NO_LYNCH:
            if inputs.phase.id.number not in state.options["no_lynch_turns"]:
                raise Reject(w.INVALID_TARGET)
        else:
            _known(state, choice)
    return tuple(voters), choices


def _doors(state: GameState, order: Order) -> list[tuple[int, int]]:
    pairs = doors_of(order)
    if not pairs or len(pairs) > 2:
        raise Reject(w.BAD_PARAMETER)
    grid = grid_of(state)
    for a, b in pairs:
        if not grid.valid(a) or not grid.valid(b):
            raise Reject(c.INVALID_ROOM)
        if not grid.adjacent(a, b):
            raise Reject(c.NOT_ADJACENT)
    return normal_doors(pairs)


def active_pairs(state: GameState) -> list[list[str]]:
    """Swapped pairs that still count: both players in the game (§6.1 Обмен)."""
    pairs: list[list[str]] = state.data.get("swaps", [])
    return [pair for pair in pairs if all(alive(state.player(n)) for n in pair)]


def _swap_limits(state: GameState, targets: tuple[str, ...]) -> None:
    active = active_pairs(state)
    wanted = set(targets)
    if any(set(pair) == wanted for pair in active):
        return  # swapping an active pair again reverses it
    if any(wanted & set(pair) for pair in active):
        raise Reject(c.SWAP_BUSY)
    if len(active) >= int(state.options["max_swap_pairs"]):
        raise Reject(c.SWAP_LIMIT)


def _mafkill(state: GameState, inputs: PhaseInputs, p: PlayerState, order: Order) -> Order:
    if not is_mafia(p):
        raise Reject(w.ACTION_NOT_AVAILABLE)
    taken = sum(1 for slots in inputs.orders.values() if "mafkill" in slots)
    if taken >= int(state.options["mafkills_per_turn"]):
        raise Reject(c.MAFKILL_TAKEN)
    target = _one(state, order)
    t = state.player(target)
    if target == p.name:
        raise Reject(w.TARGET_SELF)
    if is_mafia(t) and not state.options["mafia_teamkill"]:
        raise Reject(c.TEAMKILL)
    if t.fields["room"] != p.fields["room"]:
        raise Reject(c.NOT_SAME_ROOM)
    return order.with_(targets=(target,), args={}, candidates=())


def _inherit(state: GameState, p: PlayerState, order: Order) -> Order:
    if "inheritance" not in role_of(p).skills:
        raise Reject(w.ACTION_NOT_AVAILABLE)
    source = order.args.get("from") or order.target
    offers = role_state(p).get("offers", [])
    offer = next((o for o in offers if o["from"] == source), None)
    if offer is None:
        raise Reject(c.NO_INHERIT_OFFER)
    wanted = str(order.args.get("skill") or order.form or "")
    offered = list(offer["skills"])
    if wanted in ("ac1", "ac2"):
        index = 0 if wanted == "ac1" else 1
        wanted = offered[index] if index < len(offered) else ""
    if wanted not in offered:
        raise Reject(w.BAD_PARAMETER)
    return order.with_(targets=(), args={"from": offer["from"], "skill": wanted}, candidates=())

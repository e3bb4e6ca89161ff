"""Intake of yakuza commands: validation and registration as they arrive (§9.1, §10.1, §14.5).

Night orders come by PM, day votes and day abilities in the thread. Each order is checked
against the state at the start of the phase (statuses only change at evaluations), then
registered in the phase's ledger or rejected with a warning and a private `order_rejected`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from engine.core import warnings as w
from engine.core.events import Event
from engine.core.model import GameState, PlayerState
from engine.core.numbers import whole_number
from engine.core.orders import Channel, Order, OrderKind
from engine.core.ruleset import IntakeResult, PhaseInputs
from engine.core.warnings import N_, ParseWarning
from rulesets.yakuza.help import day_orders, night_orders, refusal
from rulesets.yakuza.roles import (
    ACTIONS,
    COMA,
    DAY_ACTIONS,
    MAFIA,
    NO_LYNCH,
    NOT_PLAGIARIZABLE,
    OBSERVABLE,
    ROLES,
    TEAM_ROLES,
    YAKUZA,
)
from rulesets.yakuza.state import (
    alive,
    day_actions,
    has_trait,
    is_extra,
    may_act_in,
    night_actions,
)

CANNOT_ACT = "cannot_act"
CANNOT_VOTE = "cannot_vote"
TOO_MANY_TARGETS = "too_many_targets"
MULTIPLE_ACTIONS = "multiple_actions"

PROXY_REPLACED = "proxy_replaced"
TAGGED = "tagged"
"""`inputs.data` / `state.data` key: night number → player → slot → an order for that night
sent with a phase tag (D7)."""
PROXY = "proxy"
"""`inputs.data` key: member → slot → the order a faction-mate gave for him tonight (D6)."""

MAIN = "main"
"""The ledger slot of a player's one main action; extras use their action id."""

_MESSAGES = {
    w.LATE: N_("sent after the deadline"),
    w.SENDER_NOT_IN_PLAY: N_("the sender is dead"),
    w.TARGET_NOT_IN_PLAY: N_("the target is not alive"),
    w.UNKNOWN_TARGET: N_("the target is not on the roster"),
    w.ACTION_NOT_AVAILABLE: N_("the sender's roles do not have this action now"),
    w.INVALID_TARGET: N_("this target is forbidden by a rule"),
    w.NO_USES_LEFT: N_("the ability is spent"),
    w.UNKNOWN_COMMAND: N_("not a request of this game"),
    w.NOT_ALLOWED: N_("a precondition of the rule is not met"),
    w.BAD_PARAMETER: N_("a missing or out-of-range parameter"),
    w.THREAD_ORDER_IGNORED: N_("night orders count only by PM"),
    w.PM_VOTE_IGNORED: N_("votes and day abilities count only in the thread"),
    CANNOT_ACT: N_("the sender's status forbids it"),
    CANNOT_VOTE: N_("a player in coma cannot vote"),
    TOO_MANY_TARGETS: N_("more targets than allowed"),
    MULTIPLE_ACTIONS: N_("several main actions in one message; the last one is kept"),
}

_TIMES = ("x", "х", "×", "*")
"""What opens a multiplier («x3», «х3», «×3», «*3»)."""


class Reject(Exception):
    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


def words_of(order: Order) -> list[str]:
    return [str(x) for x in order.args.get("words", ())]


def number_param(order: Order, key: str = "amount") -> int | None:
    """`amount: 3` (structured) or the first number among the words («голос Вася +3»); a
    number too long to be one the rules allow reads as `engine.core.numbers.CAP`."""
    value = order.args.get(key)
    if value is None:
        for word in words_of(order):
            found = whole_number(word)
            if found is not None:
                return found
        return None
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    return whole_number(str(value).strip()) if isinstance(value, str) else None


def word_param(order: Order, key: str, vocabulary: Mapping[str, str]) -> str | None:
    """An id given structurally (`role: killer`) or as a word of the post («под комиссара»)."""
    value = order.args.get(key)
    if value is not None:
        text = str(value).strip().casefold()
        return vocabulary.get(text, text)
    words = words_of(order)
    for size in (3, 2, 1):
        for i in range(len(words) - size + 1):
            hit = _lookup(" ".join(words[i : i + size]), vocabulary)
            if hit:
                return hit
    return None


def _lookup(text: str, vocabulary: Mapping[str, str]) -> str | None:
    if text in vocabulary:
        return vocabulary[text]
    for stem, value in vocabulary.items():
        if len(stem) >= 4 and text.startswith(stem) and len(text) - len(stem) <= 3:
            return value
    return None


class Intake:
    """Takes one command at a time into a phase's ledger."""

    def __init__(self, state: GameState, inputs: PhaseInputs) -> None:
        from rulesets.yakuza.grammar import ABILITY_WORDS, ROLE_WORDS

        self.state = state
        self.inputs = inputs
        self.options = state.options
        self.out = IntakeResult()
        self.role_words = ROLE_WORDS
        self.ability_words = ABILITY_WORDS

    @property
    def night(self) -> bool:
        return self.inputs.phase.id.kind == "night"

    # -- helpers ---------------------------------------------------------------------------

    def ack(self, player: str, type: str, **fields: Any) -> None:
        if self.options["ack_commands"]:
            self.out.events.append(Event.private(player, type, **fields))

    def warn(self, order: Order, code: str, *, action: str | None, accepted: bool = False) -> None:
        self.out.warnings.append(
            ParseWarning(
                code=code,
                message=_MESSAGES.get(code, code),
                player=order.player,
                source=order.source,
                action=action,
                accepted=accepted,
            )
        )

    def reject(self, order: Order, code: str, action: str | None = None) -> IntakeResult:
        label = action or _label(order)
        self.warn(order, code, action=label)
        if self.state.has_player(order.player):
            fields = refusal(self.state, order.player, label, code)
            self.out.events.append(Event.private(order.player, "order_rejected", **fields))
        return self.out

    def name(self, raw: Any) -> str | None:
        wanted = str(raw).strip().casefold().replace("ё", "е")
        for n in self.state.names:
            if n.casefold().replace("ё", "е") == wanted:
                return n
        return None

    def _new_post(self, order: Order, key: str) -> bool:
        """True when this order opens a new post/PM of the sender (D4, D5)."""
        post = order.source.post_id if order.source else None
        if post is None:
            return False
        seen: dict[str, str] = self.inputs.data.setdefault(key, {})
        fresh = seen.get(order.player) != post
        seen[order.player] = post
        return fresh

    # -- entry point -----------------------------------------------------------------------

    def take(self, order: Order) -> IntakeResult:
        if self.inputs.phase.is_late(order.at):
            return self.reject(order, w.LATE)
        if not self.state.has_player(order.player) or not alive(self.state.player(order.player)):
            return self.reject(order, w.SENDER_NOT_IN_PLAY)
        if order.kind is OrderKind.REQUEST and order.action == "help_request":
            # Asked in the thread, «помощь» is talk; in a PM it is always answered.
            if order.channel is Channel.PM:
                self.out.events.append(
                    Event.private(
                        order.player,
                        "orders_help",
                        orders=night_orders(self.state, order.player),
                        day_orders=day_orders(self.state, order.player),
                    )
                )
            return self.out
        if order.kind is OrderKind.REQUEST:
            return self.reject(order, w.UNKNOWN_COMMAND)
        if order.args.get("phase") is not None:
            return self.tagged(order, str(order.args["phase"]))
        if order.args.get("proxy_for") is not None:
            return self.proxy(order, str(order.args["proxy_for"]))
        structured = order.source is None
        wanted = order.candidates or ((order.action,) if order.action else ())
        is_day = order.is_vote or (bool(wanted) and all(a in DAY_ACTIONS for a in wanted))
        if order.kind is OrderKind.ORDER and not structured and wanted:
            # «лечение Вася»: a day heal in the thread, a night heal by PM.
            if order.channel is Channel.THREAD and any(a in DAY_ACTIONS for a in wanted):
                is_day = True
                wanted = tuple(a for a in wanted if a in DAY_ACTIONS)
            elif order.channel is Channel.PM and any(a not in DAY_ACTIONS for a in wanted):
                is_day = False
                wanted = tuple(a for a in wanted if a not in DAY_ACTIONS)
        if is_day:
            if not structured and order.channel is Channel.PM:
                self.warn(order, w.PM_VOTE_IGNORED, action=_label(order))
                return self.out
            if self.night:
                return self.reject(order, w.ACTION_NOT_AVAILABLE)
            if order.kind is OrderKind.CANCEL:
                return self.cancel(order, wanted, day=True)
            return self.vote(order) if order.is_vote else self.day_order(order, wanted)
        if not structured and order.channel is Channel.THREAD:
            self.warn(order, w.THREAD_ORDER_IGNORED, action=_label(order))
            return self.out
        if order.kind is OrderKind.CANCEL:
            return self.cancel(order, wanted, day=False)
        return self.night_order(order, wanted)

    # -- phase tags and proxies (§10.1, §13, D6, D7) ---------------------------------------

    def tagged(self, order: Order, phase: str) -> IntakeResult:
        """«ночь 3: …»: for the current night (or, by day, the next one) as if untagged; for
        a later night kept until then; for a night that is over, `late`."""
        plain = order.with_(args={k: v for k, v in order.args.items() if k != "phase"})
        words = phase.split()
        number = whole_number(words[1]) if len(words) == 2 else None
        if number is None:
            return self.reject(order, w.BAD_PARAMETER)
        current = self.inputs.phase.id
        upcoming = current.number if current.kind == "night" else current.number + 1
        if number < upcoming:
            return self.reject(plain, w.LATE)
        if number == upcoming:
            return self.take(plain)
        if plain.channel is Channel.THREAD:
            self.warn(plain, w.THREAD_ORDER_IGNORED, action=_label(plain))
            return self.out
        if plain.is_vote or plain.args.get("proxy_for") is not None:
            return self.reject(plain, w.NOT_ALLOWED)
        p = self.state.player(order.player)
        wanted = plain.candidates or ((plain.action,) if plain.action else ())
        action = next((a for a in wanted if a in night_actions(p)), None)
        if action is None:
            return self.reject(plain, w.ACTION_NOT_AVAILABLE, action=wanted[0] if wanted else None)
        later: dict[str, Any] = self.inputs.data.setdefault(TAGGED, {})
        slots = later.setdefault(str(number), {}).setdefault(order.player, {})
        slots[action if is_extra(p, action) else MAIN] = {
            "action": action,
            "targets": list(plain.targets),
            "args": {k: list(v) if isinstance(v, tuple) else v for k, v in plain.args.items()},
        }
        self.ack(order.player, "order_accepted", action=action, targets=list(plain.targets),
                 night=number)  # fmt: skip
        return self.out

    def proxy(self, order: Order, member_name: str) -> IntakeResult:
        """«за Петю: катана Вася» (D6): a faction-mate's night order for a member, by PM and
        at night only; taken when the member sends nothing himself (his own order wins)."""
        plain = order.with_(args={k: v for k, v in order.args.items() if k != "proxy_for"})
        if member_name == order.player:
            return self.take(plain)
        if plain.channel is Channel.THREAD:
            self.warn(plain, w.THREAD_ORDER_IGNORED, action=_label(plain))
            return self.out
        if not self.options["proxy_orders"] or not self.night or plain.is_vote:
            return self.reject(plain, w.NOT_ALLOWED)  # day-time proxies are refused
        sender = self.state.player(order.player)
        if not self.state.has_player(member_name):
            return self.reject(plain, w.UNKNOWN_TARGET)
        member = self.state.player(member_name)
        if not alive(member):
            return self.reject(plain, w.TARGET_NOT_IN_PLAY)
        if sender.faction != member.faction or sender.faction not in (MAFIA, YAKUZA):
            return self.reject(plain, w.NOT_ALLOWED)
        if self.inputs.orders.get(member_name):
            return self.reject(plain, w.NOT_ALLOWED)  # the member gave his own orders
        wanted = plain.candidates or ((plain.action,) if plain.action else ())
        action = next((a for a in wanted if a in night_actions(member)), None)
        if action is None:
            return self.reject(plain, w.ACTION_NOT_AVAILABLE, action=wanted[0] if wanted else None)
        mine = plain.with_(player=member_name, action=action, candidates=())
        try:
            registered = check_night(self.state, member, mine)
        except Reject as exc:
            return self.reject(plain, exc.code, action=action)
        registered = registered.with_(args={**registered.args, "proxy_by": order.player})
        proxies: dict[str, dict[str, Order]] = self.inputs.data.setdefault(PROXY, {})
        proxies.setdefault(member_name, {})[action if is_extra(member, action) else MAIN] = (
            registered
        )
        self.inputs.log.append(registered)
        targets = list(registered.targets)
        self.ack(order.player, "order_accepted", action=action, targets=targets,
                 proxy_for=member_name)  # fmt: skip
        self.ack(member_name, "order_accepted", action=action, targets=targets,
                 proxy_by=order.player)  # fmt: skip
        return self.out

    # -- day: votes (§9.2) -----------------------------------------------------------------

    def _day_post(self, order: Order, *, vote: bool) -> None:
        if self.options["day_commands"] == "per_kind":
            if self._new_post(order, "post_vote" if vote else "post_action"):
                if vote:
                    self.inputs.votes.pop(order.player, None)
                else:
                    self.inputs.orders.pop(order.player, None)
        elif self._new_post(order, "post"):
            self.inputs.votes.pop(order.player, None)
            self.inputs.orders.pop(order.player, None)

    def vote(self, order: Order) -> IntakeResult:
        p = self.state.player(order.player)
        if p.fields.get("status") == COMA:
            return self.reject(order, CANNOT_VOTE, action="vote")
        self._day_post(order, vote=True)
        if order.kind is OrderKind.UNVOTE:
            self.inputs.votes.pop(order.player, None)
            self.inputs.log.append(order)
            return self.out
        if order.kind is OrderKind.NO_LYNCH:
            vote = order.with_(kind=OrderKind.NO_LYNCH, targets=(NO_LYNCH,))
        else:
            target = order.target
            if len(set(order.targets)) > 1:  # «голос за Васю, Петю»: whom? The player is told.
                return self.reject(order, TOO_MANY_TARGETS, action="vote")
            if target is None or not self.state.has_player(target):
                return self.reject(order, w.UNKNOWN_TARGET, action="vote")
            if not alive(self.state.player(target)):
                return self.reject(order, w.TARGET_NOT_IN_PLAY, action="vote")
            vote = order.with_(targets=(target,))
        self.inputs.votes[order.player] = vote
        self.inputs.log.append(vote)
        extra = number_param(order)
        if extra is not None and order.kind is OrderKind.VOTE and order.source is not None:
            # «голос Вася +3»: the revolutionary's extra votes ride on his vote.
            self.day_order(
                order.with_(kind=OrderKind.ORDER, action="extra_votes", args={"amount": extra}),
                ("extra_votes",),
                fresh=False,
            )
        return self.out

    # -- day: abilities (§8, §9.4) ---------------------------------------------------------

    def day_order(self, order: Order, wanted: tuple[str, ...], fresh: bool = True) -> IntakeResult:
        p = self.state.player(order.player)
        mine = day_actions(p)
        action = next((a for a in wanted if a in mine), None)
        if action is None:
            return self.reject(order, w.ACTION_NOT_AVAILABLE, action=wanted[0] if wanted else None)
        if p.fields.get("status") == COMA:
            return self.reject(order, CANNOT_ACT, action=action)
        if fresh:
            self._day_post(order, vote=False)
        try:
            registered = self._check_day(p, order.with_(action=action, candidates=()))
        except Reject as exc:
            return self.reject(order, exc.code, action=action)
        self.inputs.orders.setdefault(order.player, {})[action] = registered
        self.inputs.log.append(registered)
        return self.out

    def _check_day(self, p: PlayerState, order: Order) -> Order:
        action = order.action or ""
        if action == "extra_votes":
            amount = number_param(order)
            if amount is None or not 1 <= amount <= 3:
                raise Reject(TOO_MANY_TARGETS if amount and amount > 3 else w.BAD_PARAMETER)
            return order.with_(targets=(), args={"amount": amount})
        target = self._one_target(order)
        t = self.state.player(target)
        if action == "loot":
            if p.fields.get("looted"):
                raise Reject(w.NO_USES_LEFT)
            if has_trait(t, "plagiarist") and t.fields.get("visible_role") == "plagiarist":
                raise Reject(w.INVALID_TARGET)
            return order.with_(targets=(target,))  # dead now or by the execution: checked later
        if not alive(t):
            raise Reject(w.TARGET_NOT_IN_PLAY)
        if action == "plagiarize":
            if target == p.name or target in p.fields.get("plagiarized", []):
                raise Reject(w.INVALID_TARGET)
            if t.fields.get("visible_role") in NOT_PLAGIARIZABLE:
                raise Reject(w.INVALID_TARGET)
        return order.with_(targets=(target,))

    def _one_target(self, order: Order) -> str:
        if not order.targets:
            raise Reject(w.BAD_PARAMETER)
        target = order.targets[0]
        if not self.state.has_player(target):
            raise Reject(w.UNKNOWN_TARGET)
        return target

    # -- night orders (§7, §10.1) ----------------------------------------------------------

    def night_order(self, order: Order, wanted: tuple[str, ...]) -> IntakeResult:
        p = self.state.player(order.player)
        mine = night_actions(p)
        action = next((a for a in wanted if a in mine), None)
        if action is None:
            return self.reject(order, w.ACTION_NOT_AVAILABLE, action=wanted[0] if wanted else None)
        if not self.night:
            # Sent during a day: it is meant for the next night (D7).
            advance = self.inputs.data.setdefault("advance", {})
            advance.setdefault(order.player, []).append(order.with_(action=action, candidates=()))
            self.ack(order.player, "order_accepted", action=action, targets=list(order.targets))
            return self.out
        try:
            registered = check_night(self.state, p, order.with_(action=action, candidates=()))
        except Reject as exc:
            return self.reject(order, exc.code, action=action)
        fresh = self._new_post(order, "post")
        replaced = self.inputs.data.get(PROXY, {}).pop(order.player, None)
        if replaced:
            message = N_("the member's own order replaces what a faction-mate ordered for him")
            self.out.warnings.append(
                ParseWarning(PROXY_REPLACED, message, order.player, order.source, (), action, True)
            )
            # The faction-mate was told his order stands: now he hears it does not.
            for proxied in replaced.values():
                giver = str(proxied.args.get("proxy_by", ""))
                if self.state.has_player(giver):
                    self.ack(giver, PROXY_REPLACED, member=order.player, action=proxied.action)
        slots = self.inputs.orders.setdefault(order.player, {})
        slot = action if is_extra(p, action) else MAIN
        before = slots.get(slot)
        if fresh:
            slots.clear()
        if slot == MAIN and MAIN in slots and not fresh and order.source is not None:
            self.warn(order, MULTIPLE_ACTIONS, action=action, accepted=True)
        slots[slot] = registered
        self.inputs.log.append(registered)
        extra: dict[str, Any] = {}
        if before is not None and slot == MAIN:
            # Only one main action counts: the receipt says which one it replaces.
            extra["replaces"] = {"action": before.action, "targets": list(before.targets)}
        self.ack(
            order.player, "order_accepted", action=action, targets=list(registered.targets), **extra
        )
        return self.out

    def cancel(self, order: Order, wanted: tuple[str, ...], *, day: bool) -> IntakeResult:
        if day and order.is_vote:
            self.inputs.votes.pop(order.player, None)
            return self.out
        slots = self.inputs.orders.get(order.player, {})
        for slot, registered in list(slots.items()):
            if not wanted or registered.action in wanted:
                del slots[slot]
        self.inputs.log.append(order)
        return self.out


def check_night(state: GameState, p: PlayerState, order: Order) -> Order:
    """Validate one night order against the state at the start of the night (§14.5)."""
    action = order.action or ""
    spec = ACTIONS[action]
    if not may_act_in(p, action):
        raise Reject(CANNOT_ACT)
    names = [_roster(state, t) for t in order.targets]
    args = dict(order.args)
    args.pop("words", None)
    if action == "message":
        victim_raw = order.args.get("victim")
        victim: str | None
        if victim_raw is None and len(names) >= 2:
            names, victim = names[:1], names[1]
        else:
            victim = _roster(state, victim_raw) if victim_raw is not None else None
        if victim is None or not names:
            raise Reject(w.BAD_PARAMETER)
        args["victim"] = victim
        _alive_targets(state, [*names, victim])
        recipient = state.player(names[0])
        if victim == names[0]:
            raise Reject(w.INVALID_TARGET)
        if has_trait(recipient, "paranoid") and recipient.name != p.name:
            raise Reject(w.INVALID_TARGET)
        return order.with_(targets=tuple(names), args=args)
    if action == "guard":
        if any(n != p.name for n in names):
            raise Reject(w.INVALID_TARGET)
        return order.with_(targets=(), args={})
    if spec.max_targets == 0:
        names = []
    else:
        names = _expand(names, order)
        if not names:
            raise Reject(w.BAD_PARAMETER)
        limit = _target_limit(state, p, action)
        if len(names) > limit:
            raise Reject(TOO_MANY_TARGETS)
        if action == "dual_pistols":
            if len(names) < 2:
                raise Reject(w.BAD_PARAMETER)
            if names[0] == names[1]:
                raise Reject(w.INVALID_TARGET)
        _alive_targets(state, names)
        for n in names:
            t = state.player(n)
            if not spec.paranoid_ok and has_trait(t, "paranoid") and n != p.name:
                raise Reject(w.INVALID_TARGET)
    if spec.once_per_game and action in p.fields.get("spent", []):
        raise Reject(w.NO_USES_LEFT)
    from rulesets.yakuza.grammar import ABILITY_WORDS, ROLE_WORDS

    if action == "disguise":
        if p.fields.get("disguises_left", 2) <= 0:
            raise Reject(w.NO_USES_LEFT)
        if state.player(names[0]).role in ("ninja", "sensei"):
            raise Reject(w.INVALID_TARGET)
        role = word_param(order, "role", ROLE_WORDS)
        if role not in ROLES:
            raise Reject(w.BAD_PARAMETER)
        args = {"role": role}
    elif action == "kill":
        role = word_param(order, "role", ROLE_WORDS)
        if role not in ROLES or role == "citizen":
            raise Reject(w.BAD_PARAMETER)
        args = {"role": role}
    elif action == "disinformation":
        if names[0] in p.fields.get("disinformed", []):
            raise Reject(w.INVALID_TARGET)
        amount = number_param(order)
        if amount is None or not 1 <= amount <= int(state.player(names[0]).fields["max_hp"]):
            raise Reject(w.BAD_PARAMETER)
        args = {"amount": amount}
    elif action == "knife" and p.role == "psycho":
        amount = number_param(order)
        if amount is None or not 1 <= amount <= 5000:
            raise Reject(w.BAD_PARAMETER)
        args = {"amount": amount}
    elif action == "observation":
        ability = word_param(order, "ability", ABILITY_WORDS)
        if ability not in OBSERVABLE:
            raise Reject(w.BAD_PARAMETER)
        args = {"ability": ability}
    elif action == "rest":
        ability = word_param(order, "ability", ABILITY_WORDS)
        ability = "protection" if ability == "guard" else ability
        spent = p.fields.get("spent", [])
        if ability not in ("heal", "protection", "observation"):
            raise Reject(w.BAD_PARAMETER)
        if len(spent) < 2 or ability not in spent:
            raise Reject(w.NOT_ALLOWED)
        args = {"ability": ability}
    elif action == "meditation_off":
        args = {}
    else:
        args = {}
    return order.with_(targets=tuple(names), args=args)


def _roster(state: GameState, raw: Any) -> str:
    if raw is None:
        raise Reject(w.BAD_PARAMETER)
    if state.has_player(str(raw)):
        return str(raw)
    wanted = str(raw).strip().casefold().replace("ё", "е")
    for n in state.names:
        if n.casefold().replace("ё", "е") == wanted:
            return n
    raise Reject(w.UNKNOWN_TARGET)


def _alive_targets(state: GameState, names: Iterable[str]) -> None:
    for n in names:
        if not alive(state.player(n)):
            raise Reject(w.TARGET_NOT_IN_PLAY)


def _expand(names: list[str], order: Order) -> list[str]:
    """«пистолет Вася x3»: a multiplier repeats the last name (parsed posts only)."""
    if not names:
        return names
    for word in words_of(order):
        times = whole_number(word[1:]) if word[:1] in _TIMES else None
        if times is not None:
            return names + [names[-1]] * (min(times, 50) - 1)
    return names


def _target_limit(state: GameState, p: PlayerState, action: str) -> int:
    if action == "pistol":
        return 1 + int(p.fields.get("stored_shots", 0))
    if action == "shuriken":
        dead = sum(1 for q in state.players if q.faction == YAKUZA and not alive(q))
        return dead + 1
    return ACTIONS[action].max_targets


def _label(order: Order) -> str:
    if order.is_vote:
        return "vote"
    return order.action or order.kind.value


def team_roles(faction: str) -> tuple[str, ...]:
    return TEAM_ROLES.get(faction, ())

"""Intake of classic commands during a turn: validation, registration, acks and requests.

Everything here happens as commands arrive (classic.md §2.3, §3.1, §4, §10, §11.6–11.7):
a vote or order is checked, registered in the turn's ledger or rejected with a warning,
and acknowledged by PM; requests are answered at once.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from engine.core import warnings as w
from engine.core.events import Event
from engine.core.model import GameState, PlayerState
from engine.core.orders import VOTE_KINDS, Channel, Order, OrderKind
from engine.core.ruleset import IntakeResult, PhaseInputs
from engine.core.warnings import N_, ParseWarning
from rulesets.classic.help import orders_of, refusal
from rulesets.classic.roles import ACTIONS
from rulesets.classic.state import actions_of, in_play, is_clan

INVALID_VOTE_FORM = "invalid_vote_form"
NONSTANDARD_VOTE_FORM = "nonstandard_vote_form"
NOT_CLAN_MEMBER = "not_clan_member"
RATING_RATE_LIMITED = "rating_rate_limited"
ANON_RATE_LIMITED = "anon_rate_limited"

# The members intake asks about for every command, read once: in Python 3.11 an enum class's
# attribute goes through its metaclass's __getattr__ hook, several times a global's cost.
_THREAD, _PM = Channel.THREAD, Channel.PM
_REQUEST, _CANCEL = OrderKind.REQUEST, OrderKind.CANCEL
_UNVOTE, _NO_LYNCH = OrderKind.UNVOTE, OrderKind.NO_LYNCH

_MESSAGES = {
    w.LATE: N_("sent after the deadline"),
    w.SENDER_NOT_IN_PLAY: N_("the sender is not in play"),
    w.TARGET_NOT_IN_PLAY: N_("the target is not in play"),
    w.UNKNOWN_TARGET: N_("the target is not on the roster"),
    w.TARGET_SELF: N_("this action may not target its user"),
    w.ACTION_NOT_AVAILABLE: N_("the sender's role does not have this action"),
    w.INVALID_TARGET: N_("not a valid target in this game"),
    w.THREAD_VOTE_IGNORED: N_("a vote in the thread does not count; votes count only by PM"),
    w.THREAD_ORDER_IGNORED: N_("an order in the thread is ignored; orders count only by PM"),
    w.UNKNOWN_COMMAND: N_("not a request of this game"),
    w.BAD_PARAMETER: N_("the anonymous message has no text"),
    NONSTANDARD_VOTE_FORM: N_("non-standard vote wording, accepted"),
    INVALID_VOTE_FORM: N_("non-standard vote wording, rejected (strict vote forms)"),
    NOT_CLAN_MEMBER: N_("only clan members may ask for the target list"),
    RATING_RATE_LIMITED: N_("the player asked for a rating too recently"),
    ANON_RATE_LIMITED: N_("the player sent an anonymous message too recently"),
}


class Intake:
    """Takes one command at a time into a turn's ledger."""

    __slots__ = ("inputs", "options", "out", "state")

    def __init__(self, state: GameState, inputs: PhaseInputs) -> None:
        self.state = state
        self.inputs = inputs
        self.options = state.options
        self.out = IntakeResult()

    # -- helpers ---------------------------------------------------------------------------

    def ack(self, player: str, type: str, **fields: Any) -> None:
        if self.options["ack_commands"]:
            self.out.events.append(Event.private(player, type, **fields))

    def warn(
        self, order: Order, code: str, *, accepted: bool = False, action: str | None = None
    ) -> None:
        self.out.warnings.append(
            ParseWarning(
                code=code,
                message=_MESSAGES.get(code, code),
                player=order.player,
                source=order.source,
                action=action or order.action,
                accepted=accepted,
            )
        )

    def reject(self, order: Order, code: str, action: str | None = None) -> IntakeResult:
        kind = action or _command_label(order)
        self.warn(order, code, action=kind)
        if self.state.has_player(order.player):
            self.ack(
                order.player, "order_rejected", **refusal(self.state, order.player, kind, code)
            )
        return self.out

    def _in_play(self, name: str) -> bool:
        for p in self.state.players:  # one pass: asked for the sender and the target
            if p.name == name:
                return in_play(p)
        return False

    def _seat(self, name: str | None) -> PlayerState | None:
        """The player of that name, or None: one pass where a name is looked up and then
        asked whether it is in play (every vote and order asks for two)."""
        for p in self.state.players:
            if p.name == name:
                return p
        return None

    # -- entry point -----------------------------------------------------------------------

    def take(self, order: Order) -> IntakeResult:
        if order.at is not None and self.inputs.phase.is_late(order.at):
            return self.reject(order, w.LATE)
        sender = self._seat(order.player)
        if sender is None:
            return self.reject(order, w.SENDER_NOT_IN_PLAY)
        kind = order.kind
        if kind in VOTE_KINDS:
            return self.vote(order, sender)
        if kind is _REQUEST:
            return self.request(order)
        if order.channel is _THREAD:
            self.warn(order, w.THREAD_ORDER_IGNORED)
            return self.out
        if kind is _CANCEL:
            return self.cancel(order)
        return self.role_order(order, sender)

    # -- votes (§3.1) ----------------------------------------------------------------------

    def vote(self, order: Order, sender: PlayerState) -> IntakeResult:
        if order.channel is _THREAD:
            self.warn(order, w.THREAD_VOTE_IGNORED, action=order.kind.value)
            if self.options["remind_thread_votes"]:
                self.out.events.append(Event.private(order.player, "thread_vote_reminder"))
            return self.out
        fields = sender.fields  # in_play() written out here and below: most commands are votes
        if not (fields.get("alive", True) and fields.get("free", True)):
            return self.reject(order, w.SENDER_NOT_IN_PLAY)
        kind = order.kind
        if kind is _NO_LYNCH:
            return self.reject(order, w.INVALID_TARGET, action="vote")
        if kind is _UNVOTE:
            self.inputs.votes.pop(order.player, None)
            self.inputs.log.append(order)
            self.ack(order.player, "vote_withdrawn")
            return self.out
        target = order.targets[0] if order.targets else None
        seat = self._seat(target)
        if target is None or seat is None:
            return self.reject(order, w.UNKNOWN_TARGET, action="vote")
        fields = seat.fields
        if not (fields.get("alive", True) and fields.get("free", True)):
            return self.reject(order, w.TARGET_NOT_IN_PLAY, action="vote")
        if order.form == "nonstandard":
            if self.options["strict_vote_forms"]:
                return self.reject(order, INVALID_VOTE_FORM, action="vote")
            self.warn(order, NONSTANDARD_VOTE_FORM, accepted=True, action="vote")
        self.inputs.votes[order.player] = order
        self.inputs.log.append(order)
        if self.options["ack_commands"]:  # self.ack() written out: most commands are votes
            self.out.events.append(Event.private(order.player, "vote_accepted", target=target))
        return self.out

    # -- role orders (§5, §10.2) -----------------------------------------------------------

    def role_order(self, order: Order, player: PlayerState) -> IntakeResult:
        if not in_play(player):
            return self.reject(order, w.SENDER_NOT_IN_PLAY)
        available = actions_of(player, self.options)
        wanted = order.candidates or ((order.action,) if order.action else ())
        action = None
        for candidate in wanted:
            if candidate in available:
                action = candidate
                break
        if action is None:
            return self.reject(order, w.ACTION_NOT_AVAILABLE, action=wanted[0] if wanted else None)
        target = order.target
        seat = self._seat(target)
        if target is None or seat is None:
            return self.reject(order, w.UNKNOWN_TARGET, action=action)
        if target == order.player and not ACTIONS[action].self_allowed:
            return self.reject(order, w.TARGET_SELF, action=action)
        if not in_play(seat):
            return self.reject(order, w.TARGET_NOT_IN_PLAY, action=action)
        registered = (
            order
            if order.action == action and not order.candidates
            else order.with_(action=action, candidates=())
        )
        slots = self.inputs.orders.setdefault(order.player, {})
        if not self.options["all_actions_each_turn"]:
            slots.clear()
        slots[action] = registered
        self.inputs.log.append(registered)
        self.ack(order.player, "order_accepted", action=action, target=target)
        return self.out

    def cancel(self, order: Order) -> IntakeResult:
        if not self._in_play(order.player):
            return self.reject(order, w.SENDER_NOT_IN_PLAY, action="cancel")
        slots = self.inputs.orders.get(order.player, {})
        wanted = order.candidates or ((order.action,) if order.action else ())
        for action in [a for a in list(slots) if not wanted or a in wanted]:
            del slots[action]
            self.ack(order.player, "order_cancelled", action=action)
        self.inputs.log.append(order)
        return self.out

    # -- requests (§4) ---------------------------------------------------------------------

    def request(self, order: Order) -> IntakeResult:
        if order.action == "rating_request":
            return self.rating(order)
        if order.action == "help_request":
            # Asked in the thread, «помощь» is talk; in a PM it is always answered.
            if order.channel is _PM and self.state.has_player(order.player):
                orders = orders_of(self.state, order.player)
                self.out.events.append(Event.private(order.player, "orders_help", orders=orders))
            return self.out
        if order.channel is _THREAD:
            self.warn(order, w.THREAD_ORDER_IGNORED)
            return self.out
        if order.action == "anon_request":
            return self.anonymous(order)
        if order.action == "target_list_request":
            return self.target_list(order)
        return self.reject(order, w.UNKNOWN_COMMAND)

    def too_soon(self, order: Order, kind: str, option: str) -> bool:
        """Whether the player's last `kind` answer came less than the option's minutes before
        this order (or in the same message, whatever the option); notes this one if not."""
        now = order.at
        last: dict[str, datetime] = self.inputs.data.setdefault(f"last_{kind}_at", {})
        source: dict[str, object] = self.inputs.data.setdefault(f"last_{kind}_source", {})
        before, message = last.get(order.player), _message(order)
        same_message = message is not None and source.get(order.player) == message
        cooldown = timedelta(minutes=self.options[option])
        if same_message or (before is not None and now is not None and now - before < cooldown):
            return True
        if now is not None:
            last[order.player] = now
        source[order.player] = message
        return False

    def rating(self, order: Order) -> IntakeResult:
        if not self._in_play(order.player):
            return self.reject(order, w.SENDER_NOT_IN_PLAY)
        if self.too_soon(order, "rating", "rating_cooldown_minutes"):
            return self.reject(order, RATING_RATE_LIMITED)
        votes = current_votes(self.state, self.inputs)
        self.out.events.append(
            Event.public(
                "vote_rating",
                turn=self.inputs.phase.id.number,
                votes=votes,
                totals=totals_of(self.state, votes),
            )
        )
        self.inputs.log.append(order)
        return self.out

    def anonymous(self, order: Order) -> IntakeResult:
        out_of_play_ok = self.options["anon_out_of_play"]
        if not out_of_play_ok and not self._in_play(order.player):
            return self.reject(order, w.SENDER_NOT_IN_PLAY)
        target = order.target
        if target is None or not self.state.has_player(target):
            return self.reject(order, w.UNKNOWN_TARGET)
        if target == order.player:
            return self.reject(order, w.TARGET_SELF)
        if not out_of_play_ok and not self._in_play(target):
            return self.reject(order, w.TARGET_NOT_IN_PLAY)
        text = str(order.args.get("text", "")).strip()
        if not text:
            return self.reject(order, w.BAD_PARAMETER)
        if self.too_soon(order, "anon", "anon_cooldown_minutes"):
            return self.reject(order, ANON_RATE_LIMITED)
        self.out.events.append(Event.private(target, "anonymous_message", text=text))
        self.out.events.append(
            Event.host("anonymous_message_log", sender=order.player, to=target, text=text)
        )
        self.ack(order.player, "anon_sent", to=target)
        self.inputs.log.append(order)
        return self.out

    def target_list(self, order: Order) -> IntakeResult:
        player = self.state.player(order.player)
        if not in_play(player):
            return self.reject(order, w.SENDER_NOT_IN_PLAY)
        if not is_clan(player.faction):
            return self.reject(order, NOT_CLAN_MEMBER)
        members = [p.name for p in self.state.players if p.faction == player.faction]
        team: dict[str, str | None] = {}
        shots: dict[str, str | None] = {}
        for name in members:
            slots = self.inputs.orders.get(name, {})
            if "team_shot" in slots:
                team[name] = slots["team_shot"].target
            if "shot" in slots:
                shots[name] = slots["shot"].target
        self.out.events.append(
            Event.private(
                order.player, "target_list", faction=player.faction, team_shot=team, shots=shots
            )
        )
        self.inputs.log.append(order)
        return self.out


def _message(order: Order) -> str | None:
    """The post or PM an order came in ("pm:12"), to tell two answers to one message."""
    src = order.source
    return f"{order.channel.value}:{src.post_id}" if src and src.post_id else None


def _command_label(order: Order) -> str:
    if order.kind is OrderKind.ORDER:
        return order.action or "order"
    if order.kind is OrderKind.REQUEST:
        return order.action or "request"
    if order.kind is OrderKind.NO_LYNCH:
        return "vote"
    return order.kind.value


def current_votes(state: GameState, inputs: PhaseInputs) -> dict[str, str]:
    """Registered PM votes, voters in seating order."""
    return {
        name: target
        for name in state.names
        if name in inputs.votes and (target := inputs.votes[name].target) is not None
    }


def totals_of(state: GameState, votes: dict[str, str]) -> dict[str, int]:
    """Vote totals for each player with votes: most votes first, then seating order."""
    counts: dict[str, int] = {}
    for target in votes.values():
        counts[target] = counts.get(target, 0) + 1
    # Seating order, then most votes first: a stable sort keeps seating order among equals.
    seated = [p.name for p in state.players if p.name in counts]
    if len(seated) != len(counts):  # a target off the roster: say so, as seat() does
        raise ValueError(f"not a player: {sorted(set(counts) - set(seated))}")
    order = sorted(seated, key=counts.__getitem__, reverse=True)
    return {name: counts[name] for name in order}

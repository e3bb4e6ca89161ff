"""Intake of twelve-rooms commands as they arrive (twelve-rooms.md §2.2–2.8, §7, §11).

Every order is checked against the state at the start of the turn, then registered in the
turn's ledger or refused with a warning for the host and a private `order_rejected`. A part
of the turn, once accepted, is final: a repeat is `change_ignored`. Requests outside the
turn (room guesses, maps, anonymous messages) are answered at once.
"""

from __future__ import annotations

import random
import re
from typing import Any

from engine.core import warnings as w
from engine.core.events import Event
from engine.core.model import GameState
from engine.core.orders import Channel, Order, OrderKind
from engine.core.ruleset import IntakeResult, PhaseInputs
from engine.core.warnings import ParseWarning
from rulesets.twelve_rooms import codes as c
from rulesets.twelve_rooms.checks import Reject, check_skill
from rulesets.twelve_rooms.help import orders_of, refusal_extra
from rulesets.twelve_rooms.roles import NO_LYNCH, TURN_ACTIONS
from rulesets.twelve_rooms.rooms import (
    DIRECTIONS,
    LAUGHTER,
    NO_GUESS_BONUS,
    SILENCE,
)
from rulesets.twelve_rooms.state import (
    alive,
    grid_of,
    is_mafia,
    is_town,
    room,
    room_type,
)
from rulesets.twelve_rooms.words import guessed_type, layout_of, room_number

_TEXT_RE = re.compile(r"[^\W_]")
"""A letter or a digit: what the laughter room forbids (§4)."""

ACK = "order_accepted"
BALLOT = "ballot"
"""The form of a vote given as a scenario's `votes:` entry (no time, no rank)."""


def _label(order: Order) -> str:
    if order.is_vote or order.action == "vote":
        return "vote"
    return order.action or order.kind.value


class Intake:
    """Takes one command at a time into a turn's ledger."""

    def __init__(self, state: GameState, inputs: PhaseInputs) -> None:
        self.state = state
        self.inputs = inputs
        self.options = state.options
        self.turn = inputs.phase.id.number
        self.out = IntakeResult()

    # -- helpers ---------------------------------------------------------------------------

    def tell(self, player: str, type: str, **fields: Any) -> None:
        self.out.events.append(Event.private(player, type, **fields))

    def warn(self, order: Order, code: str, *, accepted: bool = False) -> None:
        self.out.warnings.append(
            ParseWarning(
                code=code,
                message=c.MESSAGES.get(code, code),
                player=order.player,
                source=order.source,
                action=_label(order),
                accepted=accepted,
            )
        )

    def reject(self, order: Order, code: str) -> IntakeResult:
        self.warn(order, code)
        if self.state.has_player(order.player) and alive(self.state.player(order.player)):
            label = _label(order)
            extra = refusal_extra(self.state, order.player, label, code)
            self.tell(order.player, "order_rejected", action=label, reason=code, **extra)
        return self.out

    def slots(self, player: str) -> dict[str, Order]:
        return self.inputs.orders.setdefault(player, {})

    def register(self, order: Order, slot: str, **ack: Any) -> IntakeResult:
        self.slots(order.player)[slot] = order
        self.inputs.log.append(order)
        self.tell(order.player, ACK, action=slot, **ack)
        if slot in TURN_ACTIONS:
            self.turn_ack(order.player)
        return self.out

    def turn_ack(self, player: str) -> None:
        """What is still missing from the turn (§2.2): the direction and the vote."""
        mine = self.slots(player)
        missing = [k for k in ("move", "vote") if k not in mine and not self._voted(player, k)]
        self.tell(player, "turn_ack", complete=not missing, missing=missing)

    def _voted(self, player: str, key: str) -> bool:
        return key == "vote" and player in self.inputs.votes

    def counter(self, key: str, player: str) -> int:
        counts: dict[str, int] = self.inputs.data.setdefault(key, {})
        return counts.get(player, 0)

    def bump(self, key: str, player: str) -> None:
        counts: dict[str, int] = self.inputs.data.setdefault(key, {})
        counts[player] = counts.get(player, 0) + 1

    # -- entry point -----------------------------------------------------------------------

    def take(self, order: Order) -> IntakeResult:
        if self.inputs.phase.is_late(order.at):
            return self.reject(order, w.LATE)
        if not self.state.has_player(order.player) or not alive(self.state.player(order.player)):
            self.warn(order, w.SENDER_NOT_IN_PLAY)
            return self.out
        if order.channel is Channel.THREAD and order.source is not None:
            self.warn(order, w.THREAD_VOTE_IGNORED if order.is_vote else w.THREAD_ORDER_IGNORED)
            return self.out
        if order.kind in (OrderKind.CANCEL, OrderKind.UNVOTE):
            return self.reject(order, c.CHANGE_IGNORED)
        if order.kind is OrderKind.REQUEST and order.action == "help_request":
            self.tell(order.player, "orders_help", orders=orders_of(self.state, order.player))
            return self.out
        if order.kind is OrderKind.REQUEST:
            return self.reject(order, w.UNKNOWN_COMMAND)
        if order.is_vote or order.action == "vote":
            return self.vote(order)
        action = order.action or ""
        if action in ("guess_room", "submit_map", "anon"):
            return getattr(self, action)(order)
        if action == "start_room":
            return self.start_room(order)
        if action not in TURN_ACTIONS:
            return self.reject(order, w.UNKNOWN_COMMAND)
        if self.turn == 0:
            return self.reject(order, w.NOT_ALLOWED)
        if action in self.slots(order.player):
            return self.reject(order, c.CHANGE_IGNORED)
        if action == "move":
            return self.move(order)
        try:
            checked = check_skill(self.state, self.inputs, order)
        except Reject as exc:
            return self.reject(order, exc.code)
        return self.register(checked, action, **_ack_fields(checked))

    # -- the turn's parts (§2.2, §2.4) -----------------------------------------------------

    def vote(self, order: Order) -> IntakeResult:
        if self.turn == 0:
            return self.reject(order, w.NOT_ALLOWED)
        if order.player in self.inputs.votes:
            return self.reject(order, c.CHANGE_IGNORED)
        target = order.target
        if order.kind is OrderKind.NO_LYNCH or target == NO_LYNCH:
            target = NO_LYNCH
        elif target is None or not self.state.has_player(target):
            return self.reject(order, w.UNKNOWN_TARGET)
        kind = OrderKind.NO_LYNCH if target == NO_LYNCH else OrderKind.VOTE
        vote = order.with_(kind=kind, action="vote", targets=(target,))
        if order.is_vote and order.source is None:
            # A scenario's `votes:` entry carries no time and does not rank a player (§3.4).
            vote = vote.with_(at=None, form=BALLOT)
        self.inputs.votes[order.player] = vote
        self.inputs.log.append(vote)
        # A vote for a dead player, or «не судить» where it is not allowed, is a vote for
        # oneself (§2.4 «невалидный голос»): accepted, and the voter is told so.
        self.tell(order.player, "vote_accepted", target=target, invalid=_invalid(self, target))
        self.turn_ack(order.player)
        return self.out

    def move(self, order: Order) -> IntakeResult:
        direction = str(order.args.get("direction") or order.form or "")
        if direction not in DIRECTIONS:
            return self.reject(order, w.BAD_PARAMETER)
        moved = order.with_(args={"direction": direction}, targets=(), candidates=())
        return self.register(moved, "move", direction=direction)

    # -- outside the turn (§2.6, §3.5, §7) -------------------------------------------------

    def start_room(self, order: Order) -> IntakeResult:
        p = self.state.player(order.player)
        if self.turn != 0 or not is_mafia(p):
            return self.reject(order, w.NOT_ALLOWED)
        if "start_room" in self.slots(order.player):
            return self.reject(order, c.CHANGE_IGNORED)
        number = room_number(order)
        if number is None or not grid_of(self.state).valid(number):
            return self.reject(order, c.INVALID_ROOM)
        moved = order.with_(args={"room": number}, targets=(), candidates=())
        return self.register(moved, "start_room", room=number)

    def guess_room(self, order: Order) -> IntakeResult:
        p = self.state.player(order.player)
        if self.turn < int(self.options["guess_from_turn"]):
            return self.reject(order, c.GUESS_TOO_EARLY)
        if self.counter("guesses", order.player) >= int(self.options["guesses_per_turn"]):
            return self.reject(order, c.GUESS_LIMIT)
        guess = guessed_type(order)
        if guess is None:
            return self.reject(order, w.BAD_PARAMETER)
        self.bump("guesses", order.player)
        self.inputs.log.append(order.with_(args={"room_type": guess}))
        here = int(p.fields["room"])
        correct = room_type(self.state, here) == guess
        revealed: int | None = None
        if correct and guess not in NO_GUESS_BONUS:
            choices = grid_of(self.state).neighbours(here)
            if choices:
                revealed = self._rng(order.player, "guesses").choice(choices)
        self.tell(
            order.player,
            "room_guess_result",
            guess=guess,
            correct=correct,
            revealed_room=revealed,
            revealed_type=room(self.state, revealed)["original_type"] if revealed else None,
        )
        return self.out

    def submit_map(self, order: Order) -> IntakeResult:
        p = self.state.player(order.player)
        if self.counter("maps", order.player) >= 1:
            return self.reject(order, c.MAP_LIMIT)
        size = grid_of(self.state).size
        layout = layout_of(order, size)
        if layout is None:
            return self.reject(order, w.BAD_PARAMETER)
        self.bump("maps", order.player)
        self.inputs.log.append(order.with_(args={"layout": layout}))
        original = [room(self.state, n)["original_type"] for n in range(1, size + 1)]
        correct = layout == original
        bonus = (
            correct
            and is_town(p)
            and bool(self.options["map_bonus"])
            and not self.state.data.get("map_bonus_to")
            and "map_bonus" not in self.inputs.data
        )
        if bonus:
            self.inputs.data["map_bonus"] = order.player
        self.tell(order.player, "map_check", correct=correct, bonus=bonus)
        return self.out

    def anon(self, order: Order) -> IntakeResult:
        p = self.state.player(order.player)
        text = str(order.args.get("text") or "").strip()
        if not text:
            return self.reject(order, w.BAD_PARAMETER)
        if self.counter("anons", order.player) >= 1:
            return self.reject(order, c.ANON_LIMIT)
        self.bump("anons", order.player)
        self.inputs.log.append(order)
        kind = room_type(self.state, int(p.fields["room"]))
        if kind == SILENCE or (kind == LAUGHTER and _TEXT_RE.search(text)):
            self.tell(order.player, "anon_not_sent")
            return self.out
        self.out.events.append(Event.public("anonymous_message", text=text))
        self.out.events.append(Event.host("anonymous_message_sent", sender=order.player))
        self.tell(order.player, "anon_sent")
        return self.out

    def _rng(self, player: str, what: str) -> random.Random:
        """A stream for a chance at receipt, fixed by the game, the turn and the player."""
        seed = self.state.data.get("seed", 0)
        count = self.counter(what, player)
        return random.Random(f"{seed}/{self.turn}/{player}/{what}/{count}")


def _invalid(intake: Intake, target: str) -> bool:
    if target == NO_LYNCH:
        return intake.turn not in intake.options["no_lynch_turns"]
    return not alive(intake.state.player(target))


def _ack_fields(order: Order) -> dict[str, Any]:
    fields: dict[str, Any] = {}
    if order.targets:
        fields["targets"] = list(order.targets)
    for key in ("room", "doors", "vote_for", "skill", "from"):
        if key in order.args:
            fields[key] = order.args[key]
    return fields

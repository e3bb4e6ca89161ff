"""The ledger intake works on: card instances in their current order, reservations, checks.

Orders bind to card *instances* (D-33): a phase's hand is the hand at its start, and the
ledger keeps the player's current order of it (`order_hand` applies at once), so a later
reorder never changes which card an accepted order plays, discards or pays with. Payments
are checked against the points held now and the player's other current orders (§6.3).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.core import warnings as w
from engine.core.events import Event
from engine.core.model import GameState, PlayerState
from engine.core.numbers import whole_number
from engine.core.orders import Order, OrderKind
from engine.core.ruleset import IntakeResult, PhaseInputs
from engine.core.warnings import ParseWarning
from rulesets.minimafik import reading
from rulesets.minimafik.cards import Ability, Side
from rulesets.minimafik.help import refusal_extra
from rulesets.minimafik.messages import MESSAGES
from rulesets.minimafik.roles import (
    AMBIGUOUS_CARD,
    ANY,
    BAD_PAYMENT,
    CARD_IN_USE,
    CONDITIONAL_DAY,
    DAY,
    DRAFT,
    INSUFFICIENT_PAYMENT,
    MESSAGE_HAS_LINK,
    MESSAGE_MISSING,
    MESSAGE_TOO_LONG,
    NIGHT,
    NOT_IN_HAND,
    ROT,
    ROT_LOCKED,
    TARGET_IGNORED,
    TARGET_NONE,
    TARGET_OTHER,
    TARGET_REQUIRED,
    UNKNOWN_CARD,
)
from rulesets.minimafik.state import alive, collection, hand, leader


class Reject(Exception):
    def __init__(self, code: str, choices: tuple[str, ...] = ()) -> None:
        super().__init__(code)
        self.code = code
        self.choices = choices
        """Players the host may pick from (an ambiguous target)."""


@dataclass
class HandView:
    """One player's hand during a phase: the phase-start cards and their current order."""

    start: list[str]
    order: list[int]

    def cards(self) -> list[str]:
        return [self.start[i] for i in self.order]

    def at_slot(self, slot: int) -> int:
        if not 1 <= slot <= len(self.order):
            raise Reject(NOT_IN_HAND)
        return self.order[slot - 1]

    def ref(self, ref: Any, used: set[int], *, movable: bool = True) -> int:
        """The instance a card reference names; the front-most copy not in `used`."""
        if isinstance(ref, bool):
            raise Reject(w.BAD_PARAMETER)
        slot = ref if isinstance(ref, int) else whole_number(str(ref).strip())
        if slot is not None:
            instance = self.at_slot(slot)
        else:
            wanted = str(ref).strip().casefold()
            copies = [i for i in self.order if self.start[i] == wanted]
            if not copies:
                raise Reject(ROT_LOCKED if wanted == ROT else NOT_IN_HAND)
            free = [i for i in copies if i not in used]
            if not free:
                raise Reject(CARD_IN_USE)
            instance = free[0]
        if self.start[instance] == ROT and movable:
            raise Reject(ROT_LOCKED)
        if instance in used:
            raise Reject(CARD_IN_USE)
        return instance


def phase_kind(inputs: PhaseInputs) -> str:
    return inputs.phase.id.kind


class Ledger:
    """A phase's ledger for one command: replies, the player's hand and orders, the checks
    every kind of order shares (targets, messages, payments)."""

    def __init__(self, state: GameState, inputs: PhaseInputs) -> None:
        self.state = state
        self.inputs = inputs
        self.options = state.options
        self.coll = collection(state)
        self.kind = phase_kind(inputs)
        self.out = IntakeResult()

    # -- replies -------------------------------------------------------------------------

    def warn(
        self,
        order: Order,
        code: str,
        action: str | None,
        *,
        accepted: bool = False,
        choices: tuple[str, ...] = (),
    ) -> None:
        self.out.warnings.append(
            ParseWarning(
                code,
                MESSAGES.get(code, code),
                order.player,
                order.source,
                choices=choices,
                action=action,
                accepted=accepted,
            )
        )

    def reject(
        self, order: Order, code: str, action: str | None, choices: tuple[str, ...] = ()
    ) -> IntakeResult:
        label = action or order.action or order.kind.value
        self.warn(order, code, label, choices=choices)
        if self.state.has_player(order.player):
            extra = refusal_extra(self.state, order.player, label, code)
            self.out.events.append(
                Event.private(order.player, "order_rejected", action=label, reason=code, **extra)
            )
        return self.out

    def ack(self, player: str, type: str, /, **fields: Any) -> None:
        self.out.events.append(Event.private(player, type, **fields))

    # -- the ledger ----------------------------------------------------------------------

    def hand_view(self, player: str) -> HandView:
        start = hand(self.state.player(player))
        order = self.inputs.data.get("order", {}).get(player)
        return HandView(start, list(order) if order is not None else list(range(len(start))))

    def slots(self, player: str) -> dict[str, Order]:
        return self.inputs.orders.setdefault(player, {})

    def reserved(self, player: str, skip: str) -> tuple[int, set[int]]:
        """Points and card instances the player's other current orders already use."""
        points = 0
        used: set[int] = set()
        for slot, order in self.inputs.orders.get(player, {}).items():
            if slot == skip:
                continue
            args = order.args
            points += int(args.get("pay_points", 0))
            used.update(int(i) for i in args.get("pay_instances", ()))
            used.update(int(i) for i in args.get("instances", ()))
            if "instance" in args:
                used.add(int(args["instance"]))
        return points, used

    def register(
        self, order: Order, slot: str, action: str, targets: Sequence[str], args: Mapping[str, Any]
    ) -> Order:
        registered = order.with_(
            kind=OrderKind.ORDER,
            action=action,
            targets=tuple(targets),
            args=dict(args),
            candidates=(),
        )
        self.slots(order.player)[slot] = registered
        self.inputs.log.append(registered)
        return registered

    # -- entry point ---------------------------------------------------------------------

    def parsed(self, order: Order) -> bool:
        return order.source is not None and ("parts" in order.args or "words" in order.args)

    def card_reading(self, order: Order, read: reading.Reading) -> dict[str, Any]:
        if read.ambiguous_card:
            raise Reject(AMBIGUOUS_CARD)
        if read.unknown_card:
            raise Reject(UNKNOWN_CARD)
        return read.args

    def timing_ok(self, timing: str, is_leader: bool) -> bool:
        if self.kind == NIGHT:
            return timing in (NIGHT, ANY, CONDITIONAL_DAY)
        if self.kind == DAY:
            return timing in (ANY, DAY) or (timing == CONDITIONAL_DAY and is_leader)
        return False

    def side_targets(
        self, p: PlayerState, order: Order, side: Side, targets: list[str], action: str
    ) -> list[str]:
        """The targets the side's rule allows (§4.2 target, §7.1)."""
        if side.target == TARGET_NONE:
            if targets:
                self.warn(order, TARGET_IGNORED, action, accepted=True)
            return []
        if not targets:
            named = [p["ambiguous"] for p in order.args.get("parts", ()) if "ambiguous" in p]
            if named:  # «на Ворону»: Ворон or Ворона; the host picks (issue 23)
                raise Reject(w.AMBIGUOUS_TARGET, tuple(named[0].split("|")))
            raise Reject(TARGET_REQUIRED)
        if len(targets) > 1:
            raise Reject(w.INVALID_TARGET)
        target = targets[0]
        if not self.state.has_player(target):
            raise Reject(w.UNKNOWN_TARGET)
        if side.target == TARGET_OTHER and target == p.name:
            raise Reject(w.TARGET_SELF)
        if not alive(self.state.player(target)):
            raise Reject(w.TARGET_NOT_IN_PLAY)
        return [target]

    def message(self, effects: Sequence[Any], text: Any) -> str | None:
        if not any(e.do == "send_message" for e in effects):
            return None
        if text is None or not str(text).strip():
            raise Reject(MESSAGE_MISSING)
        text = str(text).strip()
        if len(text) > int(self.options["message_max_chars"]):
            raise Reject(MESSAGE_TOO_LONG)
        if reading.has_link(text):
            raise Reject(MESSAGE_HAS_LINK)
        return text

    def payment(
        self,
        view: HandView,
        cost: int,
        pay: Any,
        reserved_points: int,
        used: set[int],
        p: PlayerState,
    ) -> dict[str, Any]:
        """The order's payment fields for `cost`, paid exactly; all points when unsaid (§6.3)."""
        points: int | None = cost
        refs: list[Any] = []
        if pay:
            if not isinstance(pay, Mapping):
                raise Reject(BAD_PAYMENT)
            refs = list(pay.get("cards") or [])
            points = pay.get("points")
            if points is None:
                points = max(0, cost - len(refs))
            if isinstance(points, bool) or not isinstance(points, int) or points < 0:
                raise Reject(BAD_PAYMENT)
        assert points is not None
        instances: list[int] = []
        taken = set(used)
        for ref in refs:
            instance = view.ref(ref, taken)
            taken.add(instance)
            instances.append(instance)
        if points + len(instances) != cost:
            raise Reject(BAD_PAYMENT)
        if points > int(p.fields.get("points", 0)) - reserved_points:
            raise Reject(INSUFFICIENT_PAYMENT)
        cards = [view.start[i] for i in instances]
        return {"pay_points": points, "pay_instances": instances, "pay_cards": cards}

    def cost_for(self, p: PlayerState, cost: int) -> int:
        """A card's or ability's cost for this player: the Leader pays 1 less (§10.3, D-14)."""
        discount = int(self.options["leader_discount"]) if leader(self.state) == p.name else 0
        return max(0, cost - discount)

    def eligible(self, p: PlayerState) -> bool:
        return self.kind == DRAFT or bool(p.fields.get("can_rebuild"))

    def check_uses(self, p: PlayerState, ability: Ability) -> None:
        if ability.per_game is not None:
            spent = int((p.fields.get("uses") or {}).get(ability.id, 0))
            if spent >= ability.per_game:
                raise Reject(w.NO_USES_LEFT)

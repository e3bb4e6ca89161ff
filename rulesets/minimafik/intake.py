"""Intake of minimafik orders: each PM line is checked when it arrives and kept or rejected (§7).

One method per action (`take_<action>`); what they share — the ledger of card instances,
reservations, target, message and payment checks — is `rulesets.minimafik.ledger`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.core import warnings as w
from engine.core.model import PlayerState
from engine.core.numbers import whole_number
from engine.core.orders import Channel, Order, OrderKind
from engine.core.ruleset import IntakeResult
from rulesets.minimafik import reading
from rulesets.minimafik.cards import norm_name
from rulesets.minimafik.deck import check_mafia_deck
from rulesets.minimafik.grammar import CARD_FORM
from rulesets.minimafik.help import orders_of
from rulesets.minimafik.ledger import Ledger, Reject
from rulesets.minimafik.roles import (
    ANY,
    BAD_PICK,
    BEATING,
    CARD_SLOT,
    CITIZEN,
    CURRENT_LEADER,
    DAY,
    DRAFT,
    EXECUTION,
    INSUFFICIENT_PAYMENT,
    LAW,
    LEADER_NOT_VOTABLE,
    LIGHT,
    MAFIA,
    NIGHT,
    NOT_ELIGIBLE,
    POINTS_ONLY,
    REBUILD_SLOT,
    ROT,
    SIDE_DEFAULTED,
    SIDES,
    SLOT_OF,
    TARGET_REQUIRED,
    UNKNOWN_CARD,
    WRONG_PHASE,
)
from rulesets.minimafik.state import alive, leader

VOTE_ACTIONS = ("leader_vote", "vece_vote")
_ORDER_FIELDS = ("card", "cards", "choice", "picks", "ability")
"""Arguments that make a structured order with `targets: []` an order, not a cancel."""


class Intake(Ledger):
    """Takes one command at a time into a phase's ledger."""

    def take(self, order: Order) -> IntakeResult:
        if self.inputs.phase.is_late(order.at):
            return self.reject(order, w.LATE, None)
        if not self.state.has_player(order.player) or not alive(self.state.player(order.player)):
            self.warn(order, w.SENDER_NOT_IN_PLAY, order.action)
            return self.out
        if order.kind is OrderKind.REQUEST and order.action == "help_request":
            if order.channel is Channel.PM:  # in the thread, «помощь» is talk
                orders = orders_of(self.state, order.player)
                self.ack(order.player, "orders_help", orders=orders)
            return self.out
        if order.kind is OrderKind.REQUEST:
            return self.reject(order, w.UNKNOWN_COMMAND, order.action)
        if order.source is not None and order.channel is Channel.THREAD:
            # Orders and votes are secret: only PMs count (§1, §12).
            code = w.THREAD_VOTE_IGNORED if order.is_vote else w.THREAD_ORDER_IGNORED
            self.warn(order, code, order.action or "vote")
            return self.out
        p = self.state.player(order.player)
        if order.kind is OrderKind.CANCEL and any(k in order.args for k in _ORDER_FIELDS):
            order = order.with_(kind=OrderKind.ORDER)
        if (
            order.kind is OrderKind.CANCEL
            and order.action == "mafia_vote"
            and order.args.get("extra")
        ):
            order = order.with_(kind=OrderKind.ORDER)
        if order.kind in (OrderKind.CANCEL, OrderKind.UNVOTE):
            return self.cancel(p, order)
        if order.kind is OrderKind.NO_LYNCH:
            return self.reject(order, w.INVALID_TARGET, self.vote_action(order))  # D-45
        if order.kind is OrderKind.VOTE:
            return self.vote(p, order, self.vote_action(order))
        action = order.action or ""
        if action in VOTE_ACTIONS:
            return self.vote(p, order, action)
        handler = getattr(self, f"take_{action}", None)
        if handler is None:
            return self.reject(order, w.UNKNOWN_COMMAND, action or None)
        try:
            handler(p, order)
        except Reject as exc:
            return self.reject(order, exc.code, action, exc.choices)
        return self.out

    def vote_action(self, order: Order) -> str:
        if order.action in VOTE_ACTIONS:
            return str(order.action)
        if order.form == "vece":
            return "vece_vote"
        if order.form == "leader":
            return "leader_vote"
        return "leader_vote" if self.kind == NIGHT else "vece_vote"

    # -- votes (§9.1, §10.1) -------------------------------------------------------------

    def vote(self, p: PlayerState, order: Order, action: str) -> IntakeResult:
        wanted = NIGHT if action == "leader_vote" else DAY
        if self.kind != wanted:
            return self.reject(order, WRONG_PHASE, action)
        target = order.target
        if target is None or not self.state.has_player(target):
            return self.reject(order, w.UNKNOWN_TARGET if target else TARGET_REQUIRED, action)
        if not alive(self.state.player(target)):
            return self.reject(order, w.TARGET_NOT_IN_PLAY, action)
        if target == leader(self.state):
            return self.reject(
                order, CURRENT_LEADER if action == "leader_vote" else LEADER_NOT_VOTABLE, action
            )
        vote = order.with_(
            kind=OrderKind.VOTE, action=action, targets=(target,), args={}, candidates=()
        )
        self.inputs.votes[p.name] = vote
        self.inputs.log.append(vote)
        self.ack(p.name, "vote_accepted", action=action, target=target)
        return self.out

    # -- cancel (§7.11) ------------------------------------------------------------------

    def cancel(self, p: PlayerState, order: Order) -> IntakeResult:
        what = order.action
        if order.kind is OrderKind.UNVOTE or what in ("vote", *VOTE_ACTIONS):
            what = "leader_vote" if self.kind == NIGHT else "vece_vote"
            if what == "vece_vote" and self.kind == DRAFT:
                return self.reject(order, WRONG_PHASE, "vote")
            dropped = self.inputs.votes.pop(p.name, None)
            self.inputs.log.append(order)
            self.ack(p.name, "vote_withdrawn", action=what, had=dropped is not None)
            return self.out
        slots = self.slots(p.name)
        if what is None:
            gone = list(slots)
            slots.clear()
        else:
            slot = SLOT_OF.get(what, what)
            if what == "use_ability":
                gone = [s for s in slots if s.startswith("ability:")]
            else:
                gone = [slot] if slot in slots else []
            for s in gone:
                del slots[s]
        self.inputs.log.append(order)
        self.ack(p.name, "order_cancelled", action=what or "all", had=bool(gone))
        return self.out

    # -- cards (§7.1, §7.2, §7.8) --------------------------------------------------------

    def take_play_card(self, p: PlayerState, order: Order) -> None:
        args = dict(order.args)
        targets = list(order.targets)
        if self.parsed(order):
            given = (
                order.form[len(CARD_FORM) :]
                if order.form and order.form.startswith(CARD_FORM)
                else None
            )
            args = self.card_reading(order, reading.read_play(order.args, self.coll, given))
            targets = list(args.pop("targets"))
        if self.kind == DRAFT:
            raise Reject(WRONG_PHASE)
        view = self.hand_view(p.name)
        points, used = self.reserved(p.name, CARD_SLOT)
        if args.get("card") is None:
            raise Reject(UNKNOWN_CARD)
        instance = view.ref(args["card"], used)
        card = self.coll.card(view.start[instance])
        is_leader = leader(self.state) == p.name
        if not self.timing_ok(card.timing, is_leader):
            raise Reject(WRONG_PHASE)
        side_name = args.get("side")
        if side_name is None:
            side_name = LIGHT
            self.warn(order, SIDE_DEFAULTED, "play_card", accepted=True)
        if side_name not in SIDES:
            raise Reject(w.BAD_PARAMETER)
        side = card.side(str(side_name))
        targets = self.side_targets(p, order, side, targets, "play_card")
        text = self.message(side.effects, args.get("text"))
        cost = self.cost_for(p, side.cost)
        pay = self.payment(view, cost, args.get("pay"), points, used | {instance}, p)
        fields: dict[str, Any] = {
            "card": card.id,
            "instance": instance,
            "side": side_name,
            "cost": cost,
            **pay,
        }
        if text is not None:
            fields["text"] = text
        self.register(order, CARD_SLOT, "play_card", targets, fields)
        self.ack(
            p.name,
            "order_accepted",
            action="play_card",
            card=card.id,
            side=side_name,
            targets=targets,
            paid_points=pay["pay_points"],
            paid_cards=pay["pay_cards"],
        )

    def take_discard(self, p: PlayerState, order: Order) -> None:
        refs = order.args.get("cards")
        if self.parsed(order):
            refs = self.card_reading(order, reading.read_cards(order.args, self.coll))["cards"]
        if self.kind != NIGHT:
            raise Reject(WRONG_PHASE)  # D-37
        if not refs:
            raise Reject(w.BAD_PARAMETER)
        view = self.hand_view(p.name)
        _, used = self.reserved(p.name, CARD_SLOT)
        instances: list[int] = []
        for ref in refs:
            instance = view.ref(ref, used | set(instances))
            instances.append(instance)
        cards = [view.start[i] for i in instances]
        self.register(order, CARD_SLOT, "discard", [], {"instances": instances, "cards": cards})
        self.ack(p.name, "order_accepted", action="discard", cards=cards)

    def take_order_hand(self, p: PlayerState, order: Order) -> None:
        refs = order.args.get("cards")
        if self.parsed(order):
            refs = self.card_reading(order, reading.read_cards(order.args, self.coll))["cards"]
        if self.kind == DRAFT:
            raise Reject(w.NOT_ALLOWED)
        if not refs:
            raise Reject(w.BAD_PARAMETER)
        view = self.hand_view(p.name)
        moved: list[int] = []
        for ref in refs:
            instance = view.ref(ref, set(moved))
            moved.append(instance)
        rest = [i for i in view.order if i not in moved and view.start[i] != ROT]
        rots = [i for i in view.order if view.start[i] == ROT]
        self.inputs.data.setdefault("order", {})[p.name] = moved + rest + rots
        self.inputs.log.append(order.with_(args={"cards": [view.start[i] for i in moved]}))
        self.ack(
            p.name, "order_accepted", action="order_hand", cards=self.hand_view(p.name).cards()
        )

    # -- the night's team and town orders (§7.3, §7.4) -----------------------------------

    def take_mafia_vote(self, p: PlayerState, order: Order) -> None:
        args = dict(order.args)
        targets = list(order.targets)
        if self.parsed(order):
            args = reading.read_mafia(order.args, self.coll).args
            targets = list(args.pop("targets"))
        if p.faction != MAFIA:
            raise Reject(w.ACTION_NOT_AVAILABLE)
        if self.kind != NIGHT:
            raise Reject(WRONG_PHASE)
        for target in targets[:1]:
            if not self.state.has_player(target):
                raise Reject(w.UNKNOWN_TARGET)
            if target == p.name:
                raise Reject(w.TARGET_SELF)
            if not alive(self.state.player(target)):
                raise Reject(w.TARGET_NOT_IN_PLAY)
        extra = args.get("extra", 0) or 0
        if isinstance(extra, bool) or not isinstance(extra, int) or extra < 0:
            raise Reject(w.BAD_PARAMETER)
        view = self.hand_view(p.name)
        points, used = self.reserved(p.name, "mafia_vote")
        pay = self.payment(view, extra, args.get("pay"), points, used, p)
        self.register(order, "mafia_vote", "mafia_vote", targets[:1], {"extra": extra, **pay})
        self.ack(
            p.name,
            "order_accepted",
            action="mafia_vote",
            targets=targets[:1],
            extra=extra,
            paid_points=pay["pay_points"],
            paid_cards=pay["pay_cards"],
        )

    def take_armor(self, p: PlayerState, order: Order) -> None:
        if p.role != CITIZEN:
            raise Reject(w.ACTION_NOT_AVAILABLE)
        if self.kind != NIGHT:
            raise Reject(WRONG_PHASE)
        pay = order.args.get("pay")
        if isinstance(pay, Mapping) and pay.get("cards"):
            raise Reject(POINTS_ONLY)
        target = order.target
        if target is None:
            raise Reject(TARGET_REQUIRED)
        if not self.state.has_player(target):
            raise Reject(w.UNKNOWN_TARGET)
        if not alive(self.state.player(target)):
            raise Reject(w.TARGET_NOT_IN_PLAY)
        points, _ = self.reserved(p.name, "armor")
        if int(p.fields.get("points", 0)) - points < 1:
            raise Reject(INSUFFICIENT_PAYMENT)
        self.register(order, "armor", "armor", [target], {"pay_points": 1})
        self.ack(p.name, "order_accepted", action="armor", targets=[target])

    def take_punishment(self, p: PlayerState, order: Order) -> None:
        choice = order.args.get("choice")
        if choice is None and order.form in (BEATING, EXECUTION):
            choice = order.form
        if self.kind != DAY:
            raise Reject(WRONG_PHASE)
        if leader(self.state) != p.name:
            raise Reject(w.ACTION_NOT_AVAILABLE)
        if choice not in (BEATING, EXECUTION):
            raise Reject(w.BAD_PARAMETER)
        self.register(order, "punishment", "punishment", [], {"choice": choice})
        self.ack(p.name, "order_accepted", action="punishment", choice=choice)

    # -- deck building and rebuild (§5, §7.9) --------------------------------------------

    def take_draft_pick(self, p: PlayerState, order: Order) -> None:
        picks = order.args.get("picks")
        if self.parsed(order):
            picks = self.card_reading(order, reading.read_picks(order.args, self.coll))["picks"]
        if p.faction != LAW:
            raise Reject(w.ACTION_NOT_AVAILABLE)
        offers = p.fields.get("offers") or []
        if not self.eligible(p) or not offers:
            raise Reject(NOT_ELIGIBLE)
        if not isinstance(picks, list) or not picks or len(picks) > len(offers):
            raise Reject(BAD_PICK)
        previous = self.slots(p.name).get(REBUILD_SLOT)
        merged: list[str | None] = (
            list(previous.args["picks"]) if previous else [None] * len(offers)
        )
        for i, pick in enumerate(picks):
            if pick is None:
                continue
            pair = list(offers[i])
            if isinstance(pick, int) and not isinstance(pick, bool) and 1 <= pick <= len(pair):
                merged[i] = pair[pick - 1]
            elif isinstance(pick, str) and 1 <= (n := whole_number(pick.strip()) or 0) <= len(pair):
                merged[i] = pair[n - 1]
            elif isinstance(pick, str) and pick in pair:
                merged[i] = pick
            else:
                raise Reject(BAD_PICK)
        self.register(order, REBUILD_SLOT, "draft_pick", [], {"picks": merged})
        self.ack(
            p.name,
            "order_accepted",
            action="draft_pick",
            picks=merged,
            missing=sum(1 for x in merged if x is None),
        )

    def take_build_deck(self, p: PlayerState, order: Order) -> None:
        cards = order.args.get("cards")
        if self.parsed(order):
            cards = self.card_reading(order, reading.read_deck(order.args, self.coll))["cards"]
        if p.faction != MAFIA:
            raise Reject(w.ACTION_NOT_AVAILABLE)
        if not self.eligible(p):
            raise Reject(NOT_ELIGIBLE)
        if not isinstance(cards, list) or not all(isinstance(c, str) for c in cards):
            raise Reject(w.BAD_PARAMETER)
        problem = check_mafia_deck(cards, p.role or "", self.coll, self.options)
        if problem:
            raise Reject(problem)
        self.register(order, REBUILD_SLOT, "build_deck", [], {"cards": list(cards)})
        self.ack(p.name, "order_accepted", action="build_deck", cards=list(cards))

    # -- visible-role abilities (§3.3, §7.10) --------------------------------------------

    def take_use_ability(self, p: PlayerState, order: Order) -> None:
        mine = self.coll.abilities_of(p.fields.get("visible_role"))
        args = dict(order.args)
        targets = list(order.targets)
        if self.parsed(order):
            names = {}
            for a in mine:
                for n in (a.id.replace("_", " "), a.name, *a.aliases):
                    names[norm_name(n)] = a.id
            args = reading.read_ability(order.args, names).args
            targets = list(args.pop("targets"))
        ability = next((a for a in mine if a.id == args.get("ability")), None)
        if ability is None:
            raise Reject(w.ACTION_NOT_AVAILABLE)
        if self.kind == DRAFT or (ability.timing != ANY and ability.timing != self.kind):
            raise Reject(WRONG_PHASE)
        self.check_uses(p, ability)
        targets = self.side_targets(p, order, ability.side, targets, "use_ability")
        text = self.message(ability.side.effects, args.get("text"))
        slot = f"ability:{ability.id}"
        view = self.hand_view(p.name)
        points, used = self.reserved(p.name, slot)
        cost = self.cost_for(p, ability.cost)
        pay = self.payment(view, cost, args.get("pay"), points, used, p)
        fields: dict[str, Any] = {"ability": ability.id, **pay}
        if text is not None:
            fields["text"] = text
        self.register(order, slot, "use_ability", targets, fields)
        self.ack(
            p.name, "order_accepted", action="use_ability", ability=ability.id, targets=targets
        )

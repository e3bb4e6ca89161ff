"""A minimafik night or day, as the rulebook orders it (minimafik.md §8.1).

`PHASE_STEPS` is E1–E15 (the end of a night or day), `START_STEPS` S1–S3 (the start of the
next phase) and `DRAFT_STEPS` D1–D2 (the draft). Effects of a phase resolve together at
its end; transformations come last (E11). Each step is a small function over `Turn`.
"""

from __future__ import annotations

from typing import Any

from engine.core.ruleset import Step
from rulesets.minimafik import effects, start, votes
from rulesets.minimafik.context import PENDING, Act, Turn
from rulesets.minimafik.roles import CARD_SLOT, DRAW, INSUFFICIENT_PAYMENT, ROT
from rulesets.minimafik.state import alive


def e01_close(turn: Turn) -> None:
    """Close orders: each living player's current orders and vote (the intake checked them)."""
    for name in turn.alive0:
        slots = turn.inputs.orders.get(name, {})
        turn.orders[name] = {
            slot: {**order.args, "targets": list(order.targets), "action": order.action}
            for slot, order in slots.items()
        }
        vote = turn.inputs.votes.get(name)
        if vote is not None and vote.target is not None:
            turn.votes[name] = vote.target
    start.first_phase_partners(turn)


def e02_snapshot(turn: Turn) -> None:
    """The deadline snapshot: every hand in the player's final order (D-08, D-33)."""
    for name in turn.alive0:
        cards = [c for _, c in turn.slots[name]]
        order = turn.inputs.data.get("order", {}).get(name) or list(range(len(cards)))
        turn.instances[name] = list(order)
        turn.slots[name] = [(i, cards[i]) for i in order]
        turn.snapshot[name] = [str(cards[i]) for i in order]


def e03_kill_target(turn: Turn) -> None:
    """Night: the mafia's kill target from the weighted votes (§7.3)."""
    votes.kill_target(turn)


def _pay(turn: Turn, name: str, order: dict[str, Any], reason_action: str) -> bool:
    """Charge one order's points and cards; False (and a rejection) if it cannot be paid."""
    p = turn.p(name)
    points = int(order.get("pay_points", 0))
    held = {i for i, c in turn.slots[name] if c is not None}
    instances = [int(i) for i in order.get("pay_instances", ())]
    if points > int(p.fields.get("points", 0)) or not set(instances) <= held:
        order["paid"] = False
        turn.tell(name, "order_rejected", action=reason_action, reason=INSUFFICIENT_PAYMENT)
        return False
    p.fields["points"] = int(p.fields.get("points", 0)) - points
    if instances:
        paid = [str(c) for i, c in turn.slots[name] if i in instances]
        turn.slots[name] = [(i, c) for i, c in turn.slots[name] if i not in instances]
        turn.tell(name, "cards_discarded", cards=paid, reason="cost")
    order["paid"] = True
    return True


def e04_payments(turn: Turn) -> None:
    """Payments: card cost, then the citizen's armour point, then the mafia X (if a kill)."""
    for name in turn.alive0:
        orders = turn.orders[name]
        play = orders.get(CARD_SLOT)
        if play and play["action"] == "play_card":
            _pay(turn, name, play, "play_card")
        for slot, order in orders.items():
            if slot.startswith("ability:"):
                _pay(turn, name, order, "use_ability")
        if "armor" in orders:
            _pay(turn, name, orders["armor"], "armor")
        if "mafia_vote" in orders:
            if turn.kill_target is not None:
                _pay(turn, name, orders["mafia_vote"], "mafia_vote")
            else:
                orders["mafia_vote"]["paid"] = False  # no kill: X is not charged (D-15)


def e05_leave_hand(turn: Turn) -> None:
    """The played card and night discards leave the hand, each leaving a pending slot."""
    for name in turn.alive0:
        order = turn.orders[name].get(CARD_SLOT)
        paid_cards = _chosen_by_slot(turn, name)
        if order is None or order.get("paid") is False:
            turn.chosen[name] = paid_cards
            continue
        leaving = (
            [int(order["instance"])]
            if order["action"] == "play_card"
            else [int(i) for i in order["instances"]]
        )
        turn.slots[name] = [(i, PENDING if i in leaving else c) for i, c in turn.slots[name]]
        if order["action"] == "play_card":
            card = turn.coll.card(order["card"])
            side = card.side(order["side"])
            target = order["targets"][0] if order["targets"] else None
            turn.acts.append(
                Act(name, side.effects, target, order.get("text"), order["side"] == "dark", card.id)
            )
            turn.chosen[name] = [card.id, *paid_cards]
            turn.tell(
                name,
                "card_played",
                card=card.id,
                side=order["side"],
                targets=list(order["targets"]),
                paid_points=int(order.get("pay_points", 0)),
                paid_cards=list(order.get("pay_cards", [])),
            )
        else:
            cards = _by_slot(turn, name, leaving)
            turn.chosen[name] = _by_slot(turn, name, leaving + _paid_instances(turn, name))
            turn.tell(name, "cards_discarded", cards=cards, reason="replace")
    for name in turn.alive0:
        for slot, order in turn.orders[name].items():
            if slot.startswith("ability:") and order.get("paid") is not False:
                ability = next(
                    a
                    for a in turn.coll.abilities_of(turn.p(name).fields.get("visible_role"))
                    if a.id == order["ability"]
                )
                target = order["targets"][0] if order["targets"] else None
                turn.acts.append(
                    Act(name, ability.side.effects, target, order.get("text"), ability=ability.id)
                )
                if ability.per_game is not None:
                    uses = turn.p(name).fields.setdefault("uses", {})
                    uses[ability.id] = int(uses.get(ability.id, 0)) + 1
    effects.rots_for_dark_sides(turn)


def _paid_instances(turn: Turn, name: str) -> list[int]:
    out: list[int] = []
    for order in turn.orders[name].values():
        if order.get("paid"):
            out.extend(int(i) for i in order.get("pay_instances", ()))
    return out


def _by_slot(turn: Turn, name: str, instances: list[int]) -> list[str]:
    order = turn.instances[name]
    ranked = sorted(set(instances), key=order.index)
    return [turn.snapshot[name][order.index(i)] for i in ranked]


def _chosen_by_slot(turn: Turn, name: str) -> list[str]:
    return _by_slot(turn, name, _paid_instances(turn, name))


def e06_effects(turn: Turn) -> None:
    """Every played side's and ability's effects, together; information from the snapshot."""
    effects.evaluate(turn)


def e07_votes(turn: Turn) -> None:
    """Night: the kill damage and citizens' armour. Day: the Вече and its punishment."""
    if turn.night:
        votes.night_damage(turn)
    else:
        votes.vece(turn)


def e08_damage(turn: Turn) -> None:
    """Damage per character: protect, the first-night cap, armour; pending draws go first."""
    effects.apply_damage(turn)


def e09_replacements(turn: Turn) -> None:
    """Replacement draws into the pending slots, front to back (Blank from an empty deck)."""
    effects.replacement_draws(turn)


def e10_draws_and_points(turn: Turn) -> None:
    """Effect draws after the last non-Rot card; point gains."""
    effects.effect_draws(turn)


def e11_transformations(turn: Turn) -> None:
    """Card transformations (add_rot, transform), then Rot for Law's dark sides."""
    effects.transformations(turn)


def e12_deaths(turn: Turn) -> None:
    """A character with no cards, or only Rot, dies (§6.7); a dead Leader leads no more."""
    for name in turn.alive0:
        p = turn.p(name)
        cards = [str(c) for _, c in turn.slots[name] if c is not None]
        p.fields["hand"] = cards
        if not cards or all(c == ROT for c in cards):
            p.fields["alive"] = False
            p.fields["hand"] = []
            turn.died.append(name)
            turn.announce("death", player=name)
            reveal = turn.state.options["reveal_role_on_death"]
            if reveal != "none":
                shown = {"role": p.role} if reveal == "role" else {"faction": p.faction}
                turn.announce("role_revealed", player=name, **shown)
    if turn.state.data.get("leader") in turn.died:
        turn.state.data["leader"] = None


def e13_leader_and_beating(turn: Turn) -> None:
    """Night: the Leader election, then the beaten reveal. Day: the beaten mark."""
    if turn.night:
        votes.elect_leader(turn)
        votes.beaten_reveal(turn)
    else:
        votes.mark_beaten(turn)


def e14_win(turn: Turn) -> None:
    """One faction alone alive wins (its dead too); nobody alive is a draw (§3.2, D-41)."""
    living = [p for p in turn.state.players if alive(p)]
    factions = {p.faction for p in living}
    winner = DRAW if not living else (factions.pop() if len(factions) == 1 else None)
    if winner is not None:
        turn.state.winner = winner
        turn.state.finished = True


def e15_report(turn: Turn) -> None:
    """The report: hand sizes and the result for everyone, then each private result."""
    state = turn.state
    counts = {p.name: len(p.fields.get("hand") or []) for p in state.players if alive(p)}
    turn.announce("hand_sizes", counts=counts)
    if state.finished:
        survivors = [p.name for p in state.players if alive(p)]
        turn.announce("game_over", winner=state.winner, survivors=survivors)
    for name in turn.alive0:
        total = int(turn.p(name).fields.get("points", 0))
        delta = total - turn.points_start.get(name, 0)
        if delta:
            turn.tell(name, "points_changed", delta=delta, total=total)
    turn.private.extend(turn.messages)
    for event in turn.public:
        turn.emit(event)
    for event in turn.private:
        turn.emit(event)
    turn.public, turn.private = [], []


PHASE_STEPS: tuple[Step[Turn], ...] = tuple(
    Step(name, fn, fn.__doc__ or "")
    for name, fn in (
        ("E1 Приём приказов закрыт", e01_close),
        ("E2 Снимок на дедлайн", e02_snapshot),
        ("E3 Цель мафии", e03_kill_target),
        ("E4 Оплата", e04_payments),
        ("E5 Карты уходят из руки", e05_leave_hand),
        ("E6 Эффекты", e06_effects),
        ("E7 Убийство и броня / Вече", e07_votes),
        ("E8 Урон", e08_damage),
        ("E9 Добор на замену", e09_replacements),
        ("E10 Добор эффектами и баллы", e10_draws_and_points),
        ("E11 Превращения и Гниль", e11_transformations),
        ("E12 Смерти", e12_deaths),
        ("E13 Лидер и избиение", e13_leader_and_beating),
        ("E14 Победа", e14_win),
        ("E15 Итоги", e15_report),
    )
)
START_STEPS = start.START_STEPS
DRAFT_STEPS = start.DRAFT_STEPS

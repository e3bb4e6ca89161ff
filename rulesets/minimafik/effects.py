"""The simultaneous part of a phase: effects, damage, draws and transformations (§6, §8 E6–E11)."""

from __future__ import annotations

from engine.core.events import Event
from rulesets.minimafik.cards import Effect
from rulesets.minimafik.context import PENDING, Act, Turn
from rulesets.minimafik.roles import BLANK, LAW, ROT
from rulesets.minimafik.state import character


def draw_card(turn: Turn, name: str) -> str:
    """The top card of the character's own deck, or a Blank when it is empty (§6.5)."""
    deck = turn.p(name).fields.setdefault("deck", [])
    return str(deck.pop(0)) if deck else BLANK


def _to(act: Act, effect: Effect) -> str | None:
    return act.player if effect.to == "self" else act.target


def evaluate(turn: Turn) -> None:
    """E6: every played side and used ability, all together; information reads the snapshot."""
    for act in turn.acts:
        for effect in act.effects:
            to = _to(act, effect)
            if to is None:
                continue
            do = effect.do
            if do == "deal_damage":
                turn.damage[to] += effect.n
            elif do == "give_armor":
                turn.armor[to] += effect.n
            elif do == "protect":
                turn.protected.add(to)
            elif do == "gain_points":
                turn.gains.append((to, effect.n))
            elif do == "draw":
                turn.draws.append((to, effect.n))
            elif do in ("add_rot", "transform"):
                turn.changes.append((to, effect))
            elif do == "extra_vote":
                turn.extra_votes[act.player] += effect.n
            elif do == "vece_immunity":
                turn.immune.add(to)
            elif do == "send_message":
                sender = character(turn.p(act.player)) if effect.signed else None
                turn.messages.append(_message(to, act.text or "", sender))
            else:
                _inform(turn, act.player, to, do)


def _message(to: str, text: str, sender: str | None) -> Event:
    return Event.private(to, "message", text=text, **{"from": sender})


def _inform(turn: Turn, player: str, target: str, do: str) -> None:
    """Information effects: the deadline snapshot and the target's chosen cards (D-08)."""
    if do == "look_at_hand":
        turn.tell(player, "hand_seen", target=target, cards=list(turn.snapshot.get(target, [])))
    elif do == "reveal_colour":
        colours = [turn.coll.colour_of(c) for c in turn.chosen.get(target, [])]
        turn.tell(player, "colour_seen", target=target, colours=colours)
    elif do == "reveal_card":
        turn.tell(player, "card_seen", target=target, cards=list(turn.chosen.get(target, [])))
    elif do == "check_faction":
        turn.tell(player, "faction_result", target=target, faction=turn.p(target).faction)
    elif do == "check_role":
        turn.tell(player, "role_result", target=target, role=turn.p(target).role)


def apply_damage(turn: Turn) -> None:
    """E8: damage against armour, protection and the first-night cap (§6.4, D-10, D-11)."""
    cap = int(turn.state.options["first_night_damage_cap"])
    first_night = turn.night and turn.number == 1 and cap > 0
    for name in turn.alive0:
        raw = turn.damage.get(name, 0)
        armor = turn.armor.get(name, 0)
        turn.p(name).fields["armor"] = armor
        if raw <= 0:
            continue
        protected = name in turn.protected
        amount = 0 if protected else raw
        if first_night:
            amount = min(amount, cap)
        lost = max(0, amount - armor)
        slots = turn.slots[name]
        cancelled = 0
        discarded: list[str] = []
        for _ in range(lost):
            pending = next((k for k, (_, c) in enumerate(slots) if c is PENDING), None)
            if pending is not None:
                del slots[pending]
                cancelled += 1
                continue
            front = next((k for k, (_, c) in enumerate(slots) if c != ROT), None)
            if front is None:
                break  # only Rot is left: surplus damage is ignored (D-22)
            discarded.append(str(slots.pop(front)[1]))
        turn.tell(
            name,
            "damage_taken",
            raw=raw,
            protected=protected,
            amount=amount,
            armor=armor,
            lost=lost,
            cancelled_draws=cancelled,
            discarded=discarded,
        )


def replacement_draws(turn: Turn) -> None:
    """E9: each remaining pending slot, front to back, gets the top card of the deck."""
    for name in turn.alive0:
        slots = turn.slots[name]
        drawn = []
        for k, (instance, card) in enumerate(slots):
            if card is PENDING:
                new = draw_card(turn, name)
                slots[k] = (instance, new)
                drawn.append(new)
        if drawn:
            turn.tell(name, "cards_drawn", cards=drawn, reason="replace")


def effect_draws(turn: Turn) -> None:
    """E10: `draw` effects go after the last non-Rot card; then point gains."""
    drawn: dict[str, list[str]] = {}
    for name, n in turn.draws:
        slots = turn.slots[name]
        for _ in range(n):
            new = draw_card(turn, name)
            place = sum(1 for _, c in slots if c != ROT)
            slots.insert(place, (-1, new))
            drawn.setdefault(name, []).append(new)
    for name in turn.alive0:
        if name in drawn:
            turn.tell(name, "cards_drawn", cards=drawn[name], reason="effect")
    for name, n in turn.gains:
        p = turn.p(name)
        p.fields["points"] = int(p.fields.get("points", 0)) + n


def transformations(turn: Turn) -> None:
    """E11: card effects first (seat order of who played them), then dark-side Rot (D-23)."""
    for name, effect in turn.changes:
        slots = turn.slots[name]
        fronts = [k for k, (_, c) in enumerate(slots) if c != ROT][: effect.n]
        if effect.do == "add_rot":
            cards = [str(slots[k][1]) for k in fronts]
            for k in reversed(fronts):
                del slots[k]
            slots.extend((-1, ROT) for _ in cards)
            if cards:
                turn.tell(name, "rot_created", cards=cards, reason="effect")
        else:
            into = str(effect.into)
            for k in fronts:
                before = str(slots[k][1])
                slots[k] = (slots[k][0], into)
                turn.tell(name, "card_transformed", **{"from": before, "to": into})
    for name in turn.dark_law:
        slots = turn.slots[name]
        front = next((k for k, (_, c) in enumerate(slots) if c != ROT), None)
        if front is None:
            continue
        card = str(slots.pop(front)[1])
        slots.append((-1, ROT))
        turn.tell(name, "rot_created", cards=[card], reason="dark_side")


def rots_for_dark_sides(turn: Turn) -> None:
    """Who gets Rot at E11b: Law characters who played a dark side (§6.6; Mafia does not, D-24)."""
    turn.dark_law = [
        a.player
        for a in turn.acts
        if a.dark and a.card is not None and turn.p(a.player).faction == LAW
    ]

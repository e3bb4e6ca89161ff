"""The vote of a turn: «Я сказал», «Молчать», the weighted count and the lynch (§2.4, §9 step 6)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from engine.core.events import Event
from rulesets.twelve_rooms.context import LYNCH, Turn
from rulesets.twelve_rooms.roles import LYNCH_SHIELDS, NO_LYNCH
from rulesets.twelve_rooms.rooms import SAFE
from rulesets.twelve_rooms.state import alive, immune, role_of, role_state, room_type


def s04_i_said(t: Turn) -> None:
    """«Я сказал»: the two voters' ballots are replaced (created if they sent none)."""
    for name, order in t.orders("i_said"):
        voters = order.targets
        if not t.can_use(name, "i_said") or not t.living(*voters):
            continue
        for voter, choice in zip(voters, order.args["vote_for"], strict=True):
            t.ballots[voter] = {"target": str(choice), "substituted": True}
        t.applied(name, voters)


def s05_hush(t: Turn) -> None:
    """«Молчать»: ballots of voters whose start room is the named room are not counted."""
    for name, order in t.orders("hush"):
        if t.can_use(name, "hush"):
            t.hushed.add(int(order.args["room"]))


def number(x: Fraction) -> int | float:
    return int(x) if x.denominator == 1 else float(x)


def count(t: Turn) -> tuple[list[dict[str, Any]], dict[str, Fraction]]:
    """Counted ballots (sorted by voter) and the totals, halves kept (§9 step 6.1–6.2)."""
    votes: list[dict[str, Any]] = []
    totals: dict[str, Fraction] = {}
    for voter in sorted(t.ballots, key=str.casefold):
        ballot = t.ballots[voter]
        if not alive(t.p(voter)) or t.start_room.get(voter) in t.hushed:
            continue
        target = str(ballot["target"])
        if target in t.removed:
            continue  # he could not know the target would be removed for inactivity
        if target == NO_LYNCH:
            if t.number not in t.state.options["no_lynch_turns"]:
                target = voter
        elif not alive(t.p(target)):
            target = voter  # «невалидный голос … считается голосом в себя»
        weight = 1 if t.number == 1 else int(t.p(voter).fields.get("vote_weight", 1))
        votes.append(
            {
                "voter": voter,
                "target": target,
                "weight": weight,
                "substituted": bool(ballot["substituted"]),
            }
        )
        totals[target] = totals.get(target, Fraction(0)) + weight
    for target in list(totals):
        if target != NO_LYNCH and t.p(target).fields.get("half_votes"):
            totals[target] /= 2
    return votes, totals


def s06_vote(t: Turn) -> None:
    """Голосование: publish the tally; leaders are lynched unless shielded, immune or safe."""
    votes, totals = count(t)
    ordered = sorted(totals, key=lambda k: (-totals[k], k.casefold()))
    t.emit(
        Event.public(
            "vote_tally",
            votes=votes,
            totals={k: number(totals[k]) for k in ordered if totals[k] > 0},
        )
    )
    selected: list[str] = []
    top = max(totals.values(), default=Fraction(0))
    leaders = [k for k in ordered if totals[k] == top and top > 0]
    if leaders and leaders != [NO_LYNCH]:
        group = [k for k in leaders if k != NO_LYNCH]
        shielded = False
        selected, shielded = _process(t, group)
        if not selected and shielded:
            below = [v for k, v in totals.items() if k != NO_LYNCH and 0 < v < top]
            if below:
                second = max(below)
                runners = [k for k in ordered if k != NO_LYNCH and totals[k] == second]
                selected, _ = _process(t, runners)
    for name in selected:
        if room_type(t.state, t.start_room[name]) == SAFE:
            t.p(name).fields.setdefault("pending_kills", []).append(
                {"cause": LYNCH, "by": None, "room_type": None}
            )
            t.emit(Event.public("lynch_avoided", player=name, reason="safe_room"))
        else:
            t.eliminate(name, LYNCH)
    if not selected:
        t.emit(Event.public("no_lynch"))
    for event in t.late_deaths:
        t.emit(event)
    t.late_deaths.clear()


def _process(t: Turn, group: list[str]) -> tuple[list[str], bool]:
    """Rule 4 of step 6: immunity, then an unused lynch shield, else selected."""
    selected: list[str] = []
    shielded = False
    for name in t.state.in_seating_order(group):
        p = t.p(name)
        held = role_state(p)
        if immune(p, t.number):
            t.emit(Event.public("lynch_avoided", player=name, reason="immunity"))
        elif any(s in role_of(p).skills for s in LYNCH_SHIELDS) and not held["lynch_shield_used"]:
            held["lynch_shield_used"] = True
            shielded = True
            t.emit(Event.public("lynch_avoided", player=name, reason="shield"))
        else:
            selected.append(name)
    return selected, shielded

"""The end of a day (votecount.md "End of day"): the final count, then lynch or no lynch."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from engine.core import rng as rngmod
from engine.core.events import Event
from engine.core.model import GameState
from engine.core.orders import OrderKind
from engine.core.ruleset import PhaseInputs, Resolution, Step
from rulesets.votecount.intake import (
    HAMMER,
    NO_LYNCH,
    current_votes,
    leader_of,
    majority,
    totals_of,
    weight,
)


@dataclass
class Day(Resolution):
    """What the steps of one day share."""

    votes: dict[str, str | None] = field(default_factory=dict)
    totals: dict[str, int] = field(default_factory=dict)

    @property
    def is_day(self) -> bool:
        return self.inputs.phase.id.kind == "day"


def new_day(state: GameState, inputs: PhaseInputs, rng: random.Random) -> Day:
    return Day(state, inputs, rng)


def tally(d: Day) -> None:
    if not d.is_day:
        return
    d.votes = current_votes(d.state, d.inputs)
    d.totals = totals_of(d.state, d.votes)
    d.emit(
        Event.public(
            "vote_tally",
            day=d.inputs.phase.id.number,
            votes=dict(d.votes),
            totals=dict(d.totals),
            not_voting=[v for v, t in d.votes.items() if t is None],
            leader=leader_of(d.totals),
            majority=majority(d.state),
        )
    )


def decide(d: Day) -> None:
    if not d.is_day:
        return
    options = d.state.options
    hammer = d.inputs.data.get(HAMMER)
    if hammer is not None:
        d.emit(Event.public("hammer", player=hammer["player"], post_id=hammer["post_id"]))
        _lynch(d, [hammer["player"]], "majority")
        return
    if not d.totals:
        d.emit(Event.public("no_lynch", reason="no_votes"))
        return
    if options["end"] == "majority" and options["on_deadline"] == "none":
        d.emit(Event.public("no_lynch", reason="no_majority"))
        return
    top = max(d.totals.values())
    tied = [t for t, n in d.totals.items() if n == top]
    if len(tied) == 1:
        _lynch(d, tied, "plurality")
        return
    tie = options["tie"]
    if tie == "none":
        d.emit(Event.public("no_lynch", reason="tie"))
    elif tie == "all":
        _lynch(d, tied, "tie_break")
    elif tie == "random":
        _lynch(d, [rngmod.choice(d.rng, tied)], "tie_break")
    else:
        _lynch(d, [_first_to_reach(d, tied, top)], "tie_break")


def _first_to_reach(d: Day, tied: list[str], count: int) -> str:
    """Replay the day's votes: who last climbed to `count` earliest (and kept it)."""
    ballots: dict[str, str] = {}
    reached: dict[str, int] = {}
    for step, order in enumerate(d.inputs.log):
        if order.kind is OrderKind.UNVOTE:
            ballots.pop(order.player, None)
        elif order.target is not None:
            ballots[order.player] = order.target
        totals: dict[str, int] = {}
        for voter, target in ballots.items():
            if voter in d.votes:
                totals[target] = totals.get(target, 0) + weight(d.state, voter)
        for target in tied:
            if totals.get(target, 0) >= count:
                reached.setdefault(target, step)
            else:
                reached.pop(target, None)
    return min(tied, key=lambda t: (reached.get(t, len(d.inputs.log)), tied.index(t)))


def _lynch(d: Day, targets: list[str], reason: str) -> None:
    players = [t for t in targets if t != NO_LYNCH]
    if not players:
        d.emit(Event.public("no_lynch", reason="no_lynch_vote"))
        return
    for name in d.state.in_seating_order(players):
        d.state.player(name).fields["alive"] = False
        d.emit(Event.public("lynch", player=name, reason=reason))


STEPS: tuple[Step[Day], ...] = (
    Step("V1 tally", tally, "the final count of living voters' last valid votes"),
    Step("V2 decide", decide, "hammer, plurality or tie rule: lynch or no lynch"),
)

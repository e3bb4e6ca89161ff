"""Intake of votes during a day (votecount.md "Votes"): channel, sender, target, hammer."""

from __future__ import annotations

import re
from collections import Counter
from datetime import datetime, timedelta
from typing import Any

from engine.core import warnings as w
from engine.core.events import Event
from engine.core.model import GameState
from engine.core.orders import Channel, Order, OrderKind
from engine.core.ruleset import IntakeResult, PhaseInputs
from engine.core.warnings import N_, ParseWarning
from rulesets.votecount.grammar import GRAMMAR
from rulesets.votecount.help import refusal

NO_LYNCH = "no_lynch"
HAMMER = "hammer"
"""`inputs.data` key: {player, post_id} once a target reached majority."""

_MESSAGES = {
    w.LATE: N_("sent after the end of the day (deadline or hammer)"),
    w.SENDER_NOT_IN_PLAY: N_("the sender is not a living player"),
    w.TARGET_NOT_IN_PLAY: N_("the target is not a living player"),
    w.UNKNOWN_TARGET: N_("the target is not on the roster"),
    w.INVALID_TARGET: N_("this target may not be voted for in this game"),
    w.NOT_ALLOWED: N_("this player may not vote, or not in this phase"),
    w.PM_VOTE_IGNORED: N_("votes count only in the game thread"),
    w.THREAD_VOTE_IGNORED: N_("votes count only by PM to the GM"),
    w.UNKNOWN_COMMAND: N_("a votecount game takes votes only"),
}


# -- the slot model shared with resolution ---------------------------------------------------


def slot(state: GameState, name: str | None) -> str | None:
    """The roster slot a name belongs to: a substitute's votes belong to the slot he took."""
    if name is None:
        return None
    return str(state.options["replacements"].get(name, name))


def alive(state: GameState, name: str) -> bool:
    return state.has_player(name) and bool(state.player(name).fields.get("alive", True))


def living_slots(state: GameState) -> list[str]:
    subs = set(state.options["replacements"])
    return [p.name for p in state.players if p.name not in subs and alive(state, p.name)]


def voters(state: GameState) -> list[str]:
    banned = set(state.options["cannot_vote"])
    return [n for n in living_slots(state) if n not in banned]


def majority(state: GameState) -> int:
    return len(living_slots(state)) // 2 + 1


def weight(state: GameState, voter: str) -> int:
    return int(state.options["weights"].get(voter, 1))


def current_votes(state: GameState, inputs: PhaseInputs) -> dict[str, str | None]:
    """Every living voter → target, ``no_lynch`` or None, in seating order."""
    return {v: (inputs.votes[v].target if v in inputs.votes else None) for v in voters(state)}


def totals_of(state: GameState, votes: dict[str, str | None]) -> dict[str, int]:
    """Weighted totals: most votes first, then seating order, no lynch last."""
    counts: Counter[str] = Counter()
    for voter, target in votes.items():
        if target is not None:
            counts[target] += weight(state, voter)
    names = state.names

    def key(target: str) -> tuple[int, int]:
        return -counts[target], names.index(target) if target in names else len(names)

    return {t: counts[t] for t in sorted(counts, key=key) if counts[t] > 0}


def leader_of(totals: dict[str, int]) -> str | None:
    top = max(totals.values(), default=0)
    leaders = [t for t, n in totals.items() if n == top]
    return leaders[0] if top > 0 and len(leaders) == 1 else None


# -- intake -----------------------------------------------------------------------------------


class Intake:
    """Takes one command at a time into a day's ledger."""

    def __init__(self, state: GameState, inputs: PhaseInputs) -> None:
        self.state = state
        self.inputs = inputs
        self.options = state.options
        self.out = IntakeResult()

    def reject(self, order: Order, code: str) -> IntakeResult:
        action = "unvote" if order.kind is OrderKind.UNVOTE else "vote"
        if not order.is_vote:
            action = order.action or order.kind.value
        self.out.warnings.append(
            ParseWarning(
                code=code,
                message=_MESSAGES.get(code, code),
                player=order.player,
                source=order.source,
                action=action,
            )
        )
        if self.state.has_player(order.player):
            names = [n for n in living_slots(self.state) if n != order.player]
            fields = refusal(names, action, code)
            self.out.events.append(Event.private(order.player, "order_rejected", **fields))
        return self.out

    def take(self, order: Order) -> IntakeResult:
        if order.kind is OrderKind.REQUEST and order.action == "vote_count_request":
            return self.vote_count(order)
        if not order.is_vote:
            return self.reject(order, w.UNKNOWN_COMMAND)
        if self.inputs.phase.id.kind != "day":
            return self.reject(order, w.NOT_ALLOWED)
        if self.inputs.phase.is_late(order.at) or HAMMER in self.inputs.data:
            return self.reject(order, w.LATE)
        if order.source is not None:  # a post or PM; structured votes come through any channel
            wanted = self.options["vote_channel"]
            if wanted == "thread" and order.channel is Channel.PM:
                return self.reject(order, w.PM_VOTE_IGNORED)
            if wanted == "pm" and order.channel is Channel.THREAD:
                return self.reject(order, w.THREAD_VOTE_IGNORED)
            if self.options["vote_line_start"] and not _starts_line(order):
                return self.out  # not a vote where votes must open a line
        voter = slot(self.state, order.player) or order.player
        if not alive(self.state, voter):
            return self.reject(order, w.SENDER_NOT_IN_PLAY)
        if voter in self.options["cannot_vote"]:
            return self.reject(order, w.NOT_ALLOWED)
        if order.kind is OrderKind.UNVOTE:
            self.inputs.votes.pop(voter, None)
            self.inputs.log.append(order.with_(player=voter))
            return self.out
        if order.kind is OrderKind.NO_LYNCH or order.target == NO_LYNCH:
            if not self.options["no_lynch"]:
                return self.reject(order, w.INVALID_TARGET)
            return self.register(order, voter, NO_LYNCH)
        target = slot(self.state, order.target)
        if target is None or not self.state.has_player(target):
            return self.reject(order, w.UNKNOWN_TARGET)
        if not alive(self.state, target) or target in self.options["replacements"]:
            return self.reject(order, w.TARGET_NOT_IN_PLAY)
        if target in self.options["cannot_be_voted"]:
            return self.reject(order, w.INVALID_TARGET)
        return self.register(order, voter, target)

    def vote_count(self, order: Order) -> IntakeResult:
        """A living player asks for the count: posted at once, at most once per cooldown."""
        voter = slot(self.state, order.player) or order.player
        if not alive(self.state, voter):
            return self.reject(order, w.SENDER_NOT_IN_PLAY)
        last: datetime | None = self.inputs.data.get("last_vote_count_at")
        cooldown = timedelta(minutes=self.options["vote_count_cooldown_minutes"])
        if last is not None and order.at is not None and order.at - last < cooldown:
            # Asked again too soon: the last count is still on the page. The player hears
            # when the next one may be asked (a receipt, as for a vote not taken).
            self.out.events.append(
                Event.private(
                    order.player,
                    "vote_count_refused",
                    last=last.isoformat(),
                    next=(last + cooldown).isoformat(),
                )
            )
            return self.out
        votes = current_votes(self.state, self.inputs)
        totals = totals_of(self.state, votes)
        self.out.events.append(
            Event.public(
                "vote_count",
                day=self.inputs.phase.id.number,
                votes=votes,
                totals=totals,
                not_voting=[v for v, t in votes.items() if t is None],
                majority=majority(self.state),
                at=order.at.isoformat() if order.at else None,
                history=vote_history(self.inputs),
            )
        )
        if order.at is not None:
            self.inputs.data["last_vote_count_at"] = order.at
        return self.out

    def register(self, order: Order, voter: str, target: str) -> IntakeResult:
        kind = OrderKind.NO_LYNCH if target == NO_LYNCH else OrderKind.VOTE
        vote = order.with_(player=voter, kind=kind, targets=(target,))
        self.inputs.votes[voter] = vote
        self.inputs.log.append(vote)
        if self.options["end"] == "majority":
            totals = totals_of(self.state, current_votes(self.state, self.inputs))
            if totals.get(target, 0) >= majority(self.state):
                post_id = order.source.post_id if order.source else None
                hammer: dict[str, Any] = {"player": target, "post_id": post_id}
                self.inputs.data[HAMMER] = hammer
        return self.out


def vote_history(inputs: PhaseInputs) -> list[dict[str, Any]]:
    """Every counted vote and unvote of the day so far, with a link to its post."""
    history = []
    for order in inputs.log:
        if order.kind not in (OrderKind.VOTE, OrderKind.UNVOTE, OrderKind.NO_LYNCH):
            continue
        source = order.source
        history.append(
            {
                "voter": order.player,
                "target": None if order.kind is OrderKind.UNVOTE else order.target,
                "at": order.at.isoformat() if order.at else None,
                "url": (source.url or source.post_id) if source else None,
            }
        )
    return history


_WORD_RE = re.compile(r"[^\W_]+")


def _words(text: str) -> list[str]:
    """Lower-case words, ё as е, markup and punctuation dropped (as the matcher reads them)."""
    text = re.sub(r"\[/?[a-z]+[^\]]*\]", " ", text.lower().replace("ё", "е"))
    return _WORD_RE.findall(text)


_PHRASES = [_words(p) for f in GRAMMAR.forms for p in f.phrases]


def _starts_line(order: Order) -> bool:
    """With `vote_line_start`, the vote's line must open with a vote phrase."""
    text = order.source.text if order.source else ""
    if not text:
        return True
    words = _words(text)
    return any(p and words[: len(p)] == p for p in _PHRASES)

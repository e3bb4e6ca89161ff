"""How to vote in a vote-count game, from the grammar (`engine.core.usage`): for the opening
post and for a vote that was not taken (issue 23)."""

from __future__ import annotations

from typing import Any

from engine.core import warnings as w
from engine.core.model import GameState
from engine.core.orders import OrderKind
from engine.core.usage import UsageSpec, usage
from rulesets.votecount.grammar import GRAMMAR

VOTE = UsageSpec(OrderKind.VOTE, "vote", phrase={"ru": "голосую за", "en": "vote"})
UNVOTE = UsageSpec(
    OrderKind.UNVOTE, "unvote", what={"ru": "снять свой голос", "en": "take your vote back"}
)
NO_LYNCH = UsageSpec(
    OrderKind.NO_LYNCH,
    "no_lynch",
    phrase={"ru": "не линчевать", "en": "no lynch"},
    what={"ru": "голос за то, чтобы сегодня никого не казнить", "en": "vote to lynch nobody"},
)
COUNT = UsageSpec(
    OrderKind.REQUEST,
    "vote_count_request",
    phrase={"ru": "подсчёт голосов", "en": "vote count please"},
    what={"ru": "попросить подсчёт голосов", "en": "ask for a vote count"},
)


def vote_usage(names: list[str]) -> dict[str, Any]:
    return usage(GRAMMAR, VOTE, target=names[0] if names else None)


def how_to_vote(state: GameState, names: list[str]) -> list[dict[str, Any]]:
    """The forms the opening post shows; the example names the first player of the game."""
    found = [vote_usage(names), usage(GRAMMAR, UNVOTE)]
    if state.options.get("no_lynch"):
        found.append(usage(GRAMMAR, NO_LYNCH))
    found.append(usage(GRAMMAR, COUNT))
    return found


SHOW_FORM = frozenset({w.UNKNOWN_TARGET, w.AMBIGUOUS_TARGET, w.INVALID_TARGET})


def refusal(names: list[str], action: str, code: str) -> dict[str, Any]:
    """The fields of a refused vote's receipt: with the form where the vote was miswritten."""
    fields: dict[str, Any] = {"action": action, "reason": code}
    if action == "vote" and code in SHOW_FORM and names:
        fields["usage"] = vote_usage(names)
    return fields

"""The votecount command language (votecount.md "Votes"), as grammar data.

Votes are read anywhere in a line (`line_start=False`); the `vote_line_start` option is
enforced at intake, where the line each vote came from is known.
"""

from __future__ import annotations

from engine.core.grammar import ArgKind, CommandForm, Grammar
from engine.core.orders import OrderKind

NO_LYNCH_WORDS = ("не линчевать", "за мир", "no lynch", "nolynch")

FORMS: tuple[CommandForm, ...] = (
    CommandForm(OrderKind.VOTE, ("голосую за", "голосую против", "голос за", "голос", "гз")),
    # `[vote]X[/vote]` reads as «VOTE: X» (forums.bbcode, scraper.normalize).
    CommandForm(OrderKind.VOTE, ("vote", "vote for"), lang="en"),
    CommandForm(OrderKind.UNVOTE, ("снимаю голос", "отзываю голос"), ArgKind.NONE),
    CommandForm(OrderKind.UNVOTE, ("unvote",), ArgKind.NONE, lang="en"),
    CommandForm(OrderKind.NO_LYNCH, ("не линчевать", "за мир"), ArgKind.NONE),
    CommandForm(OrderKind.NO_LYNCH, ("no lynch", "nolynch"), ArgKind.NONE, lang="en"),
    # A player asks for the count (it is posted in the thread, at most once per cooldown).
    CommandForm(
        OrderKind.REQUEST,
        ("подсчет голосов", "текущее голосование", "покажи голоса"),
        ArgKind.NONE,
        actions=("vote_count_request",),
    ),
    CommandForm(
        OrderKind.REQUEST,
        ("vote count please", "vc please", "request a vote count"),
        ArgKind.NONE,
        actions=("vote_count_request",),
        lang="en",
    ),
)

GRAMMAR = Grammar(
    forms=FORMS,
    prepositions=frozenset({"за", "против", "for", "on"}),
    # «голос за меня», "vote me": talk, not a self-vote (the matcher drops it).
    self_words=frozenset({"себя", "меня", "me", "myself"}),
    no_lynch_words=NO_LYNCH_WORDS,
    line_start=False,
    count_spoilers=False,
    # A condition before a vote in the same sentence makes it no vote («если что, голос за
    # Васю», «если бы могли — голосую за X», «I'd vote X»); the matcher also drops a vote
    # followed by «если» / «if» / «unless» in its sentence.
    hedges=("если", "если бы", "бы", "if", "would", "i'd", "unless", "когда"),
    question_is_hedge=True,
)

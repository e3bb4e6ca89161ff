"""votecount's texts: the day's results are said as over, the running count as not yet."""

from __future__ import annotations

import pytest

import rulesets
from engine.core.events import Event
from engine.render import Renderer


@pytest.mark.parametrize(
    ("lang", "over", "running"),
    [
        ("ru", "Голосов не было", "Голосов пока нет."),
        ("en", "Nobody voted", "No votes yet."),
    ],
)
def test_a_day_with_no_votes_is_over_in_its_results(lang: str, over: str, running: str) -> None:
    """The results post of a day nobody voted in says there were none, not «none yet»
    (the words of the running count, which the same macro writes)."""
    renderer = Renderer.for_ruleset(rulesets.find("votecount"), lang)
    events = [
        Event.public("vote_tally", votes={}, totals={}, not_voting=["Вася", "Петя"]),
        Event.public("no_lynch", reason="no_votes"),
    ]
    text = renderer.render_public(events, phase="day 1")
    assert text.count(over) == 1 and running not in text  # said once, by the verdict
    assert ("Не голосовали: Вася, Петя." if lang == "ru" else "Did not vote: Вася, Петя.") in text

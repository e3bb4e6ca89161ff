"""The accuracy gate of issue 4: no post of the labelled corpus is misread without a warning."""

from __future__ import annotations

from collections import Counter

from engine.corpus import all_items, run


def test_corpus_size_and_sources() -> None:
    items = all_items()
    rulesets = Counter(i.ruleset for i in items)
    assert len(items) >= 600
    assert rulesets["classic"] >= 100 and rulesets["votecount"] >= 300
    assert len({i.id for i in items}) == len(items)
    assert any(i.cls == "phpbb_truth" for i in items)
    issue_11 = [i for i in items if i.cls in ("short_form", "midline")]
    assert len(issue_11) >= 40 and {i.ruleset for i in issue_11} == {"votecount", "classic"}
    classes = {i.cls for i in items}
    for needed in (
        "acronym",
        "joke",
        "conditional",
        "dead",
        "broken_quote",
        "split_line",
        "signature",
        "quoted",
        "struck",
        "typo",
        "english",
        "chatter",
        "declined",
        "short_form",
        "midline",
        "hidden",
        "ambiguous",
    ):
        assert needed in classes


def test_nothing_is_misread_silently() -> None:
    tallies, outcomes = run()
    wrong = [
        (o.item.id, o.item.text, o.orders, o.warnings) for o in outcomes if o.verdict == "wrong"
    ]
    assert wrong == []
    assert tallies["all"].warned_share <= 0.05

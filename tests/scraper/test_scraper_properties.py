"""Properties of the parser on arbitrary text, and grammar switches classic does not use."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core.grammar import ArgKind, CommandForm, Grammar
from engine.core.orders import Channel, OrderKind
from forums.records import PostBody, TextRun
from rulesets.classic.grammar import GRAMMAR
from scraper.matcher import parse_post
from scraper.nicknames import NameResolver

ROSTER = ("Вася", "Петя", "Уставший Скиталец", "Law", "Ника", "Ник", "Кот", "Кота")
RESOLVER = NameResolver(ROSTER)
LENIENT = NameResolver(ROSTER, lenient=True)

# Text made of command words, nick fragments, punctuation and anything else.
_COMMAND_WORDS = "виноват|голосую за|выстрел в|анонимка для|отмена|лечу|себя|рейтинг|no lynch"
_NICK_BITS = "Васю|Пети|Уставшего|Скитальца|Law'а|Нику|Кота|ё"
_MARKS = ":|?|\n|[b]|[/b]|«|»|@|—|->| |\u200b|'|-"
_PIECES = st.sampled_from("|".join((_COMMAND_WORDS, _NICK_BITS, _MARKS)).split("|"))
_TEXT = st.lists(st.one_of(_PIECES, st.text(max_size=12)), max_size=25).map("".join)
_RUNS = st.lists(
    st.builds(
        TextRun,
        _TEXT,
        quoted=st.booleans(),
        struck=st.booleans(),
        spoiler=st.booleans(),
        code=st.booleans(),
    ),
    max_size=4,
)

VOTECOUNT_LIKE = Grammar(
    forms=(
        CommandForm(OrderKind.VOTE, ("vote", "голос за", "голос")),
        CommandForm(OrderKind.UNVOTE, ("unvote", "снимаю голос"), ArgKind.NONE),
    ),
    prepositions=frozenset({"за"}),
    no_lynch_words=("no lynch", "за мир"),
    line_start=False,
    count_spoilers=True,
)


@settings(max_examples=300, deadline=None)
@given(runs=_RUNS, channel=st.sampled_from(list(Channel)))
def test_parse_never_raises_and_targets_are_players(runs: list[TextRun], channel: Channel) -> None:
    for grammar, resolver in ((GRAMMAR, RESOLVER), (VOTECOUNT_LIKE, LENIENT)):
        result = parse_post(
            PostBody(tuple(runs)), grammar, resolver, sender="Петя", channel=channel
        )
        for order in result.orders:
            assert order.player == "Петя"
            for target in order.targets:
                assert target in ROSTER or target == "no_lynch"
        for warning in result.warnings:
            assert set(warning.choices) <= set(ROSTER)


@settings(max_examples=200, deadline=None)
@given(text=_TEXT)
def test_resolver_never_raises_and_rest_is_a_suffix(text: str) -> None:
    for resolver in (RESOLVER, LENIENT):
        found = resolver.match_start(text)
        assert text.endswith(found.rest)
        assert found.consumed == len(text) - len(found.rest)
        assert found.name is None or found.name in ROSTER
        assert set(found.candidates) <= set(ROSTER)


def _votes(text: str) -> list[tuple[OrderKind, tuple[str, ...]]]:
    result = parse_post(
        PostBody.plain(text), VOTECOUNT_LIKE, LENIENT, sender="Ник", channel=Channel.THREAD
    )
    return [(o.kind, o.targets) for o in result.orders]


def test_anywhere_in_a_line_when_the_grammar_allows_it() -> None:
    assert _votes("Я думаю, что он врёт. vote Pyotr") == []  # unknown name: a warning, no order
    assert _votes("Я думаю, что он врёт. vote Petya") == [(OrderKind.VOTE, ("Петя",))]  # translit
    assert _votes("Я думаю, что он врёт. Голос за Васю, и всё. unvote") == [
        (OrderKind.VOTE, ("Вася",)),
        (OrderKind.UNVOTE, ()),
    ]


def test_no_lynch_words() -> None:
    assert _votes("vote no lynch") == [(OrderKind.NO_LYNCH, ("no_lynch",))]
    assert _votes("голос за мир") == [(OrderKind.NO_LYNCH, ("no_lynch",))]


def test_lenient_names_in_votes() -> None:
    assert _votes("vote УС") == [(OrderKind.VOTE, ("Уставший Скиталец",))]
    assert _votes("[vote]Уст[/vote]") == [(OrderKind.VOTE, ("Уставший Скиталец",))]


def test_classic_never_resolves_by_prefix() -> None:
    result = parse_post(
        PostBody.plain("виноват Уст"), GRAMMAR, RESOLVER, sender="Ник", channel=Channel.PM
    )
    assert result.orders == []
    assert result.warnings[0].choices == ("Уставший Скиталец",)

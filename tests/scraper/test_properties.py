"""Properties of issue 4 (hypothesis): quotes and strikes never count, renaming the players
consistently changes nothing, and no input — text, roster or times — raises."""

from __future__ import annotations

import string
from datetime import UTC, datetime, timedelta

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from engine.core.orders import Channel
from forums.bbcode import parse_bbcode
from forums.records import PostBody, TextRun
from rulesets.classic.grammar import GRAMMAR as CLASSIC
from rulesets.votecount.grammar import GRAMMAR as VOTECOUNT
from scraper.matcher import parse_post
from scraper.nicknames import NameResolver
from scraper.reading import Cast, read_post

ROSTER = ("Вася", "Петя", "Уставший Скиталец", "Law", "Nekr0", "Мaрина", "Mr. Fiks", "???")
RESOLVERS = {False: NameResolver(ROSTER), True: NameResolver(ROSTER, lenient=True)}

_VOTE_FORMS = ("vote {}", "голосую за {}", "голос: {}", "[vote]{}[/vote]", "виноват {}",
               "[b]голос за {}[/b]", "выстрел в {}", "unvote", "снимаю голос")  # fmt: skip
_VOTES = st.builds(
    lambda form, name: form.format(name), st.sampled_from(_VOTE_FORMS), st.sampled_from(ROSTER)
)
# Talk around the quoted part: letters, digits, spaces, line breaks and punctuation, but no
# BBCode brackets (they would pair with the quote's own tags).
_TALK = st.text(
    alphabet=st.sampled_from(string.ascii_letters + "абвгдеёжзийклмнопрстуфхцчшщыьэюя .,!?:\n-"),
    max_size=40,
)
_GRAMMARS = st.sampled_from([(CLASSIC, False), (VOTECOUNT, True), (VOTECOUNT, False)])


def _read(body: PostBody, grammar_lenient: tuple, channel: Channel) -> list[tuple]:
    grammar, lenient = grammar_lenient
    result = parse_post(body, grammar, RESOLVERS[lenient], sender="Вася", channel=channel)
    return [(o.kind, o.targets, o.action) for o in result.orders]


@settings(max_examples=200, deadline=None)
@given(
    before=_TALK,
    vote=_VOTES,
    after=_TALK,
    tag=st.sampled_from(["quote", "quote=Петя", 'quote="Mr. Fiks"', "s", "strike"]),
    grammar=_GRAMMARS,
    channel=st.sampled_from(list(Channel)),
)
def test_a_vote_in_a_quote_or_a_strike_never_counts(
    before: str, vote: str, after: str, tag: str, grammar: tuple, channel: Channel
) -> None:
    close = tag.split("=")[0]
    hidden = parse_bbcode(f"{before}[{tag}]{vote}[/{close}]{after}")
    # A dropped quote (a block) or strike still parts the words on its sides: "A" and
    # "не:линчевать" are no «Aне».
    without = parse_bbcode(f"{before}{chr(10) if close == 'quote' else ' '}{after}")
    assert _read(hidden, grammar, channel) == _read(without, grammar, channel)
    only = parse_bbcode(f"[{tag}]{vote}[/{close}]")
    assert _read(only, grammar, channel) == []


@settings(max_examples=200, deadline=None)
@given(
    runs=st.lists(st.tuples(_VOTES, st.booleans(), st.booleans(), _TALK), max_size=5),
    grammar=_GRAMMARS,
)
def test_flagged_runs_never_count(runs: list[tuple[str, bool, bool, str]], grammar: tuple) -> None:
    body = []
    for vote, quoted, struck, talk in runs:
        body.append(TextRun(vote, quoted=quoted or not struck, struck=struck))
        body.append(TextRun(talk))
    flagged = PostBody(tuple(body))
    # What a flagged run leaves: the parting of the words beside it (PostBody.text).
    plain = PostBody(
        tuple(r if not (r.quoted or r.struck) else TextRun("\n" if r.quoted else " ") for r in body)
    )
    assert _read(flagged, grammar, Channel.THREAD) == _read(plain, grammar, Channel.THREAD)


# -- renaming ---------------------------------------------------------------------------------

_RESERVED = {"vote", "unvote", "for", "on", "me", "myself", "self", "no", "lynch", "nolynch",
             "guilty", "shoot", "shot", "kill", "check", "heal", "cancel", "rating", "tally",
             "targets", "anon", "watch", "peek", "block", "guard", "protect", "poison", "judge",
             "investigate", "distract", "cover", "vigilante", "if", "unless", "would", "i"}  # fmt: skip
_NAME = st.text(alphabet="bdfgjlnqrsvwz", min_size=3, max_size=7).map(str.capitalize)


def _roster(size: int) -> st.SearchStrategy[list[str]]:
    def fine(names: list[str]) -> bool:
        keys = [n.lower() for n in names]
        return (
            not any(a != b and b.startswith(a) for a in keys for b in keys)
            and not set(keys) & _RESERVED
        )

    return st.lists(_NAME, min_size=size, max_size=size, unique_by=str.lower).filter(fine)


_SNIPPETS = ("vote {0}", "голосую за {0}", "[quote]vote {0}[/quote]", "{0} is quiet", "unvote",
             "[s]vote {0}[/s]", "[vote]{0}[/vote]", "виноват {0}", "выстрел в {0}",
             "анонимка для {0}: привет", "голос: {0}?", "если что, vote {0}")  # fmt: skip


@settings(max_examples=150, deadline=None)
@given(
    data=st.data(),
    grammar=_GRAMMARS,
    channel=st.sampled_from(list(Channel)),
)
def test_renaming_players_consistently_changes_nothing(
    data: st.DataObject, grammar: tuple, channel: Channel
) -> None:
    first = data.draw(_roster(5))
    second = data.draw(_roster(5))
    assume(not {n.lower() for n in first} & {n.lower() for n in second})
    lines = data.draw(
        st.lists(st.tuples(st.sampled_from(_SNIPPETS), st.integers(0, 4)), min_size=1, max_size=6)
    )
    results = []
    for roster in (first, second):
        text = "\n".join(snippet.format(roster[i]) for snippet, i in lines)
        gram, lenient = grammar
        resolver = NameResolver(roster, lenient=lenient)
        result = parse_post(parse_bbcode(text), gram, resolver, sender=roster[0], channel=channel)
        index = {name: i for i, name in enumerate(roster)}
        results.append(
            (
                [(o.kind, tuple(index.get(t, t) for t in o.targets)) for o in result.orders],
                [w.code for w in result.warnings],
            )
        )
    assert results[0] == results[1]


# -- nothing raises ---------------------------------------------------------------------------

_ANY_NAMES = st.lists(st.text(min_size=1, max_size=12), min_size=1, max_size=6, unique=True)
_ANY_TEXT = st.lists(
    st.one_of(st.text(max_size=15), st.sampled_from([*_VOTE_FORMS, "[quote]", "[/quote]", "\n"])),
    max_size=12,
).map("".join)


@settings(max_examples=200, deadline=None)
@given(
    names=_ANY_NAMES,
    dead_count=st.integers(0, 2),
    text=_ANY_TEXT,
    grammar=_GRAMMARS,
    channel=st.sampled_from(list(Channel)),
    minutes=st.one_of(st.none(), st.integers(-120, 120)),
    edited=st.one_of(st.none(), st.integers(-120, 120)),
)
def test_no_input_raises(
    names: list[str],
    dead_count: int,
    text: str,
    grammar: tuple,
    channel: Channel,
    minutes: int | None,
    edited: int | None,
) -> None:
    deadline = datetime(2026, 11, 27, 19, tzinfo=UTC)
    cast = Cast(tuple(names[dead_count:]) or tuple(names), tuple(names[:dead_count]))
    at = None if minutes is None else deadline + timedelta(minutes=minutes)
    edited_at = None if edited is None else deadline + timedelta(minutes=edited)
    gram, lenient = grammar
    result = read_post(
        parse_bbcode(text),
        gram,
        cast,
        sender=names[0],
        channel=channel,
        lenient=lenient,
        at=at,
        deadline=deadline,
        edited_at=edited_at,
    )
    roster = set(cast.roster)
    for order in result.orders:
        assert all(t in roster or t == "no_lynch" for t in order.targets)
    for warning in result.warnings:
        assert set(warning.choices) <= roster

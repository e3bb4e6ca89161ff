"""BBCode → PostBody: what the parser reads is what a player's markup means on a board."""

from __future__ import annotations

import re
from dataclasses import replace

from hypothesis import example, given, settings
from hypothesis import strategies as st

from forums.bbcode import RECOGNISED_TAGS, parse_bbcode, postbody_to_bbcode, strip_bbcode
from forums.records import Link, PostBody, TextRun


def counted(text: str) -> str:
    """The text a vote counter reads: no quotes, strikes, spoilers or code."""
    return parse_bbcode(text).text()


def test_plain_text_is_one_run_with_newlines_kept() -> None:
    assert parse_bbcode("vote Bob\r\nbecause\rreasons") == PostBody.plain(
        "vote Bob\nbecause\nreasons"
    )
    assert parse_bbcode("") == PostBody()


def test_quote_forms_and_authors() -> None:
    for markup, author in [
        ("[quote]vote A[/quote]", None),
        ("[quote=Bob]vote A[/quote]", "Bob"),
        ('[quote="Nobody Special"]vote A[/quote]', "Nobody Special"),
        ('[quote="Bob" post_id=12 time=1700000000 user_id=3]vote A[/quote]', "Bob"),
        ("[quote=Bob post_id=12]vote A[/quote]", "Bob"),
        ('[QUOTE="Вася, post: 123, member: 45"]vote A[/QUOTE]', "Вася"),
    ]:
        body = parse_bbcode(markup + "vote B")
        assert body.runs == (
            TextRun("vote A", quoted=True, quote_author=author),
            TextRun("vote B"),
        ), markup
        assert body.text() == "vote B"


def test_nested_quotes_carry_the_innermost_author() -> None:
    body = parse_bbcode("[quote=A]a1[quote=B]b[quote]x[/quote][/quote]a2[/quote]mine")
    assert [(r.text, r.quoted, r.quote_author) for r in body] == [
        ("a1", True, "A"),
        ("b", True, "B"),
        ("x", True, None),
        ("a2", True, "A"),
        ("mine", False, None),
    ]


def test_unclosed_quote_quotes_to_the_end() -> None:
    # phpBB prints it literally; for counting, text that may be quoted must not count.
    assert counted("ok [quote=Bob]vote Carol\nmore") == "ok "
    assert parse_bbcode("[quote=Bob]x").runs[0].quote_author == "Bob"


def test_stray_closing_tags_are_dropped() -> None:
    assert parse_bbcode("vote A[/s][/b][/code][/spoiler]!") == PostBody.plain("vote A!")


def test_stray_closing_quote_quotes_what_came_before() -> None:
    # The player deleted the opening tag: the text before it may be someone else's vote.
    assert counted("Bob: vote A[/quote]\nvote B") == "\nvote B"


def test_closing_tag_closes_only_its_own_tag() -> None:
    body = parse_bbcode("[s][quote]a[/s]b[/quote]c")
    assert [(r.text, r.struck, r.quoted) for r in body] == [
        ("a", True, True),
        ("b", False, True),
        ("c", False, False),
    ]


def test_strike_variants_any_case() -> None:
    for tag in ["s", "S", "strike", "STRIKE", "del", "Del"]:
        assert counted(f"[{tag}]vote A[/{tag}]vote B") == "vote B", tag
    assert parse_bbcode("[s]a[/s][strike]b[/strike][del]c[/del]").runs == (
        TextRun("abc", struck=True),
    )


def test_bold_and_styling() -> None:
    body = parse_bbcode(
        "[b]VOTE: A[/b] [i]it[/i] [u]u[/u] [color=red]red[/color] [size=150]big[/size]"
    )
    assert body.runs == (TextRun("VOTE: A", bold=True), TextRun(" it u red big"))
    assert counted('[color="#ff0000"][b]vote[/b] A[/color]') == "vote A"


def test_spoilers() -> None:
    for markup in [
        "[spoiler]vote A[/spoiler]",
        "[spoiler=Role PM]vote A[/spoiler]",
        "[hide]vote A[/hide]",
    ]:
        body = parse_bbcode(markup + "x")
        assert body.runs == (TextRun("vote A", spoiler=True), TextRun("x")), markup
    assert parse_bbcode("[spoiler]a").text(include_spoilers=True) == "a"


def test_code_contents_are_not_markup() -> None:
    body = parse_bbcode("[code][b]vote A[/b] [quote]x[/code]after[/b]")
    assert body.runs == (TextRun("[b]vote A[/b] [quote]x", code=True), TextRun("after"))
    assert counted("[CODE]vote A") == ""
    assert parse_bbcode("[quote=Q][code]c[/code][/quote]").runs == (
        TextRun("c", quoted=True, code=True, quote_author="Q"),
    )


def test_vote_tags_render_as_bold_vote_lines() -> None:
    assert parse_bbcode("[vote]Коля[/vote]").runs == (TextRun("VOTE: Коля", bold=True),)
    body = parse_bbcode("I [VOTE]Alice[/VOTE] because[vote]B[/vote][vote]C[/vote]")
    assert body.full_text() == "I \nVOTE: Alice\n because\nVOTE: B\nVOTE: C"
    assert [r.text for r in body if r.bold] == ["VOTE: Alice", "VOTE: B", "VOTE: C"]
    assert counted("[quote][vote]A[/vote][/quote]") == ""


def test_unvote_forms() -> None:
    assert parse_bbcode("[unvote]").runs == (TextRun("UNVOTE", bold=True),)
    assert parse_bbcode("[unvote][/unvote]").runs == (TextRun("UNVOTE", bold=True),)
    assert parse_bbcode("[unvote]Bob[/unvote]").runs == (TextRun("UNVOTE: Bob", bold=True),)
    assert parse_bbcode("[unvote] [vote]B[/vote]").full_text() == "UNVOTE\n \nVOTE: B"


def test_links_keep_their_text() -> None:
    body = parse_bbcode("see [url=https://x.example/p?1]this post[/url] and [URL]http://y[/URL]")
    assert body.full_text() == "see this post and http://y"
    assert body.links == (
        Link("https://x.example/p?1", "this post"),
        Link("http://y", "http://y"),
    )
    assert parse_bbcode('[url="http://q"]q').links == (Link("http://q", "q"),)


def test_images_lists_and_unknown_tags() -> None:
    assert parse_bbcode("a[img]http://i/x.png[/img]b").full_text() == "ab"
    assert parse_bbcode("go:[list][*]one[*]two[/list]end").full_text() == "go:\none\ntwo\nend"
    assert parse_bbcode("[foo]x[/foo] [i think] [1]").full_text() == "[foo]x[/foo] [i think] [1]"


def test_strip_bbcode() -> None:
    assert strip_bbcode("[b]Вася[/b]") == "Вася"
    assert strip_bbcode("[quote=A]q[/quote][s]s[/s]t") == "qst"
    assert strip_bbcode("[unknown]") == "[unknown]"


def test_postbody_to_bbcode_round_trips_flat_bodies() -> None:
    body = parse_bbcode('x[quote="A"]q [b]b[/b][/quote][s]s[/s][spoiler]sp[/spoiler][code]c[/code]')
    assert parse_bbcode(postbody_to_bbcode(body)) == PostBody(body.runs)


_KNOWN = re.compile(r"\[/?(\*|[a-z]+)(?:=[^\[\]]*)?\]", re.IGNORECASE)


def _recognised_tags(text: str) -> list[str]:
    return [m.group(0) for m in _KNOWN.finditer(text) if m.group(1).lower() in RECOGNISED_TAGS]


_TAG_TOKENS = [f"[{p}{name}]" for name in sorted(RECOGNISED_TAGS) for p in ("", "/")] + [
    "[quote=Bob]",
    '[QUOTE="A b" post_id=1]',
    "[url=http://x]",
    "[spoiler=t]",
    "[color=red]",
]
_WORDS = st.text(st.characters(blacklist_characters="[]"), max_size=6)


@settings(max_examples=300)
@given(st.text(alphabet=st.sampled_from(list("[]/=\"' \nabquoteslcdivrpnh*VOTE")), max_size=60))
def test_never_raises_on_markup_soup(text: str) -> None:
    body = parse_bbcode(text)
    assert isinstance(strip_bbcode(text), str)
    assert all(run.text for run in body)


@given(st.text())
def test_never_raises_on_any_text(text: str) -> None:
    parse_bbcode(text)
    strip_bbcode(text)


@example(["0", "[/quote]", "[*]", "[/quote]"])  # a stray [/quote] made alike neighbours
@settings(max_examples=300)
@given(st.lists(st.one_of(st.sampled_from(_TAG_TOKENS), _WORDS), max_size=25))
def test_rendered_text_contains_no_recognised_tag(tokens: list[str]) -> None:
    body = parse_bbcode("".join(tokens))
    # Code blocks keep their markup on purpose; everything else must be rendered away.
    readable = body.text(include_quoted=True, include_struck=True, include_spoilers=True)
    assert _recognised_tags(readable) == []
    for a, b in zip(body.runs, body.runs[1:], strict=False):
        assert a.text and b.text
        assert replace(a, text="") != replace(b, text=""), "adjacent runs with equal flags"

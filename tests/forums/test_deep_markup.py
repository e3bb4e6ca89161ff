"""Deep markup is read in linear time and as written (issue 22, item 3).

An HTML parser walks its stack of open elements for most tags (a <div> looks for a <p> to
close, an end tag for its element, a formatting element for ones to reopen): 32,000
unclosed <div>s cost it half a billion steps. `forums.html.parse_html` rewrites such a page
so that the parser never holds more than `MAX_DEPTH` elements it walks; these tests check
that structure on the parsed tree (not a clock), and that what a player wrote deep down
reads the same as near the top. The BBCode reader's stray closing tags are counted the
same way. Timings are in benchmarks/ (bench_pages.py: the deep-markup rows).
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime

import pytest
from selectolax.lexbor import LexborNode

from forums import bbcode
from forums.html import DEEP, MAX_DEPTH, bounded_nesting, html_to_postbody, parse_html
from forums.phpbb.topic import parse_topic_page
from tests.forums.phpbb.helpers_http import FIXTURES

N = 20_000
SHAPES = {
    "unclosed divs": "<div>x",
    "nested quotes": "<blockquote><cite>Anna wrote:</cite>x",
    "closed nesting": "<div><blockquote>x",  # closed below, all at once
    "stray end tags": "<span>x</div></blockquote></p>",
    "formatting": "<b>x<i>y<font color=red>z<a href=#>w",
    "tables": "<table><tr><td>x<div>y",
    "lists": "<ul><li>x<ol><li>y",
    "self-closed divs": "<div/>x",
}


def _elements(node: LexborNode) -> Iterator[tuple[LexborNode, int, int]]:
    """Every element under `node` with how many of its ancestors the parser walks over (its
    own elements, not renamed ones) and how many marquees are above it."""
    stack: list[tuple[LexborNode, int, int]] = [(node, 0, 0)]
    while stack:
        element, walked, fences = stack.pop()
        yield element, walked, fences
        tag = element.tag or ""
        below = walked + (0 if tag.startswith(DEEP) else 1)
        fenced = fences + (tag == "marquee")
        stack.extend((child, below, fenced) for child in element.iter())


@pytest.mark.parametrize("shape", SHAPES.values(), ids=SHAPES.keys())
def test_the_parser_never_holds_more_than_max_depth_elements_it_walks(shape: str) -> None:
    closing = "</div></blockquote>" * N if shape.startswith("<div><blockquote>") else ""
    html = shape * N + closing
    tree = parse_html(html)
    root = tree.root
    assert root is not None
    deepest = renamed = 0
    for element, walked, fences in _elements(root):
        deepest = max(deepest, walked)
        if (element.tag or "").startswith(DEEP):
            renamed += 1
            # A renamed element sits inside the marquee that stops the parser's look for
            # formatting elements to reopen.
            assert fences >= 1
    # The page's own <html>, <body> and the formatting elements the parser reopens after a
    # table or a list: a handful more than the limit, never thousands.
    assert deepest <= MAX_DEPTH + 8, deepest
    assert renamed > N // 2  # the deep part was renamed, not dropped


def test_a_page_that_nests_little_is_parsed_as_it_is() -> None:
    page = (FIXTURES / "en" / "viewtopic_p1.html").read_text(encoding="utf-8")
    assert bounded_nesting(page, few=0) is page
    nested = "<div>" * 300 + "x" + "</div>" * 300
    assert bounded_nesting(nested) is nested  # too few tags for the walks to cost much
    assert bounded_nesting(nested, few=0) != nested
    assert bounded_nesting("<div>" * 200 + "x", few=0) == "<div>" * 200 + "x"


def test_what_is_written_deep_down_reads_as_near_the_top() -> None:
    """Flags come from the tag as written, whatever its depth: a struck vote, hidden text,
    a quote's author and a link read the same at depth 5 and at depth 20,000."""
    inner = (
        '<s>vote Bob</s> vote Ann <span style="display:none">vote Eve</span>'
        '<span style="color:#fff">vote Max</span>'
        "<blockquote><cite>Boris wrote:</cite>vote Kim</blockquote>"
        '<a href="/x">link</a><br>next'
    )

    def reading(depth: int) -> list[tuple[str, bool, bool, bool, bool, str | None]]:
        body = html_to_postbody("<div>" * depth + inner + "<b>" * 10 + "tail")
        return [
            (r.text, r.struck, r.spoiler, r.hidden, r.quoted, r.quote_author) for r in body.runs
        ]

    shallow, deep = reading(5), reading(N)
    assert deep == shallow
    assert ("vote Bob", True, False, False, False, None) in deep
    assert ("vote Kim", False, False, False, True, "Boris") in deep
    assert ("vote Eve", False, True, False, False, None) in deep  # display:none
    assert ("vote Max", False, False, True, False, None) in deep  # white on white
    assert html_to_postbody("<div>" * N + '<a href="/x">link</a>', base_url="https://b/").links[
        0
    ].url == ("https://b/x")


def test_a_topic_page_with_a_deep_post_reads_every_post() -> None:
    page = (FIXTURES / "en" / "viewtopic_p1.html").read_text(encoding="utf-8")
    marker = '<div class="content">'
    at = page.index(marker) + len(marker)
    evil = "<blockquote><cite>A wrote:</cite>" * N + "<s>vote Bob</s> vote Ann"
    plain = parse_topic_page(page, "http://x/viewtopic.php?t=2", tz=UTC, now=datetime.now(UTC))
    hostile = parse_topic_page(
        page[:at] + evil + page[at:],
        "http://x/viewtopic.php?t=2",
        tz=UTC,
        now=plain.posts[0].posted_at,
    )
    assert [p.id for p in hostile.posts] == [p.id for p in plain.posts]
    first = hostile.posts[0].body
    assert [(r.text, r.struck) for r in first.runs if "vote" in r.text][:2] == [
        ("vote Bob", True),
        (" vote Ann", False),
    ]
    assert all(r.quoted for r in first.runs if "vote" in r.text)
    assert hostile.posts[1:] == plain.posts[1:]  # the other posts are untouched


def test_stray_bbcode_closes_cost_what_they_are(monkeypatch: pytest.MonkeyPatch) -> None:
    """A stray [/quote] quotes what came before; after thousands of open tags, each one
    used to copy every piece written so far (quadratic). Count the pieces put in new lists
    of pieces (a list handed on from run to run is counted once)."""
    copied = [0]
    lists: list[list[str]] = []
    original = bbcode._Run.__init__

    def counting(self: bbcode._Run, key: tuple[object, ...], parts: list[str]) -> None:
        if not any(parts is seen for seen in lists[-2:]):
            copied[0] += len(parts)
            lists.append(parts)
        original(self, key, parts)

    monkeypatch.setattr(bbcode._Run, "__init__", counting)
    for count in (1_000, 4_000):
        copied[0] = 0
        body = bbcode.parse_bbcode("[b]x" * count + "[/quote]" * count)
        assert body.runs[0].quoted and body.full_text() == "x" * count
        assert copied[0] <= 4 * count, (count, copied[0])  # linear, not count²

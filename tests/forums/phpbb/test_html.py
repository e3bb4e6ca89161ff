"""Post HTML → PostBody: the flags that decide what counts, mafiascum's markup, robustness."""

from __future__ import annotations

import re
import sys
from dataclasses import replace
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from forums.bbcode import parse_bbcode
from forums.phpbb.html import _ODD_OR_BIDI, _WS, html_to_postbody
from forums.records import Link, PostBody, TextRun


def norm(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def shape(body: PostBody) -> list[tuple[str, TextRun]]:
    """Runs with whitespace around line breaks ignored: a browser drops it, BBCode keeps it."""
    return [(re.sub(r" *\n *", "\n", r.text), replace(r, text="")) for r in body.runs]


def flagged(body: PostBody, flag: str) -> str:
    return norm(" ".join(r.text for r in body.runs if getattr(r, flag)))


def test_quotes_nested_with_authors() -> None:
    body = html_to_postbody(
        '<blockquote cite="./viewtopic.php?p=5#p5"><div><cite><a href="./memberlist.php?'
        'mode=viewprofile&amp;u=63">Nekr0</a> писал(а): <a href="./viewtopic.php?p=5#p5">↑</a>'
        '<span class="responsive-hide">26 ноя 2026, 20:31</span></cite>outer '
        "<blockquote><div><cite>KenT wrote:</cite>inner vote</div></blockquote> after</div>"
        "</blockquote>mine<br>"
    )
    quoted = [(r.text.strip(), r.quote_author) for r in body.runs if r.quoted]
    assert quoted == [("outer", "Nekr0"), ("inner vote", "KenT"), ("after", "Nekr0")]
    assert norm(body.text()) == "mine"
    assert "писал" not in body.full_text() and "20:31" not in body.full_text()


def test_uncited_quote_has_no_author() -> None:
    body = html_to_postbody('<blockquote class="uncited"><div>голос: Вася</div></blockquote>x')
    assert body.runs[0] == TextRun("голос: Вася\n", quoted=True)


def test_strike_bold_by_tag_and_style() -> None:
    body = html_to_postbody(
        "<s>a</s><del>b</del><strike>c</strike>"
        '<span style="text-decoration: line-through">d</span>'
        '<div style="display:inline-flex;text-decoration:line-through">e</div>'
        '<strong class="text-strong">F</strong><b>G</b><span style="font-weight: 700">H</span>'
        '<div style="display:inline;font-weight:bold">I</div>'
    )
    assert flagged(body, "struck") == "abcde"
    assert flagged(body, "bold") == "FGHI"
    assert "\n" not in body.full_text()  # display:inline divs do not break lines


def test_spoilers_and_their_titles() -> None:
    body = html_to_postbody(
        'a<details class="spoiler"><summary>Спойлер</summary>голос: Alu</details>'
        '<div class="quotetitle"><b>Spoiler: x</b> <input type="button" value="Show"></div>'
        '<div class="quotecontent"><div style="display:none">hidden</div></div>'
        '<div class="hidebox">box</div>z'
    )
    assert flagged(body, "spoiler") == "голос: Alu hidden box"
    assert norm(body.text()) == "a z"
    assert "Спойлер" not in body.full_text() and "Show" not in body.full_text()


def test_code_boxes_keep_whitespace_and_drop_the_header() -> None:
    body = html_to_postbody(
        '<div class="codebox"><p>Code: <a href="#" onclick="selectCode(this)">Select all</a></p>'
        "<pre><code>vote  X\n  indented</code></pre></div>"
        '<dl class="codebox"><dt>Code: <a href="#">Select all</a></dt><dd><code>a<br />b</code>'
        "</dd></dl>"
    )
    assert [r.text for r in body.runs if r.code] == ["vote  X\n  indented\na\nb"]
    assert "Select all" not in body.full_text()


def test_lines_smilies_entities_links() -> None:
    body = html_to_postbody(
        'Привет <img class="smilies" src="./images/smilies/icon_e_smile.gif" alt=":)">!<br>\n'
        "Том &amp; Джерри<p>para</p><ul><li>one</li><li>two</li></ul>"
        '<a class="postlink" href="./viewtopic.php?p=3#p3">link text</a>'
        '<img src="http://example.org/pic.png" alt="Image">',
        base_url="http://127.0.0.1:8081/viewtopic.php?t=2",
    )
    assert body.full_text() == "Привет :)!\nТом & Джерри\npara\none\ntwo\nlink text"
    assert body.links == (Link("http://127.0.0.1:8081/viewtopic.php?p=3#p3", "link text"),)


def test_emoji_image_gives_its_character() -> None:
    body = html_to_postbody(
        'Голосую за Alu<img alt="😀" class="emoji smilies" draggable="false" '
        'src="//cdn.jsdelivr.net/gh/twitter/twemoji@latest/assets/svg/1f600.svg">'
    )
    assert body.full_text() == "Голосую за Alu😀"


def test_signature_is_flagged() -> None:
    body = html_to_postbody('text<div class="signature">Голосую за здравый смысл.</div>')
    assert norm(body.text()) == "text"
    assert flagged(body, "signature") == "Голосую за здравый смысл."


def test_bbvote_is_a_bold_line_like_the_vote_tag() -> None:
    html = (
        'I think <span class="bbvote" title="This is an official vote.">VOTE: lobstermania'
        "</span> because"
    )
    expected = parse_bbcode("I think [vote]lobstermania[/vote] because")
    assert shape(html_to_postbody(html)) == shape(expected)
    two = html_to_postbody(
        '<span class="bbvote">UNVOTE: a</span> <span class="bbvote">VOTE: b</span>'
    )
    assert two.full_text() == "UNVOTE: a\nVOTE: b"
    assert all(r.bold for r in two.runs if r.text.strip())


def test_matches_bbcode_for_the_usual_markup() -> None:
    html = (
        "Ладно, ладно. <s>Голосую за Вася</s><br>\n"
        '<span style="color:#BF0000"><strong class="text-strong">голос: Лёха</strong></span>'
    )
    assert html_to_postbody(html) == parse_bbcode(
        "Ладно, ладно. [s]Голосую за Вася[/s]\n[color=#BF0000][b]голос: Лёха[/b][/color]"
    )


def test_node_input(saved_page: Any) -> None:
    from selectolax.lexbor import LexborHTMLParser

    tree = LexborHTMLParser(saved_page("ru/viewtopic_p1").html)
    node = tree.css_first("#p9 div.content")
    assert node is not None
    body = html_to_postbody(node)
    assert flagged(body, "struck") == "Голосую за Васю"
    assert (
        norm(body.text())
        == "Не торопитесь. Nekr0 просто любит начинать с рандома, это его стиль. Передумал, пока без голоса."
    )


# --- mafiascum: a whole real game as post HTML --------------------------------------------


def test_mafiascum_game(mafiascum_posts: list[dict[str, Any]]) -> None:
    assert len(mafiascum_posts) == 425
    vote_posts = 0
    for post in mafiascum_posts:
        body = html_to_postbody(post["content"], base_url=post["page"])
        assert body.full_text().strip() or "<img" in post["content"]
        if "bbvote" in post["content"]:
            votes = [
                line
                for run in body.runs
                if run.bold
                for line in run.text.split("\n")
                if re.match(r"(UN)?VOTE", line)
            ]
            assert votes, post["number"]
            text = body.full_text()
            for line in votes:
                # Each official vote sits on a line of its own.
                assert any(whole.strip().startswith(line.strip()) for whole in text.split("\n")), (
                    post["number"]
                )
            vote_posts += 1
    assert vote_posts == 34


def test_mafiascum_bold_strike_spoiler_quotes(mafiascum_posts: list[dict[str, Any]]) -> None:
    by_number = {p["number"]: p for p in mafiascum_posts}
    first = html_to_postbody(by_number[18]["content"])
    assert first.runs[0] == TextRun("vote: lobstermania", bold=True)

    setup = html_to_postbody(by_number[0]["content"])
    assert "kondi2424" in flagged(setup, "struck")
    assert "Vote: Flinter" in flagged(setup, "bold")
    assert ":D I rhymed!" in setup.full_text()

    spoilered = html_to_postbody(by_number[114]["content"])
    hidden = [r for r in spoilered.runs if r.spoiler]
    assert hidden and all("Spoiler:" not in r.text for r in spoilered.runs)
    # Quotes inside the spoiler keep their innermost author.
    authors = {r.quote_author for r in hidden if r.quoted}
    assert {"My Milked Eek", "don_johnson", "spadille"} <= authors
    assert "Yeah, my first game" in spoilered.text()

    quoted = [p for p in mafiascum_posts if "<blockquote" in p["content"]]
    assert len(quoted) > 50
    for post in quoted:
        body = html_to_postbody(post["content"])
        assert any(r.quoted for r in body.runs), post["number"]
        if "<cite>" in post["content"]:
            assert any(r.quote_author for r in body.runs), post["number"]


# --- never raises -------------------------------------------------------------------------

_TAGS = [
    "div",
    "span",
    "blockquote",
    "cite",
    "s",
    "del",
    "b",
    "strong",
    "details",
    "summary",
    "code",
    "pre",
    "a",
    "img",
    "br",
    "p",
    "li",
    "ul",
    "table",
    "td",
    "script",
    "dl",
    "dt",
]
_ATTRS = [
    "",
    ' class="spoiler"',
    ' class="bbvote"',
    ' class="codebox"',
    ' class="signature"',
    ' class="smilies" alt=":)"',
    ' style="font-weight:bold;display:inline"',
    ' style="text-decoration:line-through"',
    ' style="display:none"',
    ' href="./memberlist.php?mode=viewprofile&u=1"',
    ' href="javascript:x"',
    ' href="http://[::1"',
]

_piece = st.one_of(
    st.text(max_size=12),
    st.builds(lambda t, a: f"<{t}{a}>", st.sampled_from(_TAGS), st.sampled_from(_ATTRS)),
    st.builds(lambda t: f"</{t}>", st.sampled_from(_TAGS)),
    st.sampled_from(["&amp;", "&#0;", "&#xD800;", "&bogus;", "<!--", "-->", "<", ">", "\x00"]),
)


@settings(max_examples=300, deadline=None)
@given(st.lists(_piece, max_size=40).map("".join), st.sampled_from(["", "http://x/", "::"]))
def test_never_raises_on_tag_soup(html: str, base_url: str) -> None:
    body = html_to_postbody(html, base_url=base_url)
    assert isinstance(body, PostBody)
    body.text()


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=300))
def test_never_raises_on_any_text(html: str) -> None:
    assert isinstance(html_to_postbody(html), PostBody)


def test_deep_nesting() -> None:
    html = "<blockquote><div>" * 3000 + "deep" + "</div></blockquote>" * 3000
    body = html_to_postbody(html)
    assert "deep" in body.full_text() and all(r.quoted for r in body.runs)


def test_a_printable_text_has_no_space_but_the_space() -> None:
    """The walk writes a printable text node the short way (its words parted by " " alone):
    so every other space (those str.split() parts words on, those the walk collapses, the
    odd ones it keeps) and every bidi control must be unprintable, on this Python's Unicode."""
    every = "".join(map(chr, range(sys.maxunicode + 1)))
    special = {c for c in every if c.isspace()}
    special |= set(_ODD_OR_BIDI.findall(every)) | set("".join(_WS.findall(every)))
    assert len(special) > 30
    assert sorted(c for c in special if c.isprintable()) == [" "]
    body = html_to_postbody("<p> a  b\u00a0c\u2003d \u202eevil</p>")
    assert [(r.text, r.hidden) for r in body.runs] == [
        ("a b\u00a0c\u2003d ", False),
        ("evil", True),
    ]


def test_elements_read_again_give_what_their_own_markup_says() -> None:
    """The walk keeps what an element of a given tag and attributes gives under given flags
    (`_KNOWN`): the same markup again must still read its own quote author, smiley, link
    and code-box header, and the same colour under other flags its own visibility."""
    from forums.phpbb import html

    for author in ("Anna", "Boris", "Anna"):
        body = html_to_postbody(
            f'<div class="quotebox"><cite>{author} wrote:</cite>x</div>'
            '<img class="smilies" src="s.gif" alt=":)"><a class="postlink" href="/a">a</a>'
            '<dl class="codebox"><dt>Code:</dt><dd><code>c</code></dd></dl>',
            base_url=f"http://board.example/{author}/",
        )
        assert [(r.text, r.quote_author) for r in body.runs if r.quoted] == [("x", author)]
        assert ":)" in body.full_text() and "Code:" not in body.full_text()
        assert body.links == (Link("http://board.example/a", "a"),)
    black = '<span style="color: #000">b</span>'
    for _ in range(2):
        assert [r.hidden for r in html_to_postbody(black).runs] == [False]
        tiny = html_to_postbody(f'<span style="font-size: 1px">{black}</span>')
        assert [r.hidden for r in tiny.runs] == [True]
    html._KNOWN.clear()
    long = "x" * html._KNOWN_LONGEST
    assert html_to_postbody(f'<img class="smilies" src="{long}" alt="{long}">').full_text() == long
    author = f'<blockquote><cite>{long} wrote:</cite><div class="q">q</div></blockquote>'
    assert html_to_postbody(author).runs[0].quote_author == long
    assert not html._KNOWN
    for n in range(html._KNOWN_MAX + 10):
        html_to_postbody(f'<span style="color: #{n:06x}">t</span>')
    assert 0 < len(html._KNOWN) <= html._KNOWN_MAX


def test_a_tag_without_attributes_reads_as_with_a_harmless_one() -> None:
    """An element without attributes is read from two tables (`_BARE_CHANGES`,
    `_BARE_EXITS`, and the tags it skips), one with attributes by `_enter`: for every tag
    either reads, both must give the same body, in a quote, a code box, a link and a table
    row too."""
    from forums.phpbb import html

    tags = (
        html._BLOCK | html._STRIKE_TAGS | html._BOLD_TAGS | html._CODE_TAGS | html._PRE_TAGS
    ) | {"td", "th", "details", "summary", "img", "cite", "span", "font", "bdo", "i", "u"}
    places = (
        "a {}d<br>e",
        "<blockquote><cite>Anna wrote:</cite>a {}d</blockquote>",
        '<dl class="codebox"><dd>a {}d</dd></dl>',
        '<dl class="codebox">{}<dd><code>c</code></dd></dl>',  # a dt or p: its header
        '<a href="/x">a {}d</a>',
        "<table><tr><td>x</td>{}<td>y</td></tr></table>",
    )
    for tag in sorted(tags):
        for place in places:
            bare = html_to_postbody(place.format(f"<{tag}>b  c</{tag}>"))
            dressed = html_to_postbody(place.format(f'<{tag} title="t">b  c</{tag}>'))
            assert bare == dressed, (tag, place)

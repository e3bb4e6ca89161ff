"""Issue 22, item 6: hidden text is judged against the background the post is shown on.

A fixed near-white cut-off let through a colour close to the post's own background
(`#E1EBF2`, prosilver's alternate post background), `hsl(0,0%,100%)`, and on the BBCode path
`[size=2]`…`[size=20]` (percent on phpBB) and `[font=1px]`. Now prosilver's `bg1`/`bg2` post
backgrounds, MyBB's and XenForo's defaults decide, on the real phpBB page (a saved topic
page of phpBB 3.3.10 with the colours put into its posts) and in BBCode.
"""

from __future__ import annotations

import re

import pytest

from engine.core import warnings as codes
from engine.core.orders import Channel
from forums.bbcode import parse_bbcode
from forums.html import html_to_postbody
from forums.phpbb.topic import parse_topic_page
from forums.records import PostBody
from forums.visibility import ANY, MYBB, PHPBB, XENFORO, invisible_color
from rulesets.votecount.grammar import GRAMMAR as VOTECOUNT
from scraper.matcher import parse_post
from scraper.nicknames import NameResolver
from tests.forums.phpbb.conftest import load_saved_page

ROSTER = NameResolver(("Вася", "Петя", "Коля", "Оля"), lenient=True)


def _read(body: PostBody) -> tuple[list[tuple[str, ...]], list[tuple[str, tuple[str, ...]]]]:
    result = parse_post(body, VOTECOUNT, ROSTER, sender="Оля", channel=Channel.THREAD)
    return [o.targets for o in result.orders], [(w.code, w.choices) for w in result.warnings]


def _held(body: PostBody) -> bool:
    """The vote for Вася is not counted and is held as hidden text (the saved post around it
    may say other things)."""
    orders, warnings = _read(body)
    return ("Вася",) not in orders and (codes.HIDDEN_TEXT, ("Вася",)) in warnings


def _page_with(colours: dict[str, str]) -> dict[str, PostBody]:
    """The saved topic page with «голосую за Васю» in `colours[bg]` put at the start of the
    first post shown on each prosilver background (`bg1`, `bg2`); the body of each."""
    page = load_saved_page("ru/viewtopic_p1")
    html, ids = page.html, {}
    for bg, colour in colours.items():
        post = re.search(rf'<div id="p(\d+)" class="post has-profile {bg}\b', html)
        assert post is not None, bg
        ids[bg] = post.group(1)
        at = html.index('<div class="content">', post.end()) + len('<div class="content">')
        vote = f'<span style="color: {colour}">голосую за Васю</span><br>'
        html = html[:at] + vote + html[at:]
    topic = parse_topic_page(html, page.url, tz=page.captured_at.tzinfo, now=page.captured_at)  # type: ignore[arg-type]
    return {bg: next(p.body for p in topic.posts if p.id == ids[bg]) for bg in colours}


def test_prosilvers_alternate_background_hides_its_own_colour_on_the_page() -> None:
    bodies = _page_with({"bg2": "#E1EBF2", "bg1": "#E1EBF2"})
    for bg in ("bg1", "bg2"):  # #E1EBF2 on #E1EBF2, and on #ECF3F7 (ΔE 3.5)
        assert _held(bodies[bg]), bg


def test_the_same_colour_counts_on_one_background_and_is_held_on_the_other() -> None:
    # #CADCEB, prosilver's bg3: ΔE 7.5 from bg2 (held), 10.9 from bg1 (read).
    bodies = _page_with({"bg2": "#CADCEB", "bg1": "#CADCEB"})
    assert _held(bodies["bg2"])
    assert ("Вася",) in _read(bodies["bg1"])[0]
    assert not any(r.hidden for r in bodies["bg1"].runs)


def test_white_and_hsl_white_are_hidden_on_every_background() -> None:
    bodies = _page_with({"bg2": "hsl(0,0%,100%)", "bg1": "hsla(0, 0%, 100%, 1)"})
    for body in bodies.values():
        assert _held(body)
    html = '<div>голосую за <span style="color:hsl(210 40% 99%)">Васю</span></div>'
    assert _read(html_to_postbody(html))[1] == [(codes.HIDDEN_TEXT, ("Вася",))]


@pytest.mark.parametrize(
    ("colour", "look", "hidden"),
    [
        ("#E1EBF2", PHPBB, True),
        ("#E1EBF2", MYBB, True),  # ΔE 9 from white
        ("#D6E0E8", PHPBB, True),  # a shade off bg2
        ("#D6E0E8", MYBB, False),  # ΔE 13 from white
        ("#dddddd", MYBB, False),
        ("#dddddd", PHPBB, True),  # ΔE 6.6 from bg2
        ("hsl(0,0%,100%)", XENFORO, True),
        ("hsl(0,100%,50%)", ANY, False),  # red
        ("rgba(0,0,0,0.05)", MYBB, True),  # black at 5 % over white
        ("lavender", PHPBB, True),
        ("#ffff00", ANY, False),
    ],
)
def test_colours_are_judged_against_each_boards_default_background(
    colour: str, look: object, hidden: bool
) -> None:
    assert invisible_color(colour, look.backgrounds) is hidden  # type: ignore[attr-defined]


@pytest.mark.parametrize("size", [2, 5, 10, 20, 39])
def test_small_bbcode_sizes_are_hidden_as_phpbb_reads_them(size: int) -> None:
    text = f"[size={size}]голосую за Васю[/size]"
    assert _read(parse_bbcode(text, PHPBB)) == ([], [(codes.HIDDEN_TEXT, ("Вася",))])
    # A board not known (the local board, scenarios): the smallest reading counts.
    assert _read(parse_bbcode(text)) == ([], [(codes.HIDDEN_TEXT, ("Вася",))])


def test_bbcode_sizes_per_board() -> None:
    def hidden(text: str, look: object) -> bool:
        return any(r.hidden for r in parse_bbcode(text, look).runs)  # type: ignore[arg-type]

    assert not hidden("[size=85]голосую за Васю[/size]", PHPBB)
    assert not hidden("[size=150]голосую за Васю[/size]", ANY)
    assert hidden("[size=4]голосую за Васю[/size]", MYBB)  # 4 pt
    assert not hidden("[size=20]голосую за Васю[/size]", MYBB)  # 20 pt
    assert not hidden("[size=3]голосую за Васю[/size]", XENFORO)  # 12 px
    assert hidden("[size=1]голосую за Васю[/size]", XENFORO)


@pytest.mark.parametrize("font", ["1px", "2pt", "bold 1px serif", '"0.1em Arial"'])
def test_a_font_tag_with_a_tiny_size_is_hidden(font: str) -> None:
    text = f"[font={font}]голосую за Васю[/font]"
    assert _read(parse_bbcode(text)) == ([], [(codes.HIDDEN_TEXT, ("Вася",))])
    assert _read(parse_bbcode("[font=Arial]голосую за Васю[/font]")) == ([("Вася",)], [])


def test_a_colour_on_the_bbcode_path_is_judged_on_every_background_of_its_board() -> None:
    text = "голосую за [color=#E1EBF2]Васю[/color]"
    assert _read(parse_bbcode(text)) == ([], [(codes.HIDDEN_TEXT, ("Вася",))])
    assert _read(parse_bbcode(text, XENFORO)) == ([], [(codes.HIDDEN_TEXT, ("Вася",))])
    readable = "голосую за [color=#D6E0E8]Васю[/color]"  # read on white, not on bg2
    assert _read(parse_bbcode(readable, MYBB)) == ([("Вася",)], [])
    assert _read(parse_bbcode(readable, PHPBB))[0] == []


def test_the_shortcut_for_far_colours_never_misses_a_hidden_one() -> None:
    """`invisible_color` reads a colour 40 or more off a background in one channel without
    CIELAB: nothing that near (ΔE under 10) is that far in any channel."""
    from forums.visibility import _FAR, HIDDEN_DISTANCE, color_distance

    for ground in set(ANY.backgrounds):
        for r in range(max(0, ground[0] - 60), min(256, ground[0] + 61), 3):
            for g in range(max(0, ground[1] - 60), min(256, ground[1] + 61), 3):
                for b in range(max(0, ground[2] - 60), min(256, ground[2] + 61), 3):
                    if color_distance((r, g, b), ground) < HIDDEN_DISTANCE:
                        assert (
                            max(abs(r - ground[0]), abs(g - ground[1]), abs(b - ground[2])) < _FAR
                        )

"""Text readers cannot see (issue 10 item 5): flagged by both adapters, held by the parser."""

from __future__ import annotations

import pytest

from engine.core import warnings as codes
from engine.core.orders import Channel
from forums.bbcode import parse_bbcode
from forums.phpbb.html import html_to_postbody
from forums.records import PostBody
from forums.visibility import invisible_color, tiny_size
from rulesets.classic.grammar import GRAMMAR as CLASSIC
from rulesets.votecount.grammar import GRAMMAR as VOTECOUNT
from scraper.matcher import parse_post
from scraper.nicknames import NameResolver

ROSTER = ("Вася", "Петя", "Коля", "Оля")
LENIENT = NameResolver(ROSTER, lenient=True)


def _read(body: PostBody, *, classic: bool = False) -> tuple[list, list]:
    grammar, channel = (CLASSIC, Channel.PM) if classic else (VOTECOUNT, Channel.THREAD)
    result = parse_post(body, grammar, LENIENT, sender="Оля", channel=channel)
    return [o.targets for o in result.orders], [(w.code, w.choices) for w in result.warnings]


@pytest.mark.parametrize(
    ("color", "hidden"),
    [("#ffffff", True), ("#FFF", True), ("white", True), ("#fefefe", True), ("#eeeeee", True),
     ("rgb(250, 250, 250)", True), ("rgba(0,0,0,0.1)", True), ("transparent", True),
     ("#dddddd", False), ("#ffff00", False), ("red", False), ("#BF0000", False), ("x", False)],
)  # fmt: skip
def test_near_white_colours(color: str, hidden: bool) -> None:
    assert invisible_color(color) is hidden


@pytest.mark.parametrize(
    ("size", "bare", "hidden"),
    [("1", "scale", True), ("0", "scale", True), ("2", "scale", False), ("85", "percent", False),
     ("1px", "px", True), ("5px", "px", True), ("9px", "px", False), ("1%", "px", True),
     ("50%", "px", False), ("0.2em", "px", True), ("4pt", "px", True), ("1", "px", True),
     ("20", "percent", True), ("39", "any", True), ("40", "any", False), ("4", "pt", True),
     ("20", "pt", False), ("2", "any", True)],
)  # fmt: skip
def test_tiny_sizes(size: str, bare: str, hidden: bool) -> None:
    assert tiny_size(size, bare=bare) is hidden


@pytest.mark.parametrize(
    "text",
    [
        "[color=#ffffff]vote Вася[/color]",
        "[size=1][color=#ffffff]голос за Васю[/color][/size]",
        "голос за [color=white]Васю[/color]",
        "голосую за \u202eВасю\u202c",
        "vote \u202eВася",
    ],
)
def test_a_vote_only_hidden_text_gives_is_held(text: str) -> None:
    assert _read(parse_bbcode(text)) == ([], [(codes.HIDDEN_TEXT, ("Вася",))])


def test_the_visible_vote_counts_and_the_hidden_one_is_held() -> None:
    body = parse_bbcode("голос за Петю [size=1]голос за Васю[/size]")
    assert _read(body) == ([("Петя",)], [(codes.HIDDEN_TEXT, ("Вася",))])
    # Hidden words that change nothing a reader sees raise nothing.
    assert _read(parse_bbcode("[color=white]привет[/color] голос за Петю")) == ([("Петя",)], [])


def test_classic_pm_orders_in_hidden_text_are_held_too() -> None:
    orders, warnings = _read(parse_bbcode("[color=#fff]проверка Коли[/color]"), classic=True)
    assert orders == []
    assert (codes.HIDDEN_TEXT, ("Коля",)) in warnings


def test_bidi_controls_are_stripped_like_zero_width_ones() -> None:
    # Marks and isolates reorder nothing in a Cyrillic name: the vote is read as written.
    assert _read(parse_bbcode("голос за Ва\u200fс\u2066я\u2069")) == ([("Вася",)], [])
    assert NameResolver(ROSTER).resolve("Пе\u202aтя\u202c").name == "Петя"


@pytest.mark.parametrize(
    ("html", "hidden"),
    [
        ('vote <span style="color: #FFFFFF">Вася</span>', ["Вася"]),
        ('<span style="font-size: 1%; line-height: normal">vote Вася</span>', ["vote Вася"]),
        ('<span style="font-size:1px">Вася</span>', ["Вася"]),
        ('<font color="white">Вася</font>', ["Вася"]),
        ('<span style="opacity:0">Вася</span>', ["Вася"]),
        ('<bdo dir="rtl">Вася</bdo>', ["Вася"]),
        ("vote \u202eясаВ\u202c", ["ясаВ"]),
        ('<span style="color:#fff"><span style="color:#BF0000">Вася</span></span>', []),
        ('<span style="font-size:150%">Вася</span>', []),
        ('<span style="color: #FFFF00">Вася</span>', []),
    ],
)
def test_the_phpbb_adapter_flags_hidden_text(html: str, hidden: list[str]) -> None:
    body = html_to_postbody(html)
    assert [r.text for r in body.runs if r.hidden] == hidden
    assert "\u202e" not in body.full_text()


def test_a_hidden_vote_on_a_board_page_is_held() -> None:
    body = html_to_postbody('<div>vote <span style="color:#ffffff">Вася</span></div>')
    assert _read(body) == ([], [(codes.HIDDEN_TEXT, ("Вася",))])

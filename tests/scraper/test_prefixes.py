"""What opens a yakuza order line before its command (§13, D6, D7): a phase tag, a proxy.

The matcher only marks the orders (`args["phase"]`, `args["proxy_for"]`); the yakuza intake
decides what they may do (tests/scenarios/yakuza/43–46).
"""

from __future__ import annotations

import pytest

from engine.core.orders import Channel
from forums.bbcode import parse_bbcode
from rulesets.yakuza.grammar import GRAMMAR
from scraper.matcher import parse_post
from scraper.nicknames import NameResolver

RESOLVER = NameResolver(("Вася", "Петя", "Оля", "Bob", "Carol", "N3"))


def read(text: str) -> list[tuple[str, str | None, str | None]]:
    """(target, phase tag, proxy) of each order; ("?", …) when a warning was all there was."""
    result = parse_post(parse_bbcode(text), GRAMMAR, RESOLVER, sender="Оля", channel=Channel.PM)
    out = [(o.target or "", o.args.get("phase"), o.args.get("proxy_for")) for o in result.orders]
    return out or [("?", None, None)] * bool(result.warnings)


@pytest.mark.parametrize(
    ("text", "night"),
    [
        ("ночь 3: катана Вася", 3),
        ("Ночь 3 — катана Вася", 3),
        ("N3: катана Вася", 3),
        ("н3: катана Вася", 3),
        ("на ночь 4 — катана Вася", 4),
        ("night 3: katana Bob", 3),
        # Written as players write them, and no mark when the command follows at once.
        ("N3 катана Вася", 3),
        ("Ночь 3 катана Вася", 3),
        ("ночь3: катана Вася", 3),
        ("night3: katana Bob", 3),
        ("на 3 ночь: катана Вася", 3),
        ("на 3-ю ночь — катана Вася", 3),
        ("3 ночь: катана Вася", 3),
        ("на третью ночь — катана Вася", 3),
        ("Вторая ночь: катана Вася", 2),
        ("на четвёртую ночь — катана Вася", 4),  # ё as the line's words have it: е
    ],
)
def test_a_phase_tag_files_the_order_for_its_night(text: str, night: int) -> None:
    target = "Bob" if "Bob" in text else "Вася"
    assert read(text) == [(target, f"night {night}", None)]


def test_a_tag_alone_on_its_line_files_the_lines_after_it_until_the_next_tag() -> None:
    text = "на 3 ночь:\nкатана Вася\nловушка Петя\nN4 — катана Петя"
    assert read(text) == [
        ("Вася", "night 3", None),
        ("Петя", "night 3", None),
        ("Петя", "night 4", None),
    ]


@pytest.mark.parametrize(
    "text",
    [
        "ночь 3 прошла тихо, катана Вася",  # no mark and no command after the number
        "3 катана Вася",
        "ночью катана Вася",  # not a tag: no number
    ],
)
def test_what_only_looks_like_a_tag_files_nothing(text: str) -> None:
    assert all(phase is None for _, phase, _ in read(text))


def test_a_player_named_like_a_tag_is_a_player() -> None:
    assert read("катана N3") == [("N3", None, None)]


@pytest.mark.parametrize(
    ("text", "member"),
    [
        ("за Петю: катана Вася", "Петя"),
        ("Петя — катана Вася", "Петя"),
        ("за Петю - катана Васю", "Петя"),
        ("for Bob: katana Carol", "Bob"),
        ("Bob: katana Carol", "Bob"),
    ],
)
def test_a_proxy_names_the_faction_mate(text: str, member: str) -> None:
    target = "Carol" if "Carol" in text else "Вася"
    assert read(text) == [(target, None, member)]


def test_a_tag_and_a_proxy_together() -> None:
    assert read("ночь 3: за Петю: катана Вася") == [("Вася", "night 3", "Петя")]

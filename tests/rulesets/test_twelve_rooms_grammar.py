"""The twelve-rooms command language (§11): whole PMs as players write them.

Also the grammar features the ruleset added to the shared matcher, each on its own: signs
standing for words, numbered items on one line, a bare nickname as the vote, free text.
"""

from __future__ import annotations

import pytest

import rulesets
from engine.core.grammar import ArgKind, CommandForm, Grammar
from engine.core.orders import Channel, OrderKind
from forums.bbcode import parse_bbcode
from scraper.matcher import parse_post
from scraper.nicknames import NameResolver

RULESET = rulesets.find("twelve-rooms")
ROSTER = ["Вася", "Петя", "Маша", "Коля", "Bob", "Alice"]
RESOLVER = NameResolver(ROSTER)


def read(
    text: str, channel: Channel = Channel.PM
) -> list[tuple[str, str | None, tuple[str, ...], str]]:
    parsed = parse_post(
        parse_bbcode(text), RULESET.grammar, RESOLVER, sender="Маша", channel=channel
    )
    out = []
    for o in parsed.orders:
        extra = o.args.get("text") or " ".join(o.args.get("words", ())) or (o.form or "")
        out.append((o.kind.value, o.action, o.targets, extra))
    return out


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "Ход 3\nПеремещение: ↑\nГолос — Вася\nАС1 Личина на Петю",
            [("order", "move", (), "up"), ("vote", None, ("Вася",), "canonical"),
             ("order", "guise", ("Петя",), "canonical")],
        ),
        (
            "остаюсь. голосую за Машу. мафкилл Коля. Обман на Колю",
            [("order", "move", (), "stay"), ("vote", None, ("Маша",), "canonical"),
             ("order", "mafkill", ("Коля",), "canonical"), ("order", "deceit", ("Коля",), "canonical")],
        ),
        (
            "1) вниз  2) Я сказал: Вася за Петю, Маша за Колю  3) Петя",
            [("order", "move", (), "down"), ("order", "i_said", ("Вася", "Петя", "Маша", "Коля"), "canonical"),
             ("vote", None, ("Петя",), "bare_name")],
        ),
        ("АС2 Молчать: комната 7", [("order", "hush", (), "7")]),
        ("Устройство 6-7 и 12-9", [("order", "door_cameras", (), "6-7 и 12-9")]),
        ("Кто здесь? 5", [("order", "who_is_here", (), "5")]),
        ("наследую Отдыхай от Васи", [("order", "inherit", ("Вася",), "rest")]),
        ("беру АС1 Васи", [("order", "inherit", ("Вася",), "ac1")]),
        ("использую броник на себя", [("order", "use_vest", ("Маша",), "canonical")]),
        ("укол Коле", [("order", "injection", ("Коля",), "canonical")]),
        ("сравниваю Васю с Петей", [("order", "papers", ("Вася", "Петя"), "canonical")]),
        ("я в Комнате с камерами", [("order", "guess_room", (), "с камерами")]),
        ("переходим: я в 7", [("order", "start_room", (), "я в 7")]),
        ("не судить", [("no_lynch", None, ("no_lynch",), "canonical")]),
        ("анонимка: :) а вы знали?\nвторая строка", [("order", "anon", (), ":) а вы знали?\nвторая строка")]),
        ("vote: Bob\ngo left\nsupport me", [("vote", None, ("Bob",), "canonical"),
                                            ("order", "move", (), "left"), ("order", "support", ("Маша",), "canonical")]),
    ],
)  # fmt: skip
def test_the_examples_of_section_11(text: str, expected: list[tuple[object, ...]]) -> None:
    assert read(text) == expected


def test_an_arrow_inside_a_line_is_punctuation() -> None:
    """«Вася → Петя» is not a move to the right; «Я сказал Вася→Петя, Маша→Коля» reads names."""
    assert read("Я сказал Вася→Петя, Маша → Коля") == [
        ("order", "i_said", ("Вася", "Петя", "Маша", "Коля"), "canonical")
    ]


def test_a_bare_nickname_votes_only_by_pm() -> None:
    assert read("Петя") == [("vote", None, ("Петя",), "bare_name")]
    assert read("Петя", Channel.THREAD) == []
    assert read("Петя молодец") == []  # more than a name: talk


def test_a_heading_and_a_question_are_not_orders() -> None:
    assert read("Ход 3\nКто здесь?\nвниз") == [("order", "move", (), "down")]


_TINY = Grammar(
    forms=(
        CommandForm(OrderKind.ORDER, ("иду",), ArgKind.WORDS, ("move",)),
        CommandForm(OrderKind.ORDER, ("текст",), ArgKind.TEXT, ("say",)),
    ),
    symbols={"↑": "вверх"},
    items=True,
    bare_name=OrderKind.VOTE,
)


def test_the_matcher_features_alone() -> None:
    def run(text: str) -> list[tuple[str | None, str]]:
        parsed = parse_post(parse_bbcode(text), _TINY, RESOLVER, sender="Маша", channel=Channel.PM)
        return [
            (o.action, o.args.get("text") or " ".join(o.args.get("words", ())))
            for o in parsed.orders
        ]

    assert run("иду: ↑") == [("move", "вверх")]
    assert run("1) иду вниз 2) иду вверх") == [("move", "вниз"), ("move", "вверх")]
    assert run("текст — [b]жирно[/b] и ↑, если хочешь?") == [("say", "жирно и ↑, если хочешь?")]
    assert run("Вася") == [(None, "")]
    plain = Grammar(forms=_TINY.forms)
    parsed = parse_post(parse_bbcode("↑\nВася"), plain, RESOLVER, sender="Маша", channel=Channel.PM)
    assert parsed.orders == [] and [w.code for w in parsed.warnings] == ["unknown_command"]

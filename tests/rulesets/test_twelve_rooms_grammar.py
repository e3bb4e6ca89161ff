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


# Every example of §11's tables, one line each: read as exactly one order of its action.
SECTION_11 = {
    "move": [
        "иду вверх",
        "вверх",
        "↑",
        "наверх",
        "ход: вверх",
        "перемещаюсь вверх",
        "up",
        "move up",
        "go up",
        "north",
        "вниз",
        "иду вниз",
        "↓",
        "спускаюсь",
        "down",
        "move down",
        "влево",
        "налево",
        "←",
        "иду влево",
        "left",
        "go left",
        "вправо",
        "направо",
        "→",
        "перехожу вправо",
        "right",
        "остаюсь",
        "остаться",
        "стою",
        "на месте",
        "никуда не иду",
        "⏺",
        "stay",
        "no move",
    ],
    "vote": [
        "голос: Вася",
        "голосую за Васю",
        "линч — Вася",
        "Голос Вася",
        "сажаю Васю",
        "в Васю",
        "vote: Bob",
        "lynch Bob",
    ],
    "no_lynch": ["не судить", "голос: не судить", "no lynch"],
    "i_said": [
        "АС1 Я сказал: Вася голосует за Петю, Маша — за Колю",
        "Я сказал Вася→Петя, Маша→Коля",
        "I said: Bob votes Alice, Вася votes Петя",
    ],
    "hush": ["АС2 Молчать 7", "Молчать: комната 7", "hush room 7"],
    "rest": ["АС1 Отдыхай на Петю", "Отдыхай — Петя", "блок Петя", "rest Bob", "block Bob"],
    "stay_put": ["АС2 Останься Маша", "Останься: Машу", "stay put Alice"],
    "swap": ["АС1 Обмен Вася и Петя", "меняю ролями Васю с Петей", "swap Bob Alice"],
    "deceit": ["АС2 Обман на Колю", "Обман: Коля", "deceit Alice"],
    "therapy": ["АС1 Терапия Маша", "терапия на Машу", "therapy Bob"],
    "sow_doubt": ["АС2 Зародить сомнения в Пете", "сомнения: Петя", "doubt Bob"],
    "absolution": ["УС Всепрощение", "использую Всепрощение", "absolution"],
    "inherit": ["наследую Отдыхай от Васи", "беру АС1 Васи", "inherit rest from Bob"],
    "mafkill": [
        "мафкилл Вася",
        "МК: Вася",
        "убиваем Васю",
        "килл — Вася",
        "mafkill Bob",
        "kill Bob",
    ],
    "route": ["АС1 Путевой лист на Петю", "маршрут Пети", "route Bob"],
    "door_cameras": ["АС2 Устройство 6-7 и 12-9", "камеры на двери 6-7, 12-9", "cameras 6-7 12-9"],
    "support": ["АС Поддержка Маша", "лечу Машу", "хил на себя", "heal Alice", "support me"],
    "injection": ["УС Препарат на Колю", "укол Коле", "injection Bob"],
    "guise": ["АС1 Личина на Петю", "Личина — Петя", "чек Пети", "guise Bob", "check role Bob"],
    "who_is_here": ["АС2 Кто здесь? 5", "кто здесь — комната 5", "who is here 5"],
    "acquaintance": ["УС Знакомство", "перенаправляю лечение на себя", "acquaintance"],
    "papers": ["По бумагам Вася и Петя", "сравниваю Васю с Петей", "compare Bob Alice"],
    "interrogation": ["Допрос Коли", "АС Допрос на Колю", "interrogate Bob"],
    "use_vest": ["броник на Петю", "использую броник на себя", "vest on Bob"],
    "guess_room": [
        "угадываю: Комната смеха",
        "я в Комнате с камерами",
        "моя комната — безопасная",
        "догадка: какава",
        "guess: laughter room",
    ],
    "submit_map": [
        "карта: 1 — Безопасная, 2 — Изолированная, 3 — не хочется выходить, 4 — наоборот, 5 — детектор, 6 — какава, 7 — камеры, 8 — пистолет, 9 — рупор, 10 — смеха, 11 — тишины, 12 — Проходная"
    ],
    "anon": ["анонимка: текст", "анон: привет"],
    "start_room": ["начинаю в комнате 5", "стартовая комната 5", "переходим: я в 7"],
}


@pytest.mark.parametrize(
    ("action", "text"), [(a, t) for a, texts in SECTION_11.items() for t in texts]
)
def test_every_example_of_the_tables_of_section_11(action: str, text: str) -> None:
    ((kind, found, _, _),) = read(text)
    assert (found or kind) == action, read(text)

"""The matcher with the classic grammar: the general rules of classic.md §10."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

import pytest

from engine.core import warnings as codes
from engine.core.orders import Channel, OrderKind, Source
from forums.records import PostBody, TextRun
from rulesets.classic.grammar import GRAMMAR
from scraper.matcher import ParseResult, parse_post
from scraper.nicknames import NameResolver

Parse = Callable[..., ParseResult]

SHOTS = ("team_shot", "shot")


def test_anonymous_message_takes_later_lines_until_one_opens_with_a_command(
    parse: Parse,
) -> None:
    result = parse(
        "голосую за Колю\nанонимка для Пети: Вася: маф!\nон точно врёт\n  кто со мной?  "
    )
    assert [o.kind for o in result.orders] == [OrderKind.VOTE, OrderKind.REQUEST]
    assert result.orders[1].args["text"] == "Вася: маф!\nон точно врёт\n  кто со мной?"
    assert result.warnings == []


def test_a_command_line_after_an_anonymous_message_is_an_order_not_relayed(parse: Parse) -> None:
    """Issue 24 §8: «голосую за Олю» under an anonymous message was relayed to its
    recipient: a secret PM vote shown to another player. It is a vote of its own."""
    result = parse("анонимка для Пети: я знаю, кто мафия\nголосую за Олю\nвыстрел в Васю")
    assert [(o.kind, o.targets) for o in result.orders] == [
        (OrderKind.REQUEST, ("Петя",)),
        (OrderKind.VOTE, ("Оля",)),
        (OrderKind.ORDER, ("Вася",)),
    ]
    assert result.orders[0].args["text"] == "я знаю, кто мафия"
    talk = parse("анонимка для Пети: я знаю, за кого голосует Оля\nи выстрел в Васю был не мой")
    assert [o.kind for o in talk.orders] == [OrderKind.REQUEST]  # no line opens a command


def test_example_forum_posts(parse: Parse) -> None:
    """The posts of examples/classic/04_forum_posts.yaml."""
    check = parse("проверка: Маша", sender="Петя").orders[0]
    assert (check.action, check.targets) == ("check", ("Маша",))
    shot = parse("стреляю в Машу", sender="Коля").orders[0]
    assert (shot.candidates, shot.targets) == (SHOTS, ("Маша",))
    heal = parse("лечу себя", sender="Маша").orders[0]
    assert (heal.action, heal.targets, heal.args) == ("heal", ("Маша",), {"self": True})
    thread = parse("Виноват Коля", sender="Вася", channel=Channel.THREAD)
    assert [(o.kind, o.channel, o.targets) for o in thread.orders] == [
        (OrderKind.VOTE, Channel.THREAD, ("Коля",))
    ]
    assert parse("голосую за Колю", sender="Вася").orders[0].targets == ("Коля",)
    assert parse("рейтинг", channel=Channel.THREAD).orders[0].action == "rating_request"
    anon = parse("анонимка для Пети: проверь Колю", sender="Оля").orders[0]
    assert (anon.targets, anon.args) == (("Петя",), {"text": "проверь Колю"})


@pytest.mark.parametrize(
    ("text", "sender"), [("лечу себя", "Маша"), ("heal me", "Маша"), ("heal self", "Маша")]
)
def test_self_words_mean_the_sender(parse: Parse, text: str, sender: str) -> None:
    [order] = parse(text, sender=sender).orders
    assert order.targets == (sender,)
    assert order.args["self"] is True


def test_self_word_on_other_actions_is_left_to_the_ruleset(parse: Parse) -> None:
    [order] = parse("проверка меня", sender="Оля").orders
    assert (order.action, order.targets, order.args["self"]) == ("check", ("Оля",), True)


@pytest.mark.parametrize(
    "text",
    [
        "[b]Виноват[/b] — @Вася!!!",
        "виноват → Вася.",
        "виноват -> «Вася»",
        "ВИНОВАТ - вася",
        "  - виноват Вася ",
    ],
)
def test_separators_markup_and_punctuation(parse: Parse, text: str) -> None:
    assert parse(text).orders[0].targets == ("Вася",)


def body(*runs: str | TextRun) -> PostBody:
    return PostBody(tuple(TextRun(r) if isinstance(r, str) else r for r in runs))


def test_quoted_struck_code_and_signature_text_is_ignored(parse: Parse) -> None:
    post = body(
        TextRun("виноват Коля\n", quoted=True, quote_author="Оля"),
        "голосую за ",
        TextRun("Олю", struck=True),
        " Васю\n",
        TextRun("выстрел в Машу\n", code=True),
        TextRun("проверка Коли", signature=True),
    )
    result = parse(post)
    assert [(o.kind, o.targets) for o in result.orders] == [(OrderKind.VOTE, ("Вася",))]
    assert result.warnings == []


def test_dropped_text_still_parts_the_words_beside_it(parse: Parse) -> None:
    """A quote or strike with no space around it is not glued out of the text: «за» and
    «Васю» stay two words, and so do the lines before and after a quote."""
    struck = parse(body("голосую за", TextRun("Олю", struck=True), "Васю"))
    assert [(o.kind, o.targets) for o in struck.orders] == [(OrderKind.VOTE, ("Вася",))]
    quoted = body("проверка Коли", TextRun("голосую за Олю", quoted=True), "голосую за Машу")
    orders = parse(quoted).orders
    assert [(o.kind, o.targets) for o in orders][-1] == (OrderKind.VOTE, ("Маша",))
    assert len(orders) == 2 and orders[0].action == "check"


def test_a_dash_line_is_a_signature_once_and_a_divider_when_it_recurs(parse: Parse) -> None:
    # «-- » alone opens a signature typed into the post; several «--» lines split a post
    # into sections, as mafiascum 17378 #328 does before its vote.
    assert parse("проверка Оли\n-- \nвыстрел в Машу").orders[-1].action == "check"
    sections = "Коля молчит.\n--\nМаша тоже.\n--\nпроверка Оли"
    assert [o.targets for o in parse(sections).orders] == [("Оля",)]


def test_spoilers_count_only_when_the_grammar_says_so(resolver: NameResolver) -> None:
    post = body("привет\n", TextRun("выстрел в Машу", spoiler=True))
    hidden = parse_post(post, GRAMMAR, resolver, sender="Коля", channel=Channel.PM)
    assert hidden.orders == []
    assert [w.code for w in hidden.warnings] == [codes.UNKNOWN_COMMAND]
    grammar = GRAMMAR.__class__(**{**GRAMMAR.__dict__, "count_spoilers": True})
    shown = parse_post(post, grammar, resolver, sender="Коля", channel=Channel.PM)
    assert shown.orders[0].targets == ("Маша",)


@pytest.mark.parametrize(
    "text",
    [
        "наверное выстрел в Васю",
        "если Петя жив — проверка Пети",
        "может, проверить Колю?",
        "выстрел в Васю?",
        "виноват Вася?!",
        "проверка Васи ?)",
        "я бы сказал виноват Вася",
    ],
)
def test_hedges_and_questions_are_not_commands(parse: Parse, text: str) -> None:
    result = parse(text)
    assert result.orders == []
    assert [w.code for w in result.warnings] == [codes.UNKNOWN_COMMAND]


def test_several_commands_in_one_pm(parse: Parse) -> None:
    result = parse("Привет, мастер!\nвиноват Коля\nпроверка Оли\nотмена защиты\nрейтинг")
    assert [(o.kind, o.action, o.targets) for o in result.orders] == [
        (OrderKind.VOTE, None, ("Коля",)),
        (OrderKind.ORDER, "check", ("Оля",)),
        (OrderKind.CANCEL, "protect", ()),
        (OrderKind.REQUEST, "rating_request", ()),
    ]
    assert [o.source.line for o in result.orders if o.source] == [2, 3, 4, 5]
    assert result.warnings == []


def test_several_votes_keep_every_order_and_warn_once(parse: Parse) -> None:
    result = parse("голос за Олю\nвиноват Коля\nвиноват Вася")
    assert [o.targets for o in result.orders] == [("Оля",), ("Коля",), ("Вася",)]
    [warning] = result.warnings
    assert (warning.code, warning.accepted, warning.action) == (codes.MULTIPLE_VOTES, True, "vote")
    assert warning.source is not None and warning.source.line == 3


def test_unknown_target(parse: Parse) -> None:
    result = parse("выстрел в Ваську")
    assert result.orders == []
    [warning] = result.warnings
    assert (warning.code, warning.action, warning.player) == (
        codes.UNKNOWN_TARGET,
        "team_shot",
        "Петя",
    )
    assert "Вася" in warning.choices
    assert warning.source is not None and warning.source.text == "выстрел в Ваську"


def test_ambiguous_target(parse: Parse) -> None:
    result = parse("голосую за Нику")
    assert result.orders == []
    [warning] = result.warnings
    assert (warning.code, warning.action, warning.choices) == (
        codes.AMBIGUOUS_TARGET,
        "vote",
        ("Ника", "Ник"),
    )


def test_a_nick_spelt_like_a_form_of_another_is_ambiguous(parse: Parse) -> None:
    for text in ("выстрел Кота", "выстрел в Кота"):
        result = parse(text)
        assert result.orders == []
        assert [(w.code, w.choices) for w in result.warnings] == [
            (codes.AMBIGUOUS_TARGET, ("Кот", "Кота"))
        ]
    assert parse("выстрел в Кота", sender="Петя").warnings[0].source is not None


def test_exact_nick_wins_in_a_command(parse: Parse) -> None:
    assert parse("выстрел в Уставшего Скитальца").orders[0].targets == ("Уставший Скиталец",)
    assert parse("голос за Law'а").orders[0].targets == ("Law",)


def test_missing_target_is_a_bad_parameter(parse: Parse) -> None:
    result = parse("выстрел")
    assert result.orders == []
    assert [(w.code, w.action) for w in result.warnings] == [(codes.BAD_PARAMETER, "team_shot")]


def test_chatter_in_a_pm_is_an_unknown_command(parse: Parse) -> None:
    [warning] = parse("Привет! Как дела у тебя?\nЯ думаю, Вася мафия.").warnings
    assert warning.code == codes.UNKNOWN_COMMAND
    assert warning.player == "Петя"


def test_chatter_in_the_thread_is_nothing(parse: Parse) -> None:
    result = parse("Я думаю, Вася мафия.\nА ты как думаешь?", channel=Channel.THREAD)
    assert result.orders == [] and result.warnings == []


def test_empty_pm_is_an_unknown_command(parse: Parse) -> None:
    assert [w.code for w in parse(body(TextRun("виноват Вася", quoted=True))).warnings] == [
        codes.UNKNOWN_COMMAND
    ]


def test_source_and_time_are_kept(resolver: NameResolver) -> None:
    at = datetime(2024, 5, 1, 18, 0, tzinfo=UTC)
    source = Source(Channel.PM, post_id="pm-7", url="https://board/pm/7")
    result = parse_post(
        PostBody.plain("привет\nпроверка Оли"),
        GRAMMAR,
        resolver,
        sender="Петя",
        channel=Channel.PM,
        source=source,
        at=at,
    )
    [order] = result.orders
    assert order.at == at
    assert order.source == Source(Channel.PM, "pm-7", "https://board/pm/7", 2, "проверка Оли")


@pytest.mark.parametrize(
    ("text", "read"),
    [
        ("проверка Коли. Голосую за Олю", [("check", ("Коля",)), (None, ("Оля",))]),
        ("Голосую за Олю. Проверка Коли.", [(None, ("Оля",)), ("check", ("Коля",))]),
        ("Привет! Проверка Коли.", [("check", ("Коля",))]),
        ("проверка Коли. Голос за Олю был ошибкой? Нет.", [("check", ("Коля",))]),
        ("проверка Коли. Наверное, голосую за Олю", [("check", ("Коля",))]),
    ],
)
def test_each_sentence_of_a_pm_line_opens_like_a_line(
    parse: Parse, text: str, read: list[tuple[str | None, tuple[str, ...]]]
) -> None:
    """Issue 9 §2: a whole turn may come in one PM line, one command per sentence; a later
    sentence that asks or hedges is talk, and takes nothing from the one before."""
    result = parse(text, sender="Петя")
    assert [(o.action, o.targets) for o in result.orders] == read

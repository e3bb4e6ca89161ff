"""Every command form of classic.md §10.1–10.3, read by the matcher with the classic grammar."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from engine.core.orders import Channel, OrderKind
from scraper.matcher import ParseResult

Parse = Callable[..., ParseResult]

SHOTS = ("team_shot", "shot")

VOTES = [
    ("виноват Вася", "canonical"),
    ("Виноват: Вася", "canonical"),
    ("голосую за Васю", "canonical"),
    ("голосую за Вася", "canonical"),
    ("голос за Васю", "nonstandard"),
    ("голос: Вася", "nonstandard"),
    ("голосую против Васи", "nonstandard"),
    ("виновен Вася", "nonstandard"),
    ("ГЗ Васю", "nonstandard"),
    ("vote Вася", "nonstandard"),
    ("vote: Вася", "nonstandard"),
    ("guilty Вася", "nonstandard"),
    ("I vote Вася", "nonstandard"),
]


@pytest.mark.parametrize(("text", "form"), VOTES)
def test_votes(parse: Parse, text: str, form: str) -> None:
    result = parse(text)
    assert result.warnings == []
    [order] = result.orders
    assert (order.kind, order.targets, order.form) == (OrderKind.VOTE, ("Вася",), form)
    assert order.player == "Петя"
    assert order.channel is Channel.PM


@pytest.mark.parametrize(
    "text",
    ["снимаю голос", "отзываю голос", "снять голос", "отмена голоса", "unvote", "withdraw vote"],
)
def test_unvotes(parse: Parse, text: str) -> None:
    [order] = parse(text).orders
    assert (order.kind, order.targets, order.action) == (OrderKind.UNVOTE, (), None)


ORDERS = [
    ("выстрел Вася", SHOTS),
    ("выстрел: Вася", SHOTS),
    ("выстрел в Васю", SHOTS),
    ("стреляю в Васю", SHOTS),
    ("стреляем в Васю", SHOTS),
    ("мишень Вася", SHOTS),
    ("убить Васю", SHOTS),
    ("shoot Вася", SHOTS),
    ("shot: Вася", SHOTS),
    ("kill Вася", SHOTS),
    ("командный выстрел Вася", ("team_shot",)),
    ("team shot Вася", ("team_shot",)),
    ("проверка Вася", ("check",)),
    ("проверка: Вася", ("check",)),
    ("проверяю Васю", ("check",)),
    ("проверить Васю", ("check",)),
    ("проверка Васи", ("check",)),
    ("check Вася", ("check",)),
    ("investigate Вася", ("check",)),
    ("самосуд Вася", ("vigilante",)),
    ("самосуд: Вася", ("vigilante",)),
    ("самосуд над Васей", ("vigilante",)),
    ("сужу Васю", ("vigilante",)),
    ("vigilante Вася", ("vigilante",)),
    ("judge Вася", ("vigilante",)),
    ("подсматривание Вася", ("peek",)),
    ("подсматриваю за Васей", ("peek",)),
    ("подглядываю за Васей", ("peek",)),
    ("слежу за Васей", ("peek",)),
    ("peek Вася", ("peek",)),
    ("watch Вася", ("peek",)),
    ("отвлечение Вася", ("distract",)),
    ("отвлекаю Васю", ("distract",)),
    ("отвлечь Васю", ("distract",)),
    ("distract Вася", ("distract",)),
    ("block Вася", ("distract",)),
    ("отравление Вася", ("poison",)),
    ("отравляю Васю", ("poison",)),
    ("травлю Васю", ("poison",)),
    ("яд Васе", ("poison",)),
    ("poison Вася", ("poison",)),
    ("защита Вася", ("protect",)),
    ("защищаю Васю", ("protect",)),
    ("protect Вася", ("protect",)),
    ("guard Вася", ("protect",)),
    ("прикрываю Васю", ("protect", "heal")),
    ("прикрытие: Вася", ("protect", "heal")),
    ("лечение Вася", ("heal",)),
    ("лечу Васю", ("heal",)),
    ("лечить Васю", ("heal",)),
    ("heal Вася", ("heal",)),
]


@pytest.mark.parametrize(("text", "actions"), ORDERS)
def test_orders(parse: Parse, text: str, actions: tuple[str, ...]) -> None:
    result = parse(text)
    assert result.warnings == []
    [order] = result.orders
    assert order.kind is OrderKind.ORDER
    assert (order.action, order.candidates, order.targets) == (actions[0], actions, ("Вася",))


@pytest.mark.parametrize(
    ("text", "actions"),
    [
        ("отмена", ()),
        ("отменяю", ()),
        ("cancel", ()),
        ("отмена проверки", ("check",)),
        ("отмена выстрела", SHOTS),
        ("отменить защиту", ("protect",)),
        ("cancel check", ("check",)),
        ("отмена командного выстрела", ("team_shot",)),
    ],
)
def test_cancel_with_and_without_a_noun(parse: Parse, text: str, actions: tuple[str, ...]) -> None:
    [order] = parse(text).orders
    assert order.kind is OrderKind.CANCEL
    assert order.action == (actions[0] if actions else None)
    assert order.candidates == actions


@pytest.mark.parametrize(
    ("text", "request_id"),
    [
        ("рейтинг", "rating_request"),
        ("рейтинг голосования", "rating_request"),
        ("опубликуй рейтинг", "rating_request"),
        ("текущее голосование", "rating_request"),
        ("покажи голоса", "rating_request"),
        ("rating", "rating_request"),
        ("vote count", "rating_request"),
        ("tally", "rating_request"),
        ("рейтинг?", "rating_request"),
        ("список мишеней", "target_list_request"),
        ("мишени", "target_list_request"),
        ("кто куда стреляет?", "target_list_request"),
        ("target list", "target_list_request"),
        ("targets", "target_list_request"),
    ],
)
def test_requests(parse: Parse, text: str, request_id: str) -> None:
    [order] = parse(text).orders
    assert (order.kind, order.action, order.targets) == (OrderKind.REQUEST, request_id, ())


@pytest.mark.parametrize(
    "text",
    [
        "анонимка для Васи: текст",
        "анонимное сообщение Васе: текст",
        "передай Васе: текст",
        "anon to Вася: текст",
        "анонимка Васе:текст  ",
    ],
)
def test_anonymous_message_forms(parse: Parse, text: str) -> None:
    [order] = parse(text).orders
    assert (order.kind, order.action, order.targets) == (
        OrderKind.REQUEST,
        "anon_request",
        ("Вася",),
    )
    assert order.args == {"text": "текст"}

"""The classic ruleset's command language (classic.md §10.1–10.3), as grammar data."""

from __future__ import annotations

from engine.core.grammar import ArgKind, CommandForm, Grammar
from engine.core.orders import OrderKind

_SHOTS = ("team_shot", "shot")
"""A plain shot word means the team shot from a mafioso and a shot from a killer or maniac."""
_COVER = ("protect", "heal")
"""Cover words mean the sender's only cover action (§10.2)."""

_RATING = (
    "рейтинг",
    "рейтинг голосования",
    "рейтинг голосований",
    "опубликуй рейтинг",
    "текущее голосование",
    "покажи голоса",
)
# Hedged or conditional lines are not orders (§10, §1.6.6 of the seed).
_HEDGES = "наверное наверно если может можно возможно вероятно думаю кажется пожалуй хочу"
_HEDGES += " maybe perhaps probably if might"


def _order(actions: tuple[str, ...], *phrases: str, lang: str = "ru") -> CommandForm:
    return CommandForm(OrderKind.ORDER, phrases, ArgKind.PLAYER, actions, lang=lang)


FORMS: tuple[CommandForm, ...] = (
    # §10.1 votes
    CommandForm(OrderKind.VOTE, ("виноват", "голосую за")),
    CommandForm(
        OrderKind.VOTE,
        ("голос за", "голос", "голосую против", "голосую", "виновен", "виновна", "виновата", "гз"),
        form="nonstandard",
    ),
    CommandForm(
        OrderKind.VOTE,
        ("vote", "i vote", "i vote for", "vote for", "guilty"),
        form="nonstandard",
        lang="en",
    ),
    CommandForm(
        OrderKind.UNVOTE,
        (
            "снимаю голос",
            "отзываю голос",
            "снять голос",
            "отмена голоса",
            "отмена голосования",
            "отменяю голос",
            "анвот",
        ),
        ArgKind.NONE,
    ),
    CommandForm(OrderKind.UNVOTE, ("unvote", "withdraw vote"), ArgKind.NONE, lang="en"),
    # §10.2 orders
    _order(_SHOTS, "выстрел", "стреляю", "стреляем", "стрелять", "мишень", "убить", "убиваю"),
    _order(_SHOTS, "shoot", "shot", "kill", lang="en"),
    _order(("team_shot",), "командный выстрел"),
    _order(("team_shot",), "team shot", lang="en"),
    _order(("check",), "проверка", "проверяю", "проверить", "проверяем"),
    _order(("check",), "check", "investigate", lang="en"),
    _order(("vigilante",), "самосуд", "сужу", "судить"),
    _order(("vigilante",), "vigilante", "judge", lang="en"),
    _order(("peek",), "подсматривание", "подсматриваю", "подглядываю", "слежу", "следить"),
    _order(("peek",), "peek", "watch", lang="en"),
    _order(("distract",), "отвлечение", "отвлекаю", "отвлечь"),
    _order(("distract",), "distract", "block", lang="en"),
    _order(("poison",), "отравление", "отравляю", "отравить", "травлю", "яд"),
    _order(("poison",), "poison", lang="en"),
    _order(("protect",), "защита", "защищаю", "защитить"),
    _order(("protect",), "protect", "guard", lang="en"),
    _order(_COVER, "прикрываю", "прикрытие", "прикрыть"),
    _order(_COVER, "cover", lang="en"),
    _order(("heal",), "лечение", "лечу", "лечить", "вылечить"),
    _order(("heal",), "heal", lang="en"),
    CommandForm(OrderKind.CANCEL, ("отмена", "отменяю", "отменить"), ArgKind.ACTION),
    CommandForm(OrderKind.CANCEL, ("cancel",), ArgKind.ACTION, lang="en"),
    # §10.3 requests
    CommandForm(
        OrderKind.REQUEST,
        _RATING,
        ArgKind.NONE,
        ("rating_request",),
    ),
    CommandForm(
        OrderKind.REQUEST,
        ("rating", "vote count", "tally"),
        ArgKind.NONE,
        ("rating_request",),
        lang="en",
    ),
    CommandForm(
        OrderKind.REQUEST,
        ("анонимка для", "анонимка", "анонимное сообщение", "анонимное сообщение для", "передай"),
        ArgKind.PLAYER_TEXT,
        ("anon_request",),
    ),
    CommandForm(
        OrderKind.REQUEST, ("anon to", "anon"), ArgKind.PLAYER_TEXT, ("anon_request",), lang="en"
    ),
    CommandForm(
        OrderKind.REQUEST, ("помощь", "команды", "справка"), ArgKind.NONE, ("help_request",)
    ),
    CommandForm(
        OrderKind.REQUEST, ("help", "commands"), ArgKind.NONE, ("help_request",), lang="en"
    ),
    CommandForm(
        OrderKind.REQUEST,
        ("список мишеней", "мишени", "кто куда стреляет"),
        ArgKind.NONE,
        ("target_list_request",),
    ),
    CommandForm(
        OrderKind.REQUEST,
        ("target list", "targets"),
        ArgKind.NONE,
        ("target_list_request",),
        lang="en",
    ),
)

ACTION_NOUNS: dict[str, tuple[str, ...]] = {
    **dict.fromkeys(("проверки", "проверку", "проверка", "check"), ("check",)),
    **dict.fromkeys(("выстрела", "выстрел", "выстрелов", "shot", "shoot", "kill"), _SHOTS),
    **dict.fromkeys(("командного выстрела", "командный выстрел", "team shot"), ("team_shot",)),
    **dict.fromkeys(("самосуда", "самосуд", "vigilante"), ("vigilante",)),
    **dict.fromkeys(("подсматривания", "подсматривание", "слежки", "peek"), ("peek",)),
    **dict.fromkeys(("отвлечения", "отвлечение", "distract", "block"), ("distract",)),
    **dict.fromkeys(("отравления", "отравление", "яда", "poison"), ("poison",)),
    **dict.fromkeys(("защиты", "защиту", "защита", "protect", "guard"), ("protect",)),
    **dict.fromkeys(("прикрытия", "прикрытие", "cover"), _COVER),
    **dict.fromkeys(("лечения", "лечение", "heal"), ("heal",)),
}

GRAMMAR = Grammar(
    forms=FORMS,
    prepositions=frozenset(
        {"в", "во", "на", "за", "над", "по", "у", "к", "для", "против", "on", "to", "for", "at"}
    ),
    self_words=frozenset({"себя", "себе", "собой", "меня", "мне", "self", "me", "myself"}),
    # No "no lynch" in classic: someone is imprisoned every turn (§3.2).
    no_lynch_words=(),
    action_nouns=ACTION_NOUNS,
    line_start=True,
    count_spoilers=False,
    hedges=tuple(_HEDGES.split()),
    question_is_hedge=True,
)

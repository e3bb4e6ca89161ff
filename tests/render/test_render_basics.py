"""Filters, texts and the Renderer's construction."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone
from zoneinfo import ZoneInfo

import pytest

from engine.render import Renderer, RenderError, format_dt, nick, plural_en, plural_ru
from rulesets.classic import texts

ROLE_IDS = [
    "citizen",
    "commissar",
    "doctor",
    "bodyguard",
    "sheriff",
    "witness",
    "mafioso",
    "lawyer",
    "killer",
    "thief",
    "outcast",
    "maniac",
    "sorcerer",
]
ACTION_IDS = [
    "shot",
    "team_shot",
    "check",
    "vigilante",
    "peek",
    "distract",
    "poison",
    "protect",
    "heal",
]
REJECT_CODES = [
    "thread_vote_ignored",
    "thread_order_ignored",
    "nonstandard_vote_form",
    "invalid_vote_form",
    "unknown_target",
    "ambiguous_target",
    "target_not_in_play",
    "target_self",
    "action_not_available",
    "sender_not_in_play",
    "not_clan_member",
    "late",
    "rating_rate_limited",
    "anon_rate_limited",
    "unknown_command",
]


@pytest.mark.parametrize(
    ("n", "form"),
    [
        (0, "голосов"),
        (1, "голос"),
        (2, "голоса"),
        (4, "голоса"),
        (5, "голосов"),
        (11, "голосов"),
        (12, "голосов"),
        (14, "голосов"),
        (21, "голос"),
        (22, "голоса"),
        (25, "голосов"),
        (101, "голос"),
        (111, "голосов"),
    ],
)
def test_plural_ru(n: int, form: str) -> None:
    assert plural_ru(n, "голос", "голоса", "голосов") == form


def test_plural_en() -> None:
    assert plural_en(1, "vote", "votes") == "vote"
    assert plural_en(0, "vote", "votes") == "votes"
    assert plural_en(2, "vote", "votes") == "votes"


def test_nick_is_bold_and_cannot_inject_bbcode() -> None:
    assert nick("Маша") == "[b]Маша[/b]"
    evil = nick("[/b][url=http://x]Вася[/url][b]")
    assert evil.startswith("[b]") and evil.endswith("[/b]")
    inner = evil[3:-4]
    assert "[" not in inner and "]" not in inner
    assert "Вася" in inner
    assert "\n" not in nick("two\nlines")


def test_dt_formats_in_game_time_zone() -> None:
    moscow = ZoneInfo("Europe/Moscow")
    moment = datetime(2026, 9, 5, 16, 0, tzinfo=UTC)
    assert format_dt(moment, moscow, "ru") == "05.09.2026 19:00 МСК"
    assert format_dt(moment, moscow, "en") == "5 Sep 2026 19:00 MSK"
    assert format_dt("2026-09-05T19:00:00+03:00", moscow, "ru") == "05.09.2026 19:00 МСК"
    assert format_dt("2026-09-05T16:00:00Z", moscow, "en") == "5 Sep 2026 19:00 MSK"
    # A zone without an abbreviation shows its offset.
    almaty = timezone(timedelta(hours=5))
    assert format_dt(moment, almaty, "ru") == "05.09.2026 21:00 UTC+5"


def test_dt_refuses_naive_datetimes() -> None:
    with pytest.raises(RenderError):
        format_dt(datetime(2026, 9, 5, 19, 0), ZoneInfo("Europe/Moscow"))
    with pytest.raises(RenderError):
        format_dt("2026-09-05T19:00:00", ZoneInfo("Europe/Moscow"))
    with pytest.raises(RenderError):
        format_dt("tomorrow", ZoneInfo("Europe/Moscow"))


def test_renderer_uses_its_time_zone() -> None:
    r = Renderer(texts.TEMPLATES, "en", tz="UTC")
    assert r.dt("2026-09-05T19:00:00+03:00") == "5 Sep 2026 16:00 UTC"


@pytest.mark.parametrize("lang", texts.LANGS)
def test_texts_cover_every_id(lang: str) -> None:
    assert set(texts.ROLES[lang]) == set(ROLE_IDS) == set(texts.ROLE_ORDER)
    assert set(texts.ROLE_HINTS[lang]) == set(ROLE_IDS)
    assert set(texts.FACTIONS[lang]) == {"town", "mafia", "mafia_b", "loner", "draw"}
    assert set(texts.WINNERS[lang]) == set(texts.FACTIONS[lang])
    assert set(texts.ACTIONS[lang]) == set(ACTION_IDS)
    assert set(texts.CAUSES[lang]) == {"killed", "poison"}
    assert set(texts.IMPRISONMENT_REASONS[lang]) == {"leader", "tie_break", "no_votes"}
    assert set(REJECT_CODES) <= set(texts.REJECT_REASONS[lang])


def test_russian_names_follow_the_catalogue() -> None:
    ru = texts.ROLES["ru"]
    assert [ru[r] for r in ROLE_IDS] == [
        "Честный житель",
        "Комиссар",
        "Доктор",
        "Телохранитель",
        "Шериф",
        "Свидетель",
        "Мафиози",
        "Адвокат",
        "Киллер",
        "Вор",
        "Отщепенец",
        "Маньяк",
        "Колдун",
    ]
    assert texts.ACTIONS["ru"]["peek"] == "Подсматривание"
    assert texts.FACTIONS["ru"]["town"] == "честные жители"


def test_role_and_faction_filters(ru: Renderer, en: Renderer) -> None:
    assert ru.role_name("commissar") == "Комиссар"
    assert en.role_name("commissar") == "Commissar"
    assert ru.faction_name("mafia") == "мафия"
    with pytest.raises(RenderError):
        ru.role_name("dragon")


def test_unknown_language_or_package_is_an_error() -> None:
    with pytest.raises(RenderError):
        Renderer(texts.TEMPLATES, "de")
    with pytest.raises(RenderError):
        Renderer("rulesets.nonexistent.templates", "ru")


def test_templates_ship_as_package_data() -> None:
    from importlib.resources import files

    for lang in texts.LANGS:
        folder = files(texts.TEMPLATES).joinpath(lang)
        names = {p.name for p in folder.iterdir()}
        expected = {"results.j2", "private.j2", "game_started.j2", "vote_rating.j2"}
        assert expected <= names
        assert "turn_started.j2" in names

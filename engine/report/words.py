"""The report page's own words, in the game's language (Russian or English)."""

from __future__ import annotations

WORDS: dict[str, dict[str, str]] = {
    "ru": {
        "report": "Отчёт об игре",
        "public": "Только публичное: то, что уже видели игроки в теме",
        "full": "Всё: роли, голоса и приказы открыты",
        "host_only": "ТОЛЬКО ДЛЯ ВЕДУЩЕГО: игра идёт, а здесь её тайны. Не публикуйте.",
        "as_of": "по состоянию на",
        "running": "идёт",
        "finished": "окончена",
        "winner": "Победитель",
        "players": "Игроки",
        "player": "Игрок",
        "role": "Роль",
        "fate": "Судьба",
        "alive": "в игре",
        "posts": "Сообщения в теме по фазам",
        "votes": "Голоса",
        "orders": "Приказы",
        "pms": "ЛС",
        "timeline": "Ход игры",
        "phase": "Фаза",
        "deadline": "Дедлайн",
        "deaths": "Выбывшие и причины",
        "no_deaths": "Пока никто не выбыл.",
        "vote_flow": "Кто за кого голосовал и когда",
        "final_count": "Итоговый подсчёт",
        "no_votes": "Голосов не было.",
        "secret_votes": "Голоса тайные (в ЛС ведущему): видны только опубликованные итоги.",
        "unvote": "снял голос",
        "results_post": "Что опубликовано в теме",
        "night_orders": "Приказы фазы",
        "extras": "Особенности правил",
        "hp": "Здоровье (HP) по фазам",
        "map": "Карта перед ходом",
        "hands": "Руки (карты) после фазы",
        "activity": "Активность",
        "open": "открыта",
        "published": "итоги опубликованы",
        "waiting": "итоги ждут ведущего",
        "not_public_yet": "итоги ещё не опубликованы",
        "hours": "ч",
        "nobody": "—",
        "generated": "Сделано forumgm",
        "no_lynch": "без казни",
        "opening": "Начало игры",
    },
    "en": {
        "report": "Game report",
        "public": "Public facts only: what players have already seen in the thread",
        "full": "Everything: roles, votes and orders revealed",
        "host_only": "HOST ONLY: the game is running and this page holds its secrets. Do not post.",
        "as_of": "as of",
        "running": "running",
        "finished": "finished",
        "winner": "Winner",
        "players": "Players",
        "player": "Player",
        "role": "Role",
        "fate": "Fate",
        "alive": "in play",
        "posts": "Thread posts per phase",
        "votes": "Votes",
        "orders": "Orders",
        "pms": "PMs",
        "timeline": "Timeline",
        "phase": "Phase",
        "deadline": "Deadline",
        "deaths": "Out of the game, and why",
        "no_deaths": "Nobody is out yet.",
        "vote_flow": "Who voted for whom, and when",
        "final_count": "Final count",
        "no_votes": "There were no votes.",
        "secret_votes": "Votes are secret (PMs to the GM): only the published results show.",
        "unvote": "unvoted",
        "results_post": "What was posted in the thread",
        "night_orders": "Orders of the phase",
        "extras": "Ruleset extras",
        "hp": "Health (HP) by phase",
        "map": "The map before turn",
        "hands": "Hands (cards) after the phase",
        "activity": "Activity",
        "open": "open",
        "published": "results published",
        "waiting": "results await the host",
        "not_public_yet": "results not published yet",
        "hours": "h",
        "nobody": "—",
        "generated": "Made by forumgm",
        "no_lynch": "no lynch",
        "opening": "The opening",
    },
}

CAUSES: dict[str, dict[str, str]] = {
    "ru": {
        "killed": "убит ночью",
        "poison": "отравлен",
        "night": "погиб ночью",
        "lynch": "казнён голосованием",
        "imprisoned": "посажен в тюрьму голосованием",
        "mafkill": "убит мафией",
        "execution": "казнён",
        "vote": "казнён голосованием",
        "day": "погиб днём",
        "mortal_wound": "умер от смертельного ранения",
        "kill": "убит",
    },
    "en": {
        "killed": "killed at night",
        "poison": "poisoned",
        "night": "died at night",
        "lynch": "lynched",
        "imprisoned": "jailed by the vote",
        "mafkill": "killed by the mafia",
        "execution": "executed",
        "vote": "voted out",
        "day": "died during the day",
        "mortal_wound": "died of a mortal wound",
        "kill": "killed",
    },
}

PHASE_KINDS: dict[str, dict[str, str]] = {
    "ru": {"turn": "Ход", "day": "День", "night": "Ночь", "draft": "Сбор колод"},
    "en": {"turn": "Turn", "day": "Day", "night": "Night", "draft": "Deck building"},
}


def words(lang: str) -> dict[str, str]:
    return WORDS["ru" if lang == "ru" else "en"]


def cause(lang: str, code: str | None) -> str:
    table = CAUSES["ru" if lang == "ru" else "en"]
    return table.get(code or "", code or "")


def phase_label(lang: str, phase: str) -> str:
    kind, _, number = phase.partition(" ")
    name = PHASE_KINDS["ru" if lang == "ru" else "en"].get(kind, kind)
    if kind == "turn" and not number:
        number = "0"  # twelve-rooms' placement turn: "turn 0" is written "turn"
    return f"{name} {number}".strip()

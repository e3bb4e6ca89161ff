"""Words of «12 комнат» (roles, skills, rooms, causes, reasons) in Russian and English."""

from __future__ import annotations

from collections.abc import Mapping

from rulesets.twelve_rooms.roles import ROLE_ORDER as _ROLE_ORDER

TEMPLATES = "rulesets.twelve_rooms.templates"
LANGS = ("ru", "en")
ROLE_ORDER = _ROLE_ORDER

ROLES: Mapping[str, Mapping[str, str]] = {
    "ru": {
        "manager": "Распорядитель",
        "guarantor": "Поручитель",
        "executor": "Исполнитель",
        "minister": "Служитель",
        "deputy": "Заместитель",
        "observer": "Наблюдатель",
        "savior": "Спаситель",
        "warden": "Смотритель",
        "custodian": "Блюститель",
        "interrogator": "Дознаватель",
        "citizen": "Мирный житель",
        "mafioso": "Мафиози",
    },
    "en": {
        "manager": "Manager",
        "guarantor": "Guarantor",
        "executor": "Executor",
        "minister": "Minister",
        "deputy": "Deputy",
        "observer": "Observer",
        "savior": "Savior",
        "warden": "Warden",
        "custodian": "Custodian",
        "interrogator": "Interrogator",
        "citizen": "Citizen",
        "mafioso": "Mafioso",
    },
}

SKILLS: Mapping[str, Mapping[str, str]] = {
    "ru": {
        "i_said": "Я сказал",
        "hush": "Молчать",
        "composure": "Невозмутимость",
        "rest": "Отдыхай",
        "stay_put": "Останься",
        "unnoticed": "Незаметность",
        "swap": "Обмен",
        "deceit": "Обман",
        "therapy": "Терапия",
        "sow_doubt": "Зародить сомнения",
        "absolution": "Всепрощение",
        "unhurried": "Неспешно успевает",
        "inheritance": "Наследование",
        "knack": "Сноровка",
        "reliability": "Надёжность",
        "route": "Путевой лист",
        "door_cameras": "Устройство",
        "in_shadow": "В тени",
        "support": "Поддержка",
        "injection": "Препарат",
        "relax": "Можно расслабиться",
        "guise": "Личина",
        "who_is_here": "Кто здесь?",
        "acquaintance": "Знакомство",
        "prudence": "Осмотрительность",
        "papers": "По бумагам",
        "interrogation": "Допрос",
    },
    "en": {
        "i_said": "I said",
        "hush": "Hush",
        "composure": "Composure",
        "rest": "Rest",
        "stay_put": "Stay put",
        "unnoticed": "Unnoticed",
        "swap": "Swap",
        "deceit": "Deceit",
        "therapy": "Therapy",
        "sow_doubt": "Sow doubt",
        "absolution": "Absolution",
        "unhurried": "Unhurried",
        "inheritance": "Inheritance",
        "knack": "Knack",
        "reliability": "Reliability",
        "route": "Route sheet",
        "door_cameras": "Door cameras",
        "in_shadow": "In the shadow",
        "support": "Support",
        "injection": "Injection",
        "relax": "Time to relax",
        "guise": "Guise",
        "who_is_here": "Who is here?",
        "acquaintance": "Acquaintance",
        "prudence": "Prudence",
        "papers": "By the papers",
        "interrogation": "Interrogation",
    },
}

HINTS: Mapping[str, Mapping[str, str]] = {
    "ru": {
        "i_said": "двое игроков голосуют так, как вы скажете",
        "hush": "голоса из названной комнаты в этот ход не считаются",
        "composure": "с первого раза не садитесь, садится второй по голосам; мирные не могут вас убить, кроме УС Спасителя",
        "rest": "блокирует АС игрока (не одного и того же два хода подряд)",
        "stay_put": "игрок не может покинуть комнату в этот ход (не одного и того же два хода подряд)",
        "unnoticed": "вас не видят камеры Наблюдателя",
        "swap": "меняет ролями двух игроков (не более двух пар одновременно)",
        "deceit": "меняет статус игрока на противоположный на 2 хода",
        "therapy": "снимает чувство вины с сокомандника на 1 ход",
        "sow_doubt": "вызывает у игрока чувство вины на 1 ход",
        "absolution": "раз за игру снимает чувство вины со всех игроков",
        "unhurried": "можно использовать обе АС за ход",
        "inheritance": "вы наследуете АС каждого выбывшего сокомандника",
        "knack": "любое количество АС за ход",
        "reliability": "пока ничего не унаследовано, покинуть игру можно только по голосованию",
        "route": "маршрут игрока за последние 3 хода",
        "door_cameras": "камеры над двумя дверями: кто через них прошёл",
        "in_shadow": "с первого раза не садитесь, садится второй по голосам",
        "support": "спасает игрока от выбывания, кроме линча (не одного и того же два хода подряд)",
        "injection": "раз за игру смертельная инъекция; если выбывает мирный, Поддержка теряется",
        "relax": "в Безопасной комнате ваша АС не работает",
        "guise": "узнаёт роль игрока",
        "who_is_here": "узнаёт роли всех игроков в комнате (кроме Комнаты с камерами)",
        "acquaintance": "раз за игру перенаправляет лечение Спасителя на вас",
        "prudence": "мафкилл вас не берёт",
        "papers": "сравнивает статусы двух игроков (не себя)",
        "interrogation": "проверяет игрока на чувство вины",
    },
    "en": {
        "i_said": "two players vote as you tell them",
        "hush": "votes from the named room do not count this turn",
        "composure": "not lynched the first time (the runner-up is); town cannot kill you except the Savior's injection",
        "rest": "blocks a player's active skills (not the same one two turns in a row)",
        "stay_put": "a player cannot leave their room this turn (not the same one two turns in a row)",
        "unnoticed": "the Observer's cameras never see you",
        "swap": "swaps the roles of two players (at most two pairs at a time)",
        "deceit": "inverts a player's status for 2 turns",
        "therapy": "a teammate's guilt does not show for 1 turn",
        "sow_doubt": "a player appears guilty for 1 turn",
        "absolution": "clears everyone's guilt",
        "unhurried": "both active skills in one turn",
        "inheritance": "you inherit an active skill of each eliminated teammate",
        "knack": "any number of active skills per turn",
        "reliability": "until you inherit, only the vote can put you out",
        "route": "a player's rooms over the last 3 turns",
        "door_cameras": "cameras over two doors: who passed through",
        "in_shadow": "not lynched the first time (the runner-up is)",
        "support": "saves a player from elimination except the lynch (not the same one twice in a row)",
        "injection": "a lethal injection; killing a town player costs you Support",
        "relax": "your active skill does not work in the Safe room",
        "guise": "learns a player's role",
        "who_is_here": "learns the roles of everyone in a room (not the Camera room)",
        "acquaintance": "this turn the Savior's heal protects you instead",
        "prudence": "the mafia kill cannot take you",
        "papers": "compares the statuses of two players (not yourself)",
        "interrogation": "checks a player for guilt",
    },
}

KINDS: Mapping[str, Mapping[str, str]] = {
    "ru": {"active": "АС", "ultimate": "УС", "passive": "ПС"},
    "en": {"active": "active", "ultimate": "once per game", "passive": "passive"},
}

ROOMS: Mapping[str, Mapping[str, str]] = {
    "ru": {
        "safe": "Безопасная комната",
        "isolated": "Изолированная комната",
        "sticky": "Комната, из которой не хочется выходить",
        "inverted": "Комната наоборот",
        "detector": "Комната с детектором",
        "cocoa": "Комната с какавой и плюшками",
        "cameras": "Комната с камерами",
        "pistol": "Комната с пистолетом",
        "megaphone": "Комната с рупором",
        "laughter": "Комната смеха",
        "silence": "Комната тишины",
        "pass_through": "Проходная комната",
    },
    "en": {
        "safe": "the Safe room",
        "isolated": "the Isolated room",
        "sticky": "the Room you don't want to leave",
        "inverted": "the Upside-down room",
        "detector": "the Detector room",
        "cocoa": "the Cocoa and buns room",
        "cameras": "the Camera room",
        "pistol": "the Pistol room",
        "megaphone": "the Megaphone room",
        "laughter": "the Laughter room",
        "silence": "the Silence room",
        "pass_through": "the Passage room",
    },
}

ROOMS_IN: Mapping[str, Mapping[str, str]] = {
    "ru": {
        "safe": "в Безопасной комнате",
        "isolated": "в Изолированной комнате",
        "sticky": "в Комнате, из которой не хочется выходить",
        "inverted": "в Комнате наоборот",
        "detector": "в Комнате с детектором",
        "cocoa": "в Комнате с какавой и плюшками",
        "cameras": "в Комнате с камерами",
        "pistol": "в Комнате с пистолетом",
        "megaphone": "в Комнате с рупором",
        "laughter": "в Комнате смеха",
        "silence": "в Комнате тишины",
        "pass_through": "в Проходной комнате",
    },
    "en": {kind: f"in {name}" for kind, name in ROOMS["en"].items()},
}
"""Where something happened: the room's name in the prepositional case («в Комнате смеха»)."""

ROOMS_FROM: Mapping[str, Mapping[str, str]] = {
    "ru": {
        "safe": "из Безопасной комнаты",
        "isolated": "из Изолированной комнаты",
        "sticky": "из Комнаты, из которой не хочется выходить",
        "inverted": "из Комнаты наоборот",
        "detector": "из Комнаты с детектором",
        "cocoa": "из Комнаты с какавой и плюшками",
        "cameras": "из Комнаты с камерами",
        "pistol": "из Комнаты с пистолетом",
        "megaphone": "из Комнаты с рупором",
        "laughter": "из Комнаты смеха",
        "silence": "из Комнаты тишины",
        "pass_through": "из Проходной комнаты",
    },
    "en": {kind: f"from {name}" for kind, name in ROOMS["en"].items()},
}

FACTIONS: Mapping[str, Mapping[str, str]] = {
    "ru": {"mafia": "мафия", "town": "мирные", "neutral": "нейтрал"},
    "en": {"mafia": "mafia", "town": "town", "neutral": "neutral"},
}

WINNERS: Mapping[str, Mapping[str, str]] = {
    "ru": {
        "mafia": "Победила мафия!",
        "town": "Победили мирные!",
        "neutral": "Победил нейтрал!",
    },
    "en": {"mafia": "The mafia wins!", "town": "The town wins!", "neutral": "The neutral wins!"},
}

STATUSES: Mapping[str, Mapping[str, str]] = {
    "ru": {"positive": "положительный", "negative": "отрицательный"},
    "en": {"positive": "positive", "negative": "negative"},
}

DIRECTIONS: Mapping[str, Mapping[str, str]] = {
    "ru": {"up": "вверх", "down": "вниз", "left": "влево", "right": "вправо", "stay": "остаться"},
    "en": {"up": "up", "down": "down", "left": "left", "right": "right", "stay": "stay"},
}

ACTIONS: Mapping[str, Mapping[str, str]] = {
    "ru": {
        **SKILLS["ru"],
        "vote": "Голос",
        "move": "Направление",
        "mafkill": "Мафкилл",
        "use_vest": "Броник",
        "inherit": "Наследование",
        "guess_room": "Угадывание комнаты",
        "submit_map": "Карта",
        "anon": "Анонимка",
        "start_room": "Стартовая комната",
        "order": "Приказ",
        "cancel": "Отмена",
        "unvote": "Снятие голоса",
    },
    "en": {
        **SKILLS["en"],
        "vote": "Vote",
        "move": "Direction",
        "mafkill": "Mafia kill",
        "use_vest": "Vest",
        "inherit": "Inheritance",
        "guess_room": "Room guess",
        "submit_map": "Map",
        "anon": "Anonymous message",
        "start_room": "Starting room",
        "order": "Order",
        "cancel": "Cancel",
        "unvote": "Unvote",
    },
}

CAUSES: Mapping[str, Mapping[str, str]] = {
    "ru": {
        "lynch": "решение голосования",
        "mafkill": "мафкилл",
        "injection": "смертельная инъекция",
        "pistol": "выстрел",
        "sticky_room": "последний выход",
        "inactivity": "двойной пропуск голосования",
    },
    "en": {
        "lynch": "the vote",
        "mafkill": "the mafia kill",
        "injection": "a lethal injection",
        "pistol": "a shot",
        "sticky_room": "the last exit",
        "inactivity": "two missed votes",
    },
}

REASONS: Mapping[str, Mapping[str, str]] = {
    "ru": {
        "late": "пришло после дедлайна",
        "change_ignored": "эта часть хода уже получена, изменения не принимаются",
        "unknown_command": "команда не распознана",
        "unknown_target": "такого игрока нет",
        "ambiguous_target": "ник подходит нескольким игрокам",
        "target_not_in_play": "цель уже выбыла",
        "target_self": "на себя эту способность применить нельзя",
        "not_same_room": "цель не в вашей комнате",
        "same_target_twice": "ту же цель нельзя выбирать два хода подряд",
        "too_many_skills": "за ход нельзя использовать больше АС, чем позволяет роль",
        "action_not_available": "у вас сейчас нет этой способности",
        "skill_lost": "эта способность утрачена",
        "no_uses_left": "УС уже использована",
        "not_adjacent": "комнаты этой двери не соседние",
        "invalid_room": "нет комнаты с таким номером",
        "swap_limit": "в игре уже две пары подмен",
        "swap_busy": "игрок уже в паре подмен",
        "mafkill_taken": "мафкилл этого хода уже отправлен",
        "teamkill": "мафия не может убить своего",
        "guess_too_early": "угадывать комнату можно со второго хода",
        "guess_limit": "одна догадка за ход",
        "map_limit": "одна карта за ход",
        "no_vest": "броника нет",
        "no_inherit_offer": "от этого игрока нечего наследовать",
        "anon_limit": "одна анонимка за ход",
        "not_allowed": "сейчас это не принимается (в ход 0 — только смена стартовой комнаты мафией)",
        "bad_parameter": "не хватает или не читается параметр",
        "invalid_target": "эту цель правила не позволяют",
        "sender_not_in_play": "вы выбыли из игры",
        "thread_vote_ignored": "голоса принимаются только в ЛС ведущему",
        "thread_order_ignored": "приказы принимаются только в ЛС ведущему",
    },
    "en": {
        "late": "arrived after the deadline",
        "change_ignored": "this part of the turn was already received; changes are not accepted",
        "unknown_command": "command not recognised",
        "unknown_target": "no such player",
        "ambiguous_target": "the name fits several players",
        "target_not_in_play": "the target is out of the game",
        "target_self": "this skill cannot target yourself",
        "not_same_room": "the target is not in your room",
        "same_target_twice": "not the same target two turns in a row",
        "too_many_skills": "more active skills in one turn than your role allows",
        "action_not_available": "you do not hold this skill now",
        "skill_lost": "this skill was lost",
        "no_uses_left": "the once-per-game skill is spent",
        "not_adjacent": "the rooms of that door are not neighbours",
        "invalid_room": "no room with that number",
        "swap_limit": "two swapped pairs are already in play",
        "swap_busy": "that player is already in a swapped pair",
        "mafkill_taken": "this turn's mafia kill was already sent",
        "teamkill": "the mafia cannot kill its own",
        "guess_too_early": "room guesses start from turn 2",
        "guess_limit": "one guess per turn",
        "map_limit": "one map per turn",
        "no_vest": "you have no vest",
        "no_inherit_offer": "nothing to inherit from that player",
        "anon_limit": "one anonymous message per turn",
        "not_allowed": "not accepted now (turn 0 takes only the mafia's new starting rooms)",
        "bad_parameter": "an argument is missing or unreadable",
        "invalid_target": "the rules do not allow that target",
        "sender_not_in_play": "you are out of the game",
        "thread_vote_ignored": "votes count only by PM to the GM",
        "thread_order_ignored": "orders count only by PM to the GM",
    },
}

MISSING: Mapping[str, Mapping[str, str]] = {
    "ru": {"move": "направление", "vote": "голос"},
    "en": {"move": "the direction", "vote": "the vote"},
}

TEXTS: Mapping[str, Mapping[str, Mapping[str, str]]] = {
    lang: {
        "roles": ROLES[lang],
        "skills": SKILLS[lang],
        "hints": HINTS[lang],
        "kinds": KINDS[lang],
        "rooms": ROOMS[lang],
        "rooms_in": ROOMS_IN[lang],
        "rooms_from": ROOMS_FROM[lang],
        "factions": FACTIONS[lang],
        "winners": WINNERS[lang],
        "statuses": STATUSES[lang],
        "directions": DIRECTIONS[lang],
        "actions": ACTIONS[lang],
        "causes": CAUSES[lang],
        "reasons": REASONS[lang],
        "missing": MISSING[lang],
    }
    for lang in LANGS
}

RESULTS_ORDER: tuple[tuple[str, ...], ...] = (
    ("vote_tally",),
    ("death", "lynch_avoided", "no_lynch"),
    ("warning",),
    ("mafia_gathering", "room_converted"),
    ("camera_report", "detector_report", "megaphone_report"),
    ("game_over", "turn_started"),
)
SEATED: Mapping[str, str] = {"warning": "player"}
SEPARATE_POSTS = frozenset({"game_started", "anonymous_message"})

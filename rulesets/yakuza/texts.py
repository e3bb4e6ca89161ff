"""Words of the yakuza ruleset (roles, abilities, statuses, causes) in Russian and English."""

from __future__ import annotations

from collections.abc import Mapping

from rulesets.yakuza.roles import ROLE_ORDER as _ROLE_ORDER

TEMPLATES = "rulesets.yakuza.templates"
LANGS = ("ru", "en")
ROLE_ORDER = _ROLE_ORDER

ROLES: Mapping[str, Mapping[str, str]] = {
    "ru": {
        "sensei": "Сэнсэй",
        "ninja": "Ниндзя",
        "shinobi": "Синоби",
        "boss": "Босс",
        "brute": "Громила",
        "killer": "Киллер",
        "maniac": "Маньяк",
        "psycho": "Псих",
        "spy": "Шпион",
        "commissar": "Комиссар",
        "punisher": "Каратель",
        "citizen": "Мирный житель",
    },
    "en": {
        "sensei": "Sensei",
        "ninja": "Ninja",
        "shinobi": "Shinobi",
        "boss": "Boss",
        "brute": "Brute",
        "killer": "Killer",
        "maniac": "Maniac",
        "psycho": "Psycho",
        "spy": "Spy",
        "commissar": "Commissar",
        "punisher": "Punisher",
        "citizen": "Citizen",
    },
}

VISIBLE: Mapping[str, Mapping[str, str]] = {
    "ru": {
        "monk": "Монах",
        "strongman": "Здоровяк",
        "medic": "Медик",
        "electrician": "Электрик",
        "authority": "Авторитет",
        "paratrooper": "ВДВшник",
        "revolutionary": "Революционер",
        "paranoid": "Параноик",
        "marauder": "Мародёр",
        "lawyer": "Юрист",
        "avenger": "Мститель",
        "chief_doctor": "Главврач",
        "plagiarist": "Плагиатор",
        "gravedigger": "Гробовщик",
        "student": "Студент",
        "gopnik": "Гопник",
        "stuntman": "Каскадёр",
        "cultist": "Культист",
        "hulk": "Амбал",
        "vip": "VIP",
        "none": "без явной роли",
    },
    "en": {
        "monk": "Monk",
        "strongman": "Strongman",
        "medic": "Medic",
        "electrician": "Electrician",
        "authority": "Authority",
        "paratrooper": "Paratrooper",
        "revolutionary": "Revolutionary",
        "paranoid": "Paranoid",
        "marauder": "Marauder",
        "lawyer": "Lawyer",
        "avenger": "Avenger",
        "chief_doctor": "Chief doctor",
        "plagiarist": "Plagiarist",
        "gravedigger": "Gravedigger",
        "student": "Student",
        "gopnik": "Gopnik",
        "stuntman": "Stuntman",
        "cultist": "Cultist",
        "hulk": "Hulk",
        "vip": "VIP",
        "none": "no visible role",
    },
}

FACTIONS: Mapping[str, Mapping[str, str]] = {
    "ru": {
        "law": "Закон",
        "mafia": "мафия",
        "yakuza": "Якудза",
        "neutral": "нейтралы",
        "maniac": "Маньяк",
        "psycho": "Псих",
    },
    "en": {
        "law": "Law",
        "mafia": "mafia",
        "yakuza": "Yakuza",
        "neutral": "neutrals",
        "maniac": "Maniac",
        "psycho": "Psycho",
    },
}

WINNERS: Mapping[str, Mapping[str, str]] = {
    "ru": {
        "law": "Победил Закон!",
        "mafia": "Победила мафия!",
        "yakuza": "Победила Якудза!",
        "neutral": "Победили нейтралы!",
        "maniac": "Победил Маньяк!",
        "psycho": "Победил Псих!",
        "draw": "Ничья: все погибли.",
    },
    "en": {
        "law": "The Law wins!",
        "mafia": "The mafia wins!",
        "yakuza": "The Yakuza wins!",
        "neutral": "The neutrals win!",
        "maniac": "The Maniac wins!",
        "psycho": "The Psycho wins!",
        "draw": "A draw: nobody survived.",
    },
}

ACTIONS: Mapping[str, Mapping[str, str]] = {
    "ru": {
        "guard": "Защита",
        "meditation": "Медитация",
        "heal": "Лечение",
        "revenge": "Месть",
        "katana": "Катана",
        "meditation_off": "Без медитации",
        "trap": "Ловушка",
        "disguise": "Маскировка",
        "disinformation": "Дезинформация",
        "shadow": "Тень",
        "shuriken": "Сюрикены",
        "contract": "Заказ",
        "pistol": "Пистолет",
        "message": "Послание",
        "nagant": "Наган",
        "assault": "Нападение",
        "wiretap": "Прослушка",
        "sniper_rifle": "Снайперская винтовка",
        "dual_pistols": "Парные пистолеты",
        "knife": "Нож",
        "kill": "Убийство",
        "hunt": "Охота",
        "surveillance": "Слежка",
        "dossier": "Досье",
        "revolver": "Револьвер",
        "observation": "Наблюдение",
        "protection": "Защита",
        "rest": "Отдых",
        "medic_heal": "Лечение (медик)",
        "shock": "Удар током",
        "shakedown": "Отжать",
        "curse": "Проклятие",
        "plagiarize": "Копирование",
        "loot": "Мародёрство",
        "extra_votes": "Доп. голоса",
        "vote": "Голос",
        "order": "Приказ",
        "unvote": "Снятие голоса",
        "cancel": "Отмена",
    },
    "en": {
        "guard": "Guard",
        "meditation": "Meditation",
        "heal": "Heal",
        "revenge": "Revenge",
        "katana": "Katana",
        "meditation_off": "No meditation",
        "trap": "Trap",
        "disguise": "Disguise",
        "disinformation": "Disinformation",
        "shadow": "Shadow",
        "shuriken": "Shuriken",
        "contract": "Contract",
        "pistol": "Pistol",
        "message": "Message",
        "nagant": "Nagant",
        "assault": "Assault",
        "wiretap": "Wiretap",
        "sniper_rifle": "Sniper rifle",
        "dual_pistols": "Dual pistols",
        "knife": "Knife",
        "kill": "Kill",
        "hunt": "Hunt",
        "surveillance": "Surveillance",
        "dossier": "Dossier",
        "revolver": "Revolver",
        "observation": "Observation",
        "protection": "Protection",
        "rest": "Rest",
        "medic_heal": "Medic heal",
        "shock": "Shock",
        "shakedown": "Shakedown",
        "curse": "Curse",
        "plagiarize": "Copy",
        "loot": "Loot",
        "extra_votes": "Extra votes",
        "vote": "Vote",
        "order": "Order",
        "unvote": "Unvote",
        "cancel": "Cancel",
    },
}

STATUSES: Mapping[str, Mapping[str, str]] = {
    "ru": {
        "healthy": "выздоровление",
        "lightly_wounded": "лёгкое ранение",
        "hospital": "тяжёлое ранение, в больнице",
        "coma": "кома",
        "dead": "гибель",
    },
    "en": {
        "healthy": "healthy",
        "lightly_wounded": "lightly wounded",
        "hospital": "badly wounded, in hospital",
        "coma": "in a coma",
        "dead": "dead",
    },
}

CAUSES: Mapping[str, Mapping[str, str]] = {
    "ru": {
        "night": "Этой ночью {погиб|погибла}",
        "lynch": "По итогам голосования {казнён|казнена}",
        "day": "Днём {погиб|погибла}",
        "mortal_wound": "От смертельной раны {скончался|скончалась}",
    },
    "en": {
        "night": "Killed tonight:",
        "lynch": "Executed by the vote:",
        "day": "Died during the day:",
        "mortal_wound": "Died of a mortal wound:",
    },
}

REASONS: Mapping[str, Mapping[str, str]] = {
    "ru": {
        "unknown_command": "команда не распознана",
        "unknown_target": "такого игрока нет",
        "ambiguous_target": "ник подходит нескольким игрокам",
        "late": "пришло после дедлайна",
        "action_not_available": "у вас сейчас нет этой способности",
        "sender_not_in_play": "вы выбыли из игры",
        "cannot_act": "в вашем состоянии это невозможно",
        "cannot_vote": "в коме голосовать нельзя",
        "target_not_in_play": "цель не в игре",
        "invalid_target": "эта цель запрещена правилами",
        "no_uses_left": "способность уже использована",
        "not_allowed": "сейчас это не разрешено правилами",
        "bad_parameter": "не указано нужное значение или оно не подходит",
        "too_many_targets": "слишком много целей",
        "thread_order_ignored": "ночные приказы принимаются только в ЛС",
        "pm_vote_ignored": "голоса и дневные способности — только в теме",
        "multiple_actions": "несколько основных действий, учтено последнее",
    },
    "en": {
        "unknown_command": "command not recognised",
        "unknown_target": "no such player",
        "ambiguous_target": "the name fits several players",
        "late": "after the deadline",
        "action_not_available": "you do not have this ability now",
        "sender_not_in_play": "you are out of the game",
        "cannot_act": "your condition does not allow it",
        "cannot_vote": "no voting in a coma",
        "target_not_in_play": "the target is not in the game",
        "invalid_target": "this target is forbidden by the rules",
        "no_uses_left": "the ability is spent",
        "not_allowed": "the rules do not allow it now",
        "bad_parameter": "a value is missing or does not fit",
        "too_many_targets": "too many targets",
        "thread_order_ignored": "night orders count only by PM",
        "pm_vote_ignored": "votes and day abilities count only in the thread",
        "multiple_actions": "several main actions; the last one counts",
    },
}

HOST: Mapping[str, Mapping[str, str]] = {
    "ru": {
        "title": "ХП",
        "player": "игрок",
        "role": "роль",
        "visible role": "явная роль",
        "HP": "ХП",
        "status": "состояние",
        "notes": "заметки",
        "mortally wounded": "смертельная рана (ХП не меняются)",
        "disinformed": "дезинформация: всем видно {hp} ХП",
        "town sees": "город видит: {status}",
    },
    "en": {
        "title": "HP",
        "player": "player",
        "role": "role",
        "visible role": "visible role",
        "HP": "HP",
        "status": "status",
        "notes": "notes",
        "mortally wounded": "mortally wounded (HP frozen)",
        "disinformed": "disinformed: shows {hp} HP",
        "town sees": "the town sees: {status}",
    },
}
"""The host's HP table (hosting.py): its title, columns and notes. Never published."""

HOST_STATUSES: Mapping[str, Mapping[str, str]] = {
    "ru": {
        "healthy": "без ранений",
        "lightly_wounded": "лёгкое ранение",
        "hospital": "тяжёлое ранение, в больнице",
        "coma": "кома",
        "dead": "нет в живых",
        "alive": "в живых",
    },
    "en": {},
}
"""A status in the host's table (a state, not the news STATUSES announce; no word that takes
the player's gender). English shows the state's own word ("lightly_wounded"), as it always has."""

TEXTS: Mapping[str, Mapping[str, Mapping[str, str]]] = {
    lang: {
        "roles": ROLES[lang],
        "visible": VISIBLE[lang],
        "factions": FACTIONS[lang],
        "winners": WINNERS[lang],
        "actions": ACTIONS[lang],
        "statuses": STATUSES[lang],
        "causes": CAUSES[lang],
        "reasons": REASONS[lang],
    }
    for lang in LANGS
}

RESULTS_ORDER: tuple[tuple[str, ...], ...] = (
    ("vote_tally",),
    ("lynch", "tie", "no_lynch"),
    ("day_action",),
    ("death",),
    ("status_change",),
    ("contract_announced", "hunt_announced"),
    ("game_over",),
)
SEATED: Mapping[str, str] = {
    "death": "player",
    "status_change": "player",
    "day_action": "player",
    "contract_announced": "player",
    "hunt_announced": "player",
}
SEPARATE_POSTS = frozenset({"game_started"})

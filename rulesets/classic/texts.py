"""Words of the classic ruleset (role, faction, action names and so on) in Russian and English."""

from __future__ import annotations

from collections.abc import Mapping

TEMPLATES = "rulesets.classic.templates"
"""The package holding this ruleset's Jinja2 templates (``<lang>/<name>.j2``)."""

LANGS = ("ru", "en")

ROLE_ORDER = (
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
)
"""Catalogue order (§6.1): how the opening post lists the roles in play."""

ROLES: Mapping[str, Mapping[str, str]] = {
    "ru": {
        "citizen": "Честный житель",
        "commissar": "Комиссар",
        "doctor": "Доктор",
        "bodyguard": "Телохранитель",
        "sheriff": "Шериф",
        "witness": "Свидетель",
        "mafioso": "Мафиози",
        "lawyer": "Адвокат",
        "killer": "Киллер",
        "thief": "Вор",
        "outcast": "Отщепенец",
        "maniac": "Маньяк",
        "sorcerer": "Колдун",
    },
    "en": {
        "citizen": "Honest Citizen",
        "commissar": "Commissar",
        "doctor": "Doctor",
        "bodyguard": "Bodyguard",
        "sheriff": "Sheriff",
        "witness": "Witness",
        "mafioso": "Mafioso",
        "lawyer": "Lawyer",
        "killer": "Killer",
        "thief": "Thief",
        "outcast": "Outcast",
        "maniac": "Maniac",
        "sorcerer": "Sorcerer",
    },
}

FACTIONS: Mapping[str, Mapping[str, str]] = {
    "ru": {
        "town": "честные жители",
        "mafia": "мафия",
        "mafia_b": "второй клан мафии",
        "loner": "одиночка",
        "draw": "победа залу",
    },
    "en": {
        "town": "the honest citizens",
        "mafia": "the mafia",
        "mafia_b": "the second mafia clan",
        "loner": "a loner",
        "draw": "nobody",
    },
}

SIDES: Mapping[str, Mapping[str, str]] = {
    "ru": {
        "town": "на стороне честных жителей",
        "mafia": "на стороне мафии",
        "mafia_b": "на стороне второго клана мафии",
        "loner": "одиночка",
    },
    "en": {
        "town": "on the honest citizens' side",
        "mafia": "on the mafia's side",
        "mafia_b": "on the second mafia clan's side",
        "loner": "playing alone",
    },
}
"""A faction after a role, as English puts it ("an Honest Citizen, on the honest citizens' side")."""

FACTIONS_DAT: Mapping[str, Mapping[str, str]] = {
    "ru": {"mafia": "к мафии", "mafia_b": "ко второму клану мафии", "town": "к честным жителям"},
    "en": {},
}
"""Russian: the clan one joins, in the dative with its preposition («Вы присоединяетесь к
мафии», «…ко второму клану мафии»)."""

ORDERS: Mapping[str, Mapping[str, str]] = {
    "ru": {},
    "en": {
        "distract": "to distract",
        "protect": "to protect",
        "heal": "to heal",
        "shot": "to shoot",
        "team_shot": "for the team shot at",
        "vigilante": "for vigilante justice on",
        "check": "to check",
        "poison": "to poison",
        "peek": "to watch",
    },
}
"""English: an order as the words before its target ("your order to check Оля")."""

WINNERS: Mapping[str, Mapping[str, str]] = {
    "ru": {
        "town": "Победили честные жители!",
        "mafia": "Победила мафия!",
        "mafia_b": "Победил второй клан мафии!",
        "loner": "Победил одиночка!",
        "draw": "Победа залу: в игре не осталось никого.",
    },
    "en": {
        "town": "The honest citizens win!",
        "mafia": "The mafia wins!",
        "mafia_b": "The second mafia clan wins!",
        "loner": "The loner wins!",
        "draw": "A draw: nobody is left in play.",
    },
}
"""The game-over headline for each `game_over.winner` value."""

ACTIONS: Mapping[str, Mapping[str, str]] = {
    "ru": {
        "distract": "Отвлечение",
        "protect": "Защита",
        "heal": "Лечение",
        "shot": "Выстрел",
        "team_shot": "Командный выстрел",
        "vigilante": "Самосуд",
        "check": "Проверка",
        "poison": "Отравление",
        "peek": "Подсматривание",
    },
    "en": {
        "distract": "Distraction",
        "protect": "Protection",
        "heal": "Healing",
        "shot": "Shot",
        "team_shot": "Team shot",
        "vigilante": "Vigilante",
        "check": "Check",
        "poison": "Poisoning",
        "peek": "Peek",
    },
}

COMMANDS: Mapping[str, Mapping[str, str]] = {
    "ru": {
        "vote": "Голос",
        "unvote": "Снятие голоса",
        "order": "Приказ",
        "cancel": "Отмена",
        "rating_request": "Запрос рейтинга",
        "anon_request": "Анонимка",
        "target_list_request": "Список мишеней",
        "request": "Запрос",
        "no_lynch": "Голос „не судить“",
    },
    "en": {
        "vote": "Vote",
        "unvote": "Unvote",
        "order": "Order",
        "cancel": "Cancel",
        "rating_request": "Rating request",
        "anon_request": "Anonymous message",
        "target_list_request": "Target list",
        "request": "Request",
        "no_lynch": "No-lynch vote",
    },
}
"""Command kinds that `order_rejected.action` may hold besides action ids (§11.6)."""

CAUSES: Mapping[str, Mapping[str, str]] = {
    # Russian puts the verb before the name («Погибает Петя»), English after it.
    "ru": {"killed": "Погибает", "poison": "От яда умирает"},
    "en": {"killed": "has been killed", "poison": "has died of poison"},
}

IMPRISONMENT_REASONS: Mapping[str, Mapping[str, str]] = {
    "ru": {
        "leader": "лидер голосования",
        "tie_break": "жребий среди лидеров",
        "no_votes": "жребий: никто не голосовал",
    },
    "en": {
        "leader": "the vote leader",
        "tie_break": "drawn by lot among the tied leaders",
        "no_votes": "drawn by lot: nobody voted",
    },
}

REJECT_REASONS: Mapping[str, Mapping[str, str]] = {
    "ru": {
        "thread_vote_ignored": "Голоса в теме игры не учитываются. Пришлите голос ведущему в ЛС.",
        "thread_order_ignored": "Приказы в теме игры не учитываются. Пришлите приказ ведущему в ЛС.",
        "nonstandard_vote_form": "Голос принят, но лучше писать «виноват <игрок>» или «голосую за <игрок>».",
        "invalid_vote_form": "В этой игре голос пишется только так: «виноват <игрок>» или «голосую за <игрок>».",
        "invalid_target": "Такой цели для голоса нет: голосовать можно только за игрока.",
        "unknown_target": "Цель не найдена в списке игроков. Проверьте ник.",
        "ambiguous_target": "Под это имя подходят несколько игроков. Напишите ник полностью.",
        "target_not_in_play": "Этот игрок уже выбыл из игры.",
        "target_self": "На себя это действие направить нельзя. Прежний приказ остаётся в силе.",
        "action_not_available": "Вашей роли это действие недоступно.",
        "sender_not_in_play": "Вы выбыли из игры и больше не можете голосовать, отдавать приказы и запрашивать рейтинг или список мишеней.",
        "not_clan_member": "Список мишеней доступен только членам клана.",
        "late": "Дедлайн уже прошёл.",
        "rating_rate_limited": "Вы совсем недавно запрашивали рейтинг. Попробуйте чуть позже.",
        "anon_rate_limited": "Вы совсем недавно отправляли анонимное сообщение. Это сообщение не отправлено: попробуйте чуть позже.",
        "unknown_command": "Команда не распознана.",
        "bad_parameter": "Команду не удалось разобрать: проверьте, как она написана.",
        "not_allowed": "Сейчас эта команда недоступна.",
    },
    "en": {
        "thread_vote_ignored": "Votes posted in the game thread do not count. Send your vote to the GM by PM.",
        "thread_order_ignored": "Orders posted in the game thread do not count. Send your order to the GM by PM.",
        "nonstandard_vote_form": "Vote accepted, but please write it as “guilty <player>” or “vote <player>”.",
        "invalid_vote_form": "In this game a vote must read “guilty <player>” or “vote <player>”.",
        "invalid_target": "That is not a valid vote: you can only vote for a player.",
        "unknown_target": "That name is not on the player list. Please check the spelling.",
        "ambiguous_target": "Several players match that name. Please write the full nickname.",
        "target_not_in_play": "That player is already out of the game.",
        "target_self": "You cannot use this on yourself. Your previous order still stands.",
        "action_not_available": "Your role does not have that action.",
        "sender_not_in_play": "You are out of the game and can no longer vote, give orders or ask for a rating or target list.",
        "not_clan_member": "Only clan members can ask for the target list.",
        "late": "It arrived after the deadline and was not counted.",
        "rating_rate_limited": "You asked for a rating a moment ago. Please try again a little later.",
        "anon_rate_limited": "You sent an anonymous message a moment ago. This one was not sent; please try again a little later.",
        "unknown_command": "The command was not recognised.",
        "bad_parameter": "The command could not be read: please check how it is written.",
        "not_allowed": "This command is not available now.",
    },
}
"""Plain-words explanation of every rejection code of §11.7 (and `invalid_target`, §13)."""

ROLE_HINTS: Mapping[str, Mapping[str, str]] = {
    "ru": {
        "citizen": "Особых полномочий у вас нет, но ваш голос решает, кто сядет.",
        "commissar": "Каждый ход вы можете проверить одного игрока.",
        "doctor": "Каждый ход вы можете лечить одного игрока, в том числе себя.",
        "bodyguard": "Каждый ход вы можете защитить одного игрока.",
        "sheriff": "Каждый ход вы можете устроить самосуд.",
        "witness": "Каждый ход вы можете подсмотреть, кто покушался на игрока.",
        "mafioso": "Каждый ход клан может сделать командный выстрел.",
        "lawyer": "Каждый ход вы можете проверить одного игрока и защитить одного игрока. Проверки видят вас честным жителем.",
        "killer": "Каждый ход вы можете сделать свой выстрел, отдельный от командного.",
        "thief": "Каждый ход вы можете отвлечь одного игрока.",
        "outcast": "Полномочий у вас пока нет, а проверки видят вас честным жителем.",
        "maniac": "Каждый ход вы можете выстрелить в одного игрока.",
        "sorcerer": "Каждый ход вы можете отравить одного игрока.",
    },
    "en": {
        "citizen": "You have no special powers, but your vote decides who goes to jail.",
        "commissar": "Each turn you may check one player.",
        "doctor": "Each turn you may heal one player, yourself included.",
        "bodyguard": "Each turn you may protect one player.",
        "sheriff": "Each turn you may judge one player.",
        "witness": "Each turn you may watch one player and see who made an attempt on them.",
        "mafioso": "Each turn your clan may make a team shot.",
        "lawyer": "Each turn you may check one player and protect one player. Checks see you as an honest citizen.",
        "killer": "Each turn you may fire your own shot, separate from the team shot.",
        "thief": "Each turn you may distract one player.",
        "outcast": "You have no powers yet, and checks see you as an honest citizen.",
        "maniac": "Each turn you may shoot one player.",
        "sorcerer": "Each turn you may poison one player.",
    },
}
"""One line for `role_assigned`: what the role can do (how to write it follows, from the
grammar: `rulesets.classic.help`)."""

TEXTS: Mapping[str, Mapping[str, Mapping[str, str]]] = {
    lang: {
        "roles": ROLES[lang],
        "factions": FACTIONS[lang],
        "winners": WINNERS[lang],
        "actions": {**ACTIONS[lang], **COMMANDS[lang]},
        "causes": CAUSES[lang],
        "imprisonment_reasons": IMPRISONMENT_REASONS[lang],
        "reject_reasons": REJECT_REASONS[lang],
        "role_hints": ROLE_HINTS[lang],
        "sides": SIDES[lang],
        "orders": ORDERS[lang],
        "factions_dat": FACTIONS_DAT[lang],
    }
    for lang in LANGS
}
"""Every table by language; the renderer's `role_name`, `faction_name` and `term` read it."""

# The results post (§9.1): groups in the order the post lists them. Events of one group
# are listed in seating order when their type is in SEATED, else in the order given.
RESULTS_ORDER: tuple[tuple[str, ...], ...] = (
    ("vote_tally",),
    ("imprisonment",),
    ("death",),
    ("attempt_partial", "attempt_failed"),
    ("coughing",),
    ("game_over", "turn_started"),
)
SEATED: Mapping[str, str] = {
    "death": "player",
    "attempt_partial": "target",
    "attempt_failed": "target",
    "coughing": "player",
}
"""Event type → the field naming the player whose seat orders it."""

SEPARATE_POSTS = frozenset({"game_started", "vote_rating", "turn_closed"})
"""Public events that are posts of their own, so a results post leaves them out."""

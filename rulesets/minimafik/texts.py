"""Words of the minimafik ruleset in Russian and English, and the per-game render context.

Card names come from the game's own collection (`render_context`), never from these tables,
so a host's cards print as the host named them; the English name of a card is its first
Latin alias (the sample's «Удар» is "Strike").
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from engine.core.model import GameState
from rulesets.minimafik.roles import ROLE_ORDER as _ROLE_ORDER
from rulesets.minimafik.state import character, collection

TEMPLATES = "rulesets.minimafik.templates"
LANGS = ("ru", "en")
ROLE_ORDER = _ROLE_ORDER

ROLES = {
    "ru": {"boss": "Босс", "killer": "Киллер", "citizen": "Мирный житель"},
    "en": {"boss": "Boss", "killer": "Killer", "citizen": "Citizen"},
}
FACTIONS = {
    "ru": {"mafia": "мафия", "law": "Закон"},
    "en": {"mafia": "the mafia", "law": "the Law"},
}
WINNERS = {
    "ru": {
        "mafia": "Победила мафия!",
        "law": "Победил Закон!",
        "draw": "Ничья: в живых не осталось никого.",
    },
    "en": {
        "mafia": "The mafia wins!",
        "law": "The Law wins!",
        "draw": "A draw: nobody is left alive.",
    },
}
VISIBLE = {
    "ru": {
        "bartender": "Бармен",
        "photographer": "Фотограф",
        "courier": "Курьер",
        "designer": "Дизайнер",
        "stuntman": "Каскадёр",
        "engineer": "Инженер",
        "dancer": "Танцор",
        "scientist": "Учёный",
        "ex_mafioso": "Бывший мафиози",
    },
    "en": {
        "bartender": "Bartender",
        "photographer": "Photographer",
        "courier": "Courier",
        "designer": "Designer",
        "stuntman": "Stuntman",
        "engineer": "Engineer",
        "dancer": "Dancer",
        "scientist": "Scientist",
        "ex_mafioso": "Ex-mafioso",
    },
}
COLOURS = {
    "ru": {
        "attack": "Атака",
        "defence": "Защита",
        "support": "Поддержка",
        "information": "Информация",
        "neutral": "Нейтральная",
        "none": "без цвета",
    },
    "en": {
        "attack": "Attack",
        "defence": "Defence",
        "support": "Support",
        "information": "Information",
        "neutral": "Neutral",
        "none": "no colour",
    },
}
TIMINGS = {
    "ru": {
        "night": "ночная",
        "any": "дневная",
        "day": "только днём",
        "conditional_day": "условно дневная",
    },
    "en": {
        "night": "night",
        "any": "day or night",
        "day": "day only",
        "conditional_day": "night; by day for the Leader",
    },
}
SIDES = {
    "ru": {"light": "◯ светлая", "dark": "⚫ тёмная"},
    "en": {"light": "◯ light", "dark": "⚫ dark"},
}
PUNISHMENTS = {
    "ru": {"beating": "избиение", "execution": "казнь"},
    "en": {"beating": "a beating", "execution": "execution"},
}
ACTIONS = {
    "ru": {
        "play_card": "розыгрыш карты",
        "discard": "сброс на замену",
        "mafia_vote": "голос мафии",
        "armor": "броня",
        "leader_vote": "голос за Лидера",
        "vece_vote": "голос на Вече",
        "vote": "голос",
        "punishment": "вид наказания",
        "order_hand": "порядок руки",
        "draft_pick": "выбор карт",
        "build_deck": "колода",
        "use_ability": "способность",
        "cancel": "отмена",
        "all": "все приказы",
        "order": "приказ",
    },
    "en": {
        "play_card": "card play",
        "discard": "discard",
        "mafia_vote": "mafia vote",
        "armor": "armour",
        "leader_vote": "Leader vote",
        "vece_vote": "Veche vote",
        "vote": "vote",
        "punishment": "punishment",
        "order_hand": "hand order",
        "draft_pick": "draft picks",
        "build_deck": "deck",
        "use_ability": "ability",
        "cancel": "cancel",
        "all": "all orders",
        "order": "order",
    },
}
REASONS = {
    "ru": {
        "late": "пришло после дедлайна",
        "unknown_command": "не понял: такой команды нет",
        "unknown_target": "такого персонажа нет",
        "ambiguous_target": "имя подходит нескольким персонажам",
        "target_not_in_play": "цель мертва",
        "target_self": "на себя этого сделать нельзя",
        "invalid_target": "такая цель запрещена правилами",
        "action_not_available": "у вас нет такого действия",
        "no_uses_left": "способность уже использована",
        "not_allowed": "сейчас это невозможно",
        "bad_parameter": "не хватает части приказа",
        "wrong_phase": "в эту фазу так нельзя",
        "not_in_hand": "такой карты нет в руке",
        "rot_locked": "Гниль нельзя разыграть, сбросить или переместить",
        "card_in_use": "карта уже занята другим вашим приказом",
        "target_required": "нужна цель",
        "leader_not_votable": "за Лидера на Вече голосовать нельзя",
        "current_leader": "действующего Лидера выбрать нельзя",
        "insufficient_payment": "не хватает баллов",
        "bad_payment": "оплата не равна цене",
        "points_only": "броня оплачивается только баллом",
        "not_eligible": "сейчас вы не можете собирать колоду",
        "too_many_copies": "больше двух копий одной карты",
        "bad_composition": "в колоде не те цвета или не то число карт",
        "bad_pick": "такой карты нет в предложенной паре",
        "unknown_card": "такой карты нет в коллекции",
        "ambiguous_card": "название подходит нескольким картам",
        "message_missing": "нет текста сообщения (напишите его в «кавычках»)",
        "message_has_link": "в сообщении не должно быть ссылок",
        "message_too_long": "сообщение слишком длинное",
        "multiple_votes": "несколько голосов, учтён последний",
        "truncated": "сообщение слишком длинное, прочитано не всё",
        "hidden_text": "скрытый текст не считается приказом",
    },
    "en": {
        "late": "it came after the deadline",
        "unknown_command": "not understood: no such command",
        "unknown_target": "no such character",
        "ambiguous_target": "the name fits several characters",
        "target_not_in_play": "the target is dead",
        "target_self": "you cannot target yourself with this",
        "invalid_target": "the rules forbid this target",
        "action_not_available": "you have no such action",
        "no_uses_left": "the ability is spent",
        "not_allowed": "that is not possible now",
        "bad_parameter": "part of the order is missing",
        "wrong_phase": "not possible in this phase",
        "not_in_hand": "no such card in your hand",
        "rot_locked": "Rot cannot be played, discarded or moved",
        "card_in_use": "the card is already used by another of your orders",
        "target_required": "a target is needed",
        "leader_not_votable": "nobody can vote for the Leader at the Veche",
        "current_leader": "the current Leader cannot be elected",
        "insufficient_payment": "not enough points",
        "bad_payment": "the payment does not match the cost",
        "points_only": "armour is paid with a point only",
        "not_eligible": "you cannot build a deck now",
        "too_many_copies": "more than two copies of one card",
        "bad_composition": "the deck has the wrong colours or number of cards",
        "bad_pick": "that card is not in the offered pair",
        "unknown_card": "no such card in the collection",
        "ambiguous_card": "the name fits several cards",
        "message_missing": "no message text (write it in “quotes”)",
        "message_has_link": "messages may not contain links",
        "message_too_long": "the message is too long",
        "multiple_votes": "several votes; the last one counts",
        "truncated": "the message is too long; not all of it was read",
        "hidden_text": "hidden text is not an order",
    },
}
NO_LEADER = {
    "ru": {
        "no_votes": "Никто не голосовал за Лидера: Лидера нет.",
        "tie": "Голоса за Лидера разделились поровну: Лидера нет.",
        "winner_died": "Набравший больше всех голосов не пережил ночь: Лидера нет.",
    },
    "en": {
        "no_votes": "Nobody voted for a Leader: there is no Leader.",
        "tie": "The Leader vote was a tie: there is no Leader.",
        "winner_died": "The one with the most votes did not survive the night: there is no Leader.",
    },
}

HOST: Mapping[str, Mapping[str, str]] = {
    "ru": {
        "title": "Карты на руках",
        "character": "персонаж",
        "role": "роль",
        "hand": "в руке",
        "Rot": "Гниль",
        "Blank": "Пустышки",
        "deck": "в колоде",
        "points": "баллы",
        "notes": "заметки",
        "dead": "нет в живых",
        "Leader": "Лидер",
        "draft": "сбор колоды",
        "rebuild": "пересборка колоды",
        "deck sent": "колода прислана",
        "deck not sent": "колода ещё не прислана",
        "vote": "голос → {target}",
        "no vote": "голоса нет",
        "nothing yet": "пока ничего",
    },
    "en": {
        "title": "Hands",
        "character": "character",
        "role": "role",
        "hand": "hand",
        "Rot": "Rot",
        "Blank": "Blank",
        "deck": "deck",
        "points": "points",
        "notes": "notes",
        "dead": "dead",
        "Leader": "Leader",
        "draft": "draft",
        "rebuild": "rebuild",
        "deck sent": "deck sent",
        "deck not sent": "deck not sent yet",
        "vote": "vote → {target}",
        "no vote": "no vote",
        "nothing yet": "nothing yet",
    },
}
"""The host's words (progress.py): the hands table and the lines of the open phase."""

PICKS: Mapping[str, tuple[str, ...]] = {
    "ru": (
        "выбрана {done} карта из {total}",
        "выбраны {done} карты из {total}",
        "выбрано {done} карт из {total}",
    ),
    "en": ("{done}/{total} picks", "{done}/{total} picks"),
}
"""A Law member's draft picks so far, by the plural form of `done` (plural_ru, plural_en)."""

TEXTS: Mapping[str, Mapping[str, Mapping[str, str]]] = {
    lang: {
        "roles": ROLES[lang],
        "factions": FACTIONS[lang],
        "winners": WINNERS[lang],
        "visible": VISIBLE[lang],
        "colours": COLOURS[lang],
        "timings": TIMINGS[lang],
        "sides": SIDES[lang],
        "punishments": PUNISHMENTS[lang],
        "actions": ACTIONS[lang],
        "reasons": REASONS[lang],
        "no_leader": NO_LEADER[lang],
    }
    for lang in LANGS
}

RESULTS_ORDER: tuple[tuple[str, ...], ...] = (
    ("decks_built",),
    ("vote_tally",),
    ("vece_result",),
    ("death", "role_revealed"),
    ("leader_elected", "leader_none"),
    ("beaten_reveal",),
    ("hand_sizes",),
    ("game_over",),
)
SEATED: Mapping[str, str] = {
    "death": "player",
    "role_revealed": "player",
    "beaten_reveal": "player",
}
SEPARATE_POSTS = frozenset({"game_started"})

_LATIN = re.compile(r"^[A-Za-z][A-Za-z0-9 '\-]*$")


def render_context(state: GameState) -> dict[str, Any]:
    """What the templates need of this game: its cards and its characters' names."""
    coll = collection(state)
    cards: dict[str, dict[str, Any]] = {}
    for card in [*coll.cards.values(), coll.card("rot"), coll.card("blank")]:
        english = next((a for a in card.aliases if _LATIN.match(a)), None)
        doc = card.as_doc()
        doc["en"] = english or {"rot": "Rot", "blank": "Blank"}.get(card.id, card.name)
        cards[card.id] = doc
    abilities = {
        a.id: {"name": a.name, "en": next((x for x in a.aliases if _LATIN.match(x)), a.name)}
        for role in coll.visible_roles.values()
        for a in role.abilities
    }
    visible = {r.id: r.name for r in coll.visible_roles.values()}
    return {
        "cards": cards,
        "abilities": abilities,
        "visible_names": visible,
        "characters": {p.name: character(p) for p in state.players},
    }

"""The twelve-rooms command language (twelve-rooms.md §11), as grammar data.

A whole turn comes by PM, in one message or several, one command per line or several per
line («остаюсь. голосую за Машу. мафкилл Коля»), numbered («1) вниз 2) … 3) Петя»), with
«АС1/АС2/УС» prefixes and arrows. A line that is only a nickname is the vote.
"""

from __future__ import annotations

from engine.core.grammar import ArgKind, CommandForm, Grammar
from engine.core.orders import OrderKind
from rulesets.twelve_rooms.rooms import DOWN, LEFT, RIGHT, STAY, UP

NO_LYNCH_WORDS = ("не судить", "без линча", "no lynch")

_PREFIXES = ("ас", "ас1", "ас2", "ас 1", "ас 2", "ас-1", "ас-2", "ус", "пс", "ac", "ac1", "ac2")
"""«АС1 Личина на Петю», «УС Препарат»: skill-kind labels before a skill's name (Cyrillic and
Latin look-alike spellings)."""


def _prefixed(phrases: tuple[str, ...]) -> tuple[str, ...]:
    return (*phrases, *(f"{p} {ph}" for p in _PREFIXES for ph in phrases))


def _skill(
    action: str, *phrases: str, arg: ArgKind = ArgKind.PLAYER, lang: str = "ru"
) -> CommandForm:
    return CommandForm(OrderKind.ORDER, _prefixed(phrases), arg, (action,), lang=lang)


_DIRECTION_WORDS: dict[str, tuple[str, ...]] = {
    UP: ("вверх", "наверх", "up", "north"),
    DOWN: ("вниз", "down", "south"),
    LEFT: ("влево", "налево", "left", "west"),
    RIGHT: ("вправо", "направо", "right", "east"),
}
_DIRECTION_VERBS: dict[str, tuple[str, ...]] = {
    UP: ("поднимаюсь", "поднимаюсь вверх", "поднимаюсь наверх"),
    DOWN: ("спускаюсь", "спускаюсь вниз"),
}
"""A verb that is a direction by itself (§11.1 «спускаюсь»)."""
_MOVE_LEADS = (
    "",
    "иду",
    "ход",
    "перемещение",
    "перемещаюсь",
    "перехожу",
    "двигаюсь",
    "направление",
    "move",
    "go",
    "i go",
)
_STAY = (
    "остаюсь",
    "остаться",
    "остаюсь на месте",
    "стою",
    "стою на месте",
    "на месте",
    "никуда не иду",
    "не перемещаюсь",
    "stay",
    "stay here",
    "i stay",
    "no move",
    "stand still",
)


def _moves() -> tuple[CommandForm, ...]:
    forms = []
    for direction, words in _DIRECTION_WORDS.items():
        phrases = tuple(f"{lead} {w}".strip() for lead in _MOVE_LEADS for w in words)
        phrases += _DIRECTION_VERBS.get(direction, ())
        forms.append(CommandForm(OrderKind.ORDER, phrases, ArgKind.NONE, ("move",), direction))
    stays = tuple(f"{lead} {w}".strip() for lead in _MOVE_LEADS for w in _STAY)
    forms.append(CommandForm(OrderKind.ORDER, stays, ArgKind.NONE, ("move",), STAY))
    return tuple(forms)


INHERITABLE_WORDS: dict[str, str] = {
    "я сказал": "i_said",
    "молчать": "hush",
    "отдыхай": "rest",
    "останься": "stay_put",
    "обмен": "swap",
    "обман": "deceit",
    "терапию": "therapy",
    "терапия": "therapy",
    "зародить сомнения": "sow_doubt",
    "сомнения": "sow_doubt",
    "путевой лист": "route",
    "устройство": "door_cameras",
    "поддержку": "support",
    "поддержка": "support",
    "личину": "guise",
    "личина": "guise",
    "кто здесь": "who_is_here",
    "по бумагам": "papers",
    "допрос": "interrogation",
    "ас1": "ac1",
    "ас2": "ac2",
    "ас 1": "ac1",
    "ас 2": "ac2",
    "rest": "rest",
    "stay put": "stay_put",
    "swap": "swap",
    "deceit": "deceit",
    "therapy": "therapy",
    "doubt": "sow_doubt",
    "route": "route",
    "cameras": "door_cameras",
    "support": "support",
    "guise": "guise",
    "papers": "papers",
    "interrogation": "interrogation",
    "hush": "hush",
    "i said": "i_said",
}
"""Skill names after «наследую» / "inherit": the form label says which (ac1/ac2 = the dead
role's first or second АС)."""


def _inherit() -> tuple[CommandForm, ...]:
    by_skill: dict[str, list[str]] = {}
    for word, skill in INHERITABLE_WORDS.items():
        for lead in ("наследую", "наследование", "беру", "inherit", "i inherit"):
            by_skill.setdefault(skill, []).append(f"{lead} {word}")
    return tuple(
        CommandForm(OrderKind.ORDER, tuple(phrases), ArgKind.PLAYER, ("inherit",), skill)
        for skill, phrases in by_skill.items()
    )


FORMS: tuple[CommandForm, ...] = (
    # §11.2 vote
    CommandForm(
        OrderKind.VOTE,
        ("голос", "голос за", "голосую за", "голосую", "линч", "сажаю", "в"),
        ArgKind.PLAYER,
    ),
    CommandForm(OrderKind.VOTE, ("vote", "vote for", "lynch"), ArgKind.PLAYER, lang="en"),
    CommandForm(OrderKind.NO_LYNCH, ("не судить", "без линча"), ArgKind.NONE),
    CommandForm(OrderKind.NO_LYNCH, ("no lynch",), ArgKind.NONE, lang="en"),
    CommandForm(
        OrderKind.REQUEST, ("помощь", "команды", "справка"), ArgKind.NONE, ("help_request",)
    ),
    CommandForm(
        OrderKind.REQUEST, ("help", "commands"), ArgKind.NONE, ("help_request",), lang="en"
    ),
    # §11.1 movement
    *_moves(),
    # §11.3 skills
    _skill("i_said", "я сказал", arg=ArgKind.PLAYERS),
    _skill("i_said", "i said", arg=ArgKind.PLAYERS, lang="en"),
    _skill("hush", "молчать", "молчать комната", arg=ArgKind.WORDS),
    _skill("hush", "hush", "hush room", arg=ArgKind.WORDS, lang="en"),
    _skill("rest", "отдыхай", "блок", "блокирую"),
    _skill("rest", "rest", "block", lang="en"),
    _skill("stay_put", "останься", "держу"),
    _skill("stay_put", "stay put", "hold", lang="en"),
    _skill("swap", "обмен", "меняю ролями", "меняю", arg=ArgKind.PLAYERS),
    _skill("swap", "swap", arg=ArgKind.PLAYERS, lang="en"),
    _skill("deceit", "обман"),
    _skill("deceit", "deceit", "deceive", lang="en"),
    _skill("therapy", "терапия"),
    _skill("therapy", "therapy", lang="en"),
    _skill("sow_doubt", "зародить сомнения", "сомнения", "сомнение"),
    _skill("sow_doubt", "doubt", "sow doubt", lang="en"),
    _skill("absolution", "всепрощение", "использую всепрощение", arg=ArgKind.NONE),
    _skill("absolution", "absolution", lang="en", arg=ArgKind.NONE),
    *_inherit(),
    _skill("mafkill", "мафкилл", "мафкил", "мк", "убиваем", "убиваю", "килл", "кил"),
    _skill("mafkill", "mafkill", "kill", lang="en"),
    _skill("route", "путевой лист", "маршрут"),
    _skill("route", "route", lang="en"),
    _skill(
        "door_cameras",
        "устройство",
        "камеры на двери",
        "камеры на дверях",
        "камеры",
        "ставлю камеры на двери",
        "ставлю камеры",
        arg=ArgKind.WORDS,
    ),
    _skill("door_cameras", "cameras", "door cameras", arg=ArgKind.WORDS, lang="en"),
    _skill("support", "поддержка", "лечу", "лечение", "хил", "лечить"),
    _skill("support", "heal", "support", lang="en"),
    _skill("injection", "препарат", "укол", "инъекция"),
    _skill("injection", "injection", "inject", lang="en"),
    _skill("guise", "личина", "чек", "проверка роли", "проверяю роль"),
    _skill("guise", "guise", "check role", lang="en"),
    _skill("who_is_here", "кто здесь", "кто тут", arg=ArgKind.WORDS),
    _skill("who_is_here", "who is here", arg=ArgKind.WORDS, lang="en"),
    _skill("acquaintance", "знакомство", "перенаправляю лечение на себя", arg=ArgKind.NONE),
    _skill("acquaintance", "acquaintance", lang="en", arg=ArgKind.NONE),
    _skill("papers", "по бумагам", "сравниваю", "сравнение", arg=ArgKind.PLAYERS),
    _skill("papers", "compare", "papers", arg=ArgKind.PLAYERS, lang="en"),
    _skill("interrogation", "допрос", "допрашиваю"),
    _skill("interrogation", "interrogate", "interrogation", lang="en"),
    _skill("use_vest", "броник", "использую броник", "бронежилет", "отдаю броник"),
    _skill("use_vest", "vest", "vest on", "use vest", lang="en"),
    # §11.4 outside the turn
    _skill(
        "guess_room",
        "угадываю",
        "угадываю комнату",
        "я в",
        "я в комнате",
        "моя комната",
        "догадка",
        "моя комната это",
        arg=ArgKind.WORDS,
    ),
    _skill("guess_room", "guess", "guess room", "i am in", arg=ArgKind.WORDS, lang="en"),
    _skill("submit_map", "карта", "моя карта", arg=ArgKind.WORDS),
    _skill("submit_map", "map", arg=ArgKind.WORDS, lang="en"),
    _skill("anon", "анонимка", "анон", "анонимное сообщение", arg=ArgKind.TEXT),
    _skill("anon", "anon", "anonymous", lang="en", arg=ArgKind.TEXT),
    _skill(
        "start_room",
        "начинаю в комнате",
        "начинаю в",
        "стартовая комната",
        "переходим",
        "перегруппировка",
        "стартую в",
        arg=ArgKind.WORDS,
    ),
    _skill("start_room", "start in room", "start room", "start in", arg=ArgKind.WORDS, lang="en"),
)

ROOM_WORDS: dict[str, str] = {
    "безопасн": "safe",
    "сейф": "safe",
    "safe": "safe",
    "изолир": "isolated",
    "изолятор": "isolated",
    "isolated": "isolated",
    "не хочется": "sticky",
    "не хочет": "sticky",
    "выходить": "sticky",
    "липк": "sticky",
    "sticky": "sticky",
    "наоборот": "inverted",
    "inverted": "inverted",
    "детектор": "detector",
    "detector": "detector",
    "какав": "cocoa",
    "какао": "cocoa",
    "плюшк": "cocoa",
    "cocoa": "cocoa",
    "камер": "cameras",
    "cameras": "cameras",
    "camera": "cameras",
    "пистолет": "pistol",
    "pistol": "pistol",
    "gun": "pistol",
    "рупор": "megaphone",
    "megaphone": "megaphone",
    "смех": "laughter",
    "смеха": "laughter",
    "laughter": "laughter",
    "тишин": "silence",
    "silence": "silence",
    "проходн": "pass_through",
    "pass": "pass_through",
    "passage": "pass_through",
}
"""Room-name aliases (§11.5), matched as word prefixes: «Комнате с камерами» → cameras."""

GRAMMAR = Grammar(
    forms=FORMS,
    prepositions=frozenset(
        {"в", "во", "на", "за", "по", "у", "к", "для", "от", "on", "to", "for", "at", "from"}
    ),
    self_words=frozenset({"себя", "себе", "собой", "меня", "мне", "self", "me", "myself"}),
    no_lynch_words=NO_LYNCH_WORDS,
    line_start=True,
    count_spoilers=False,
    hedges=("наверное", "наверно", "если", "может", "возможно", "думаю", "кажется", "пожалуй"),
    question_is_hedge=True,
    fillers=frozenset(
        {
            "и",
            "с",
            "со",
            "and",
            "with",
            "за",
            "голосует",
            "голосуют",
            "голосовать",
            "голосуем",
            "votes",
            "vote",
            "for",
            "ролями",
            "на",
            "в",
        }
    ),
    chain=True,
    joiners=frozenset({"и", "and", "затем", "then"}),
    symbols={
        "⬆️": "вверх",
        "⬇️": "вниз",
        "⬅️": "влево",
        "➡️": "вправо",
        "⬆": "вверх",
        "⬇": "вниз",
        "⬅": "влево",
        "➡": "вправо",
        "↑": "вверх",
        "↓": "вниз",
        "←": "влево",
        "→": "вправо",
        "⏺": "остаюсь",
        "⏺️": "остаюсь",
    },
    items=True,
    bare_name=OrderKind.VOTE,
)

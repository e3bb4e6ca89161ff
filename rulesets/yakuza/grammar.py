"""The yakuza command language (yakuza.md §13), as grammar data.

Night orders go by PM, votes and day abilities in the thread; the matcher reads every form
in every channel and the intake decides what a channel may carry. Words shared by several
roles («защита», «лечение», «нож») list every candidate action; the sender's role picks one.
"""

from __future__ import annotations

from engine.core.grammar import ArgKind, CommandForm, Grammar
from engine.core.orders import OrderKind

NO_LYNCH_WORDS = ("за мир", "мир", "no lynch", "peace")


def _order(actions: tuple[str, ...], *phrases: str, lang: str = "ru") -> CommandForm:
    return CommandForm(OrderKind.ORDER, phrases, ArgKind.PLAYERS, actions, lang=lang)


def _bare(actions: tuple[str, ...], *phrases: str, lang: str = "ru") -> CommandForm:
    return CommandForm(OrderKind.ORDER, phrases, ArgKind.NONE, actions, lang=lang)


def _words(actions: tuple[str, ...], *phrases: str, lang: str = "ru") -> CommandForm:
    return CommandForm(OrderKind.ORDER, phrases, ArgKind.WORDS, actions, lang=lang)


FORMS: tuple[CommandForm, ...] = (
    # §13.2 day: votes and day abilities (thread)
    CommandForm(
        OrderKind.VOTE,
        ("голос", "голос за", "голосую за", "голосую", "голосую против", "против"),
        ArgKind.PLAYERS,
    ),
    CommandForm(OrderKind.VOTE, ("vote", "vote for", "lynch"), ArgKind.PLAYERS, lang="en"),
    CommandForm(OrderKind.NO_LYNCH, ("за мир", "мир"), ArgKind.NONE),
    CommandForm(OrderKind.NO_LYNCH, ("no lynch", "peace"), ArgKind.NONE, lang="en"),
    CommandForm(
        OrderKind.UNVOTE,
        ("снимаю голос", "без голоса", "голос снят", "отзываю голос"),
        ArgKind.NONE,
    ),
    CommandForm(OrderKind.UNVOTE, ("unvote", "no vote"), ArgKind.NONE, lang="en"),
    _order(("medic_heal",), "медик"),
    _order(("shock",), "током", "удар током", "бью током", "электрик"),
    _order(("shock",), "shock", lang="en"),
    _order(("shakedown",), "отжать", "отжимаю", "отжимаю у", "гопник"),
    _order(("shakedown",), "shake down", "shakedown", lang="en"),
    _order(("curse",), "культ", "проклятие", "проклинаю", "культист"),
    _order(("curse",), "curse", lang="en"),
    _order(("plagiarize", "loot"), "копирую", "копировать"),
    _order(("plagiarize",), "плагиат", "copy", "plagiarize"),
    _order(("loot",), "мародерство", "мародерка", "обыскиваю труп", "обыскиваю", "loot"),
    # §13.1 night (PM)
    _bare(("guard",), "защищаюсь", "защита себя"),
    _bare(("guard",), "protect myself", lang="en"),
    _order(("guard", "protection"), "защита", "защищаю"),
    _order(("protection",), "protect", lang="en"),
    _order(("guard",), "guard", lang="en"),
    _bare(("meditation",), "медитация", "медитирую"),
    _bare(("meditation",), "meditate", "meditation", lang="en"),
    _bare(("meditation_off",), "без медитации", "медитацию выключаю", "выключаю медитацию"),
    _bare(("meditation_off",), "no meditation", "meditation off", lang="en"),
    _bare(("revenge",), "месть", "активирую месть"),
    _bare(("revenge",), "revenge", "activate revenge", lang="en"),
    _order(("heal", "medic_heal"), "лечение", "лечу", "хил", "лечить"),
    _order(("heal", "medic_heal"), "heal", lang="en"),
    _order(("katana",), "катана", "бью катаной", "катаной"),
    _order(("katana",), "katana", lang="en"),
    _order(("trap",), "ловушка", "ставлю ловушку на", "ставлю ловушку"),
    _order(("trap",), "trap", lang="en"),
    _order(("shadow",), "тень", "тень на"),
    _order(("shadow",), "shadow", lang="en"),
    _order(("disguise",), "маскировка", "маскирую"),
    _order(("disguise",), "disguise", lang="en"),
    _order(("disinformation",), "дезинформация", "дезинфа"),
    _order(("disinformation",), "disinformation", "disinform", lang="en"),
    _order(("shuriken",), "сюрикены", "сюрикен", "сюрикенами"),
    _order(("shuriken",), "shuriken", "shurikens", lang="en"),
    _order(("contract",), "заказ", "заказываю"),
    _order(("contract",), "contract", lang="en"),
    _order(("pistol",), "пистолет", "стреляю из пистолета в", "стреляю из пистолета"),
    _order(("pistol",), "pistol", lang="en"),
    _order(("message",), "послание", "послание наган"),
    _order(("message",), "message", lang="en"),
    _order(("nagant",), "наган", "стреляю из нагана в", "стреляю из нагана"),
    _order(("nagant",), "nagant", lang="en"),
    _order(("assault",), "нападение", "нападаю на", "нападаю"),
    _order(("assault",), "assault", lang="en"),
    _order(("wiretap",), "прослушка", "слушаю"),
    _order(("wiretap",), "wiretap", lang="en"),
    _order(("sniper_rifle",), "снайперка", "снайперская винтовка", "винтовка"),
    _order(("sniper_rifle",), "sniper", "rifle", "sniper rifle", lang="en"),
    _order(("dual_pistols",), "парные пистолеты", "парные", "парники"),
    _order(("dual_pistols",), "dual pistols", "dual", lang="en"),
    _order(("knife",), "нож", "режу"),
    _order(("knife",), "knife", lang="en"),
    _order(("kill",), "убийство"),
    _order(("kill",), "kill", lang="en"),
    _order(("hunt",), "охота", "охота на", "охочусь на"),
    _order(("hunt",), "hunt", lang="en"),
    _order(("surveillance",), "слежка", "слежка за", "слежу за", "слежу"),
    _order(("surveillance",), "watch", "surveil", lang="en"),
    _order(("dossier",), "досье", "проверка", "проверяю"),
    _order(("dossier",), "check", "dossier", lang="en"),
    _order(("revolver",), "револьвер", "стреляю в", "стреляю"),
    _order(("revolver",), "revolver", "shoot", lang="en"),
    _words(("observation",), "наблюдение", "наблюдаю за", "наблюдаю"),
    _words(("observation",), "observe", lang="en"),
    _words(("rest",), "отдых", "отдыхаю"),
    _words(("rest",), "rest", lang="en"),
    CommandForm(
        OrderKind.REQUEST, ("помощь", "команды", "справка"), ArgKind.NONE, ("help_request",)
    ),
    CommandForm(
        OrderKind.REQUEST, ("help", "commands"), ArgKind.NONE, ("help_request",), lang="en"
    ),
    CommandForm(OrderKind.CANCEL, ("отмена", "отменяю"), ArgKind.ACTION),
    CommandForm(OrderKind.CANCEL, ("cancel",), ArgKind.ACTION, lang="en"),
)

ROLE_WORDS: dict[str, str] = {
    **dict.fromkeys(("сэнсэй", "сенсей", "сэнсей", "сенсэй", "sensei"), "sensei"),
    **dict.fromkeys(("ниндзя", "ninja"), "ninja"),
    **dict.fromkeys(("синоби", "шиноби", "shinobi"), "shinobi"),
    **dict.fromkeys(("босс", "boss"), "boss"),
    **dict.fromkeys(("громил", "brute"), "brute"),
    **dict.fromkeys(("киллер", "killer"), "killer"),
    **dict.fromkeys(("маньяк", "maniac"), "maniac"),
    **dict.fromkeys(("псих", "psycho"), "psycho"),
    **dict.fromkeys(("шпион", "spy"), "spy"),
    **dict.fromkeys(("комиссар", "ком", "commissar"), "commissar"),
    **dict.fromkeys(("каратель", "карател", "punisher"), "punisher"),
    **dict.fromkeys(
        ("мирный житель", "мирного жителя", "мирный", "мирн", "мж", "citizen"), "citizen"
    ),
}
"""Secret role names for `disguise` and `kill`, any case form (stems match endings)."""

ABILITY_WORDS: dict[str, str] = {
    **dict.fromkeys(("защита", "защиту", "защиты", "защит", "guard"), "guard"),
    **dict.fromkeys(("медитация", "медитаци", "meditation"), "meditation"),
    **dict.fromkeys(("месть", "мести", "revenge"), "revenge"),
    **dict.fromkeys(("катана", "катан", "katana"), "katana"),
    **dict.fromkeys(("ловушка", "ловушк", "trap"), "trap"),
    **dict.fromkeys(("тень", "тенью", "тени", "shadow"), "shadow"),
    **dict.fromkeys(("маскировка", "маскировк", "disguise"), "disguise"),
    **dict.fromkeys(
        ("дезинформация", "дезинформаци", "дезинфа", "дезинф", "disinformation"), "disinformation"
    ),
    **dict.fromkeys(("сюрикены", "сюрикен", "shuriken"), "shuriken"),
    **dict.fromkeys(("заказ", "contract"), "contract"),
    **dict.fromkeys(("пистолет", "pistol"), "pistol"),
    **dict.fromkeys(("послание", "послани", "message"), "message"),
    **dict.fromkeys(("наган", "nagant"), "nagant"),
    **dict.fromkeys(("нападение", "нападени", "assault"), "assault"),
    **dict.fromkeys(("прослушка", "прослушк", "wiretap"), "wiretap"),
    **dict.fromkeys(
        ("снайперка", "снайперск", "снайперская винтовка", "винтовк", "sniper"), "sniper_rifle"
    ),
    **dict.fromkeys(("парные пистолеты", "парные", "парник", "dual"), "dual_pistols"),
    **dict.fromkeys(("лечение", "лечени", "heal"), "heal"),
    **dict.fromkeys(("наблюдение", "наблюдени", "observation"), "observation"),
    **dict.fromkeys(("protection",), "protection"),
}
"""Ability names for `observation` and `rest`. For `rest`, «защита» means the citizen's
protection; the intake maps it (guard is never a citizen's)."""

ACTION_NOUNS: dict[str, tuple[str, ...]] = {
    word: (action,) for word, action in ABILITY_WORDS.items() if action != "guard"
}

GRAMMAR = Grammar(
    forms=FORMS,
    prepositions=frozenset(
        {"в", "во", "на", "за", "по", "у", "к", "для", "против", "on", "to", "for", "at"}
    ),
    self_words=frozenset({"себя", "себе", "собой", "меня", "мне", "self", "me", "myself"}),
    no_lynch_words=NO_LYNCH_WORDS,
    action_nouns=ACTION_NOUNS,
    line_start=True,
    count_spoilers=False,
    hedges=tuple(
        [
            "наверное",
            "наверно",
            "если",
            "может",
            "можно",
            "возможно",
            "думаю",
            "кажется",
            "пожалуй",
            "хочу",
        ]
    ),
    question_is_hedge=True,
    fillers=frozenset(
        {
            "жертва",
            "жертву",
            "victim",
            "роль",
            "role",
            "урон",
            "хп",
            "hp",
            "под",
            "as",
            "на",
            "в",
            "наган",
            "нагана",
            "и",
            "and",
            "доп",
            "голоса",
            "голосов",
            "голос",
            "amount",
            "damage",
            "за",
        }
    ),
    chain=True,
    joiners=frozenset({"и", "and"}),
    # «ночь 3: …», «N3: …», «на ночь 4 — …» and «за Петю: катана Вася» (§13, D6, D7).
    phase_tags=frozenset({"ночь", "night"}),
    proxies=True,
)

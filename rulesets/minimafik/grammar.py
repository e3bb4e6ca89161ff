"""The minimafik order language (minimafik.md §12), as grammar data built per collection.

Every order goes by PM, one per line. A line may also start with a card's name in any case
form («Засаду ⚫ на Клиффа Бута»), so the grammar of a game depends on its cards: command
words come first and win over a card spelt like one. Orders whose parts come in any order
(play, mafia vote, ability) are CLAUSEs the intake reads with `rulesets.minimafik.reading`.
"""

from __future__ import annotations

import re
from itertools import product

from engine.core.grammar import ArgKind, CommandForm, Grammar
from engine.core.orders import OrderKind
from rulesets.minimafik.cards import Collection

CARD_FORM = "card:"
"""The form label of a line that starts with a card name: ``card:<id>``."""


def _order(
    action: str, arg: ArgKind, *phrases: str, lang: str = "ru", form: str = "canonical"
) -> CommandForm:
    return CommandForm(OrderKind.ORDER, phrases, arg, (action,), form=form, lang=lang)


COMMANDS: tuple[CommandForm, ...] = (
    _order(
        "play_card",
        ArgKind.CLAUSE,
        "играю",
        "играю карту",
        "сыграть",
        "сыграю",
        "разыгрываю",
        "применяю",
        "карта",
    ),
    _order("play_card", ArgKind.CLAUSE, "play", "use", "play card", lang="en"),
    _order("discard", ArgKind.WORDS, "сброс", "сбрасываю", "скидываю", "сброс карт"),
    _order("discard", ArgKind.WORDS, "discard", lang="en"),
    _order(
        "mafia_vote",
        ArgKind.CLAUSE,
        "голос мафии",
        "мафия",
        "убить",
        "убиваем",
        "убиваю",
        "убийство",
    ),
    _order("mafia_vote", ArgKind.CLAUSE, "kill", "mafia", "mafia vote", lang="en"),
    _order("armor", ArgKind.PLAYER, "броня", "бронь", "броню", "даю броню", "дать броню"),
    _order("armor", ArgKind.PLAYER, "armor", "armour", "give armor", "give armour", lang="en"),
    _order(
        "leader_vote",
        ArgKind.PLAYER,
        "лидер",
        "в лидеры",
        "голос за лидера",
        "голосую в лидеры",
        "голосую за лидера",
        "голос в лидеры",
    ),
    _order("leader_vote", ArgKind.PLAYER, "leader", "leader vote", "vote leader", lang="en"),
    CommandForm(
        OrderKind.VOTE, ("вече", "голос на вече", "голосую на вече"), ArgKind.PLAYER, form="vece"
    ),
    CommandForm(OrderKind.VOTE, ("veche", "vece"), ArgKind.PLAYER, form="vece", lang="en"),
    CommandForm(
        OrderKind.VOTE,
        ("голос", "голос за", "голосую за", "голосую", "голосую против", "против"),
        ArgKind.PLAYER,
        form="bare",
    ),
    CommandForm(
        OrderKind.VOTE, ("vote", "vote for", "vote against"), ArgKind.PLAYER, form="bare", lang="en"
    ),
    CommandForm(OrderKind.UNVOTE, ("снимаю голос", "отзываю голос", "голос снят"), ArgKind.NONE),
    CommandForm(OrderKind.UNVOTE, ("unvote",), ArgKind.NONE, lang="en"),
    _order(
        "punishment",
        ArgKind.NONE,
        "казнь",
        "казнить",
        "казним",
        "наказание казнь",
        "наказание казнить",
        form="execution",
    ),
    _order(
        "punishment",
        ArgKind.NONE,
        "execute",
        "execution",
        "punishment execution",
        lang="en",
        form="execution",
    ),
    _order(
        "punishment",
        ArgKind.NONE,
        "избиение",
        "избить",
        "избиваем",
        "наказание избиение",
        "наказание избить",
        form="beating",
    ),
    _order(
        "punishment",
        ArgKind.NONE,
        "beat",
        "beating",
        "punishment beating",
        lang="en",
        form="beating",
    ),
    _order("order_hand", ArgKind.WORDS, "порядок", "порядок руки", "порядок карт"),
    _order("order_hand", ArgKind.WORDS, "order", "hand order", lang="en"),
    _order("draft_pick", ArgKind.WORDS, "выбор", "беру", "выбираю"),
    _order("draft_pick", ArgKind.WORDS, "picks", "pick", lang="en"),
    _order("build_deck", ArgKind.WORDS, "колода", "моя колода"),
    _order("build_deck", ArgKind.WORDS, "deck", lang="en"),
    _order("use_ability", ArgKind.CLAUSE, "способность", "умение", "использую способность"),
    _order("use_ability", ArgKind.CLAUSE, "ability", "use ability", lang="en"),
    CommandForm(
        OrderKind.REQUEST, ("помощь", "команды", "справка"), ArgKind.NONE, ("help_request",)
    ),
    CommandForm(
        OrderKind.REQUEST, ("help", "commands"), ArgKind.NONE, ("help_request",), lang="en"
    ),
    CommandForm(OrderKind.CANCEL, ("не играю", "не играю карту"), ArgKind.NONE, ("play_card",)),
    CommandForm(OrderKind.CANCEL, ("отмена", "отменяю", "отменить"), ArgKind.ACTION),
    CommandForm(OrderKind.CANCEL, ("cancel",), ArgKind.ACTION, lang="en"),
)

ACTION_NOUNS: dict[str, tuple[str, ...]] = {
    **dict.fromkeys(
        ("карты", "карту", "карта", "игры", "розыгрыша", "card", "play"), ("play_card",)
    ),
    **dict.fromkeys(("сброса", "сброс", "discard"), ("discard",)),
    **dict.fromkeys(("брони", "броню", "броня", "armor", "armour"), ("armor",)),
    **dict.fromkeys(("мафии", "убийства", "kill", "mafia"), ("mafia_vote",)),
    **dict.fromkeys(("голоса", "голос", "vote"), ("vote",)),
    **dict.fromkeys(("лидера", "голоса за лидера", "leader"), ("leader_vote",)),
    **dict.fromkeys(("вече", "голоса на вече"), ("vece_vote",)),
    **dict.fromkeys(("наказания", "казни", "избиения", "punishment"), ("punishment",)),
    **dict.fromkeys(("способности", "умения", "ability"), ("use_ability",)),
    **dict.fromkeys(("выбора", "picks"), ("draft_pick",)),
    **dict.fromkeys(("колоды", "deck"), ("build_deck",)),
}

SELF_WORDS = frozenset({"себя", "себе", "собой", "меня", "мне", "self", "me", "myself"})
TEXT_WORDS = frozenset({"текст", "сообщение", "text", "message"})

# Case endings tried on the last letters of a card name's words, so that a line may start
# with the name as a sentence needs it («Засаду…», «Подзорную трубу…»).
_NOUN_ENDINGS = ("", "а", "у", "ом", "е", "ы", "ой", "ою", "ю", "я", "ем", "и", "ей", "ью")
_ADJ_ENDINGS = (
    "ая",
    "ую",
    "ой",
    "ые",
    "ых",
    "ым",
    "ыми",
    "ое",
    "ого",
    "ому",
    "ий",
    "ый",
    "яя",
    "юю",
)
_CYRILLIC = re.compile(r"^[а-я]+$")


def word_forms(word: str) -> set[str]:
    """The case forms a card name's word may take at the start of a line."""
    forms = {word}
    if not _CYRILLIC.match(word) or len(word) < 3:
        return forms
    if word[-2:] in ("ая", "яя", "ый", "ий", "ой", "ое"):
        forms.update(word[:-2] + e for e in _ADJ_ENDINGS)
    stem = word[:-1] if word[-1] in "аяоеиыуюьй" else word
    if len(stem) >= 2:
        forms.update(stem + e for e in _NOUN_ENDINGS)
    return forms


def _name_words(text: str) -> tuple[str, ...]:
    return tuple(re.findall(r"[^\W_]+", text.casefold().replace("ё", "е")))


def card_phrases(name: str) -> list[str]:
    """Every spelling of a card name a line may start with."""
    words = _name_words(name)
    if not words:
        return []
    if len(words) > 2:  # long names: the last word declines, the rest as written
        return [" ".join((*words[:-1], last)) for last in sorted(word_forms(words[-1]))]
    return [" ".join(combo) for combo in product(*(sorted(word_forms(w)) for w in words))]


_GRAMMARS: dict[int, tuple[Collection, Grammar]] = {}


def grammar_for(collection: Collection) -> Grammar:
    """The grammar of a game with this collection (built once per collection)."""
    hit = _GRAMMARS.get(id(collection))
    if hit is not None and hit[0] is collection:
        return hit[1]
    taken = {p.split()[0] for form in COMMANDS for p in form.phrases}
    cards = []
    for card in collection.cards.values():
        phrases: list[str] = []
        for name in (card.name, *card.aliases):
            phrases.extend(
                p for p in card_phrases(name) if p.split()[0] not in taken or p == name.casefold()
            )
        if phrases:
            cards.append(
                CommandForm(
                    OrderKind.ORDER,
                    tuple(dict.fromkeys(phrases)),
                    ArgKind.CLAUSE,
                    ("play_card",),
                    form=CARD_FORM + card.id,
                )
            )
    grammar = Grammar(
        forms=(*COMMANDS, *cards),
        prepositions=frozenset(
            {"в", "во", "на", "за", "для", "против", "on", "to", "for", "against"}
        ),
        self_words=SELF_WORDS,
        action_nouns=ACTION_NOUNS,
        line_start=True,
        hedges=(
            "наверное",
            "наверно",
            "если",
            "может",
            "возможно",
            "думаю",
            "кажется",
            "пожалуй",
            "maybe",
            "perhaps",
        ),
        question_is_hedge=True,
        text_words=TEXT_WORDS,
    )
    if len(_GRAMMARS) > 16:
        _GRAMMARS.clear()
    _GRAMMARS[id(collection)] = (collection, grammar)
    return grammar

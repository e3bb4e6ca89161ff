"""Names in a Russian case and words that agree with a player's gender, for every template.

The renderer gives templates these as filters (see `Renderer`):

    {{ name|nick("acc") }}            bold name in a case: «Голос за [b]Колю[/b] принят»
    {{ name|plain("gen") }}           the same without bold
    {{ name|subject }}                the name a verb agrees with: «[b]Маша[/b]», or
                                      «игрок [b]Nekr0[/b]» when the gender is unknown
                                      (`subject("ins")`, `subject(bold=false)`)
    {{ phase|phase_name("gen") }}     a phase id in words: «до конца ночи 2»
    {{ "{убит|убита}"|agree(name) }}  the form for the player's gender ({m|f} or {m|f|unknown})
    {{ text|capfirst }}               a capital first letter («Игрок [b]Nekr0[/b] …»)
    {{ role|a_an }}                   English: "an Honest Citizen", "a Doctor"

Cases: nom, gen, dat, acc, ins, loc. A name is declined where pymorphy3 knows every word
of it as a Russian noun, adjective or participle in the nominative («Коля» → «Колю», «Серый
Волк» → «Серого Волка», «Выживший» → «Выжившего»), always as a being («Вече приговаривает
Трупа», not «Труп»). A Cyrillic word the dictionary does not know but that ends in a
consonant is declined as a man's name («Клифф Бут» → «Клиффа Бута»), unless the game file
says the player is a woman; anything else («Nekr0», «Бадди», «Вася_123») is kept exactly
as registered. The gender comes from the game file (`[players] gender`) or else from a first
name the dictionary knows («Маша» f, «Коля» m; «Саша» and «Nekr0» stay unknown). With an
unknown gender the masculine form goes with «игрок» («Этой ночью погиб игрок Nekr0»), so
no text ever needs «погиб(ла)». In English, cases change nothing.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from typing import Any, Literal

Gender = Literal["m", "f"]

CASES: Mapping[str, str] = {
    "nom": "nomn",
    "gen": "gent",
    "dat": "datv",
    "acc": "accs",
    "ins": "ablt",
    "loc": "loct",
}
"""Case names the templates use → pymorphy3 grammemes."""

_GENDER_WORDS: Mapping[str, Gender] = {
    "m": "m",
    "male": "m",
    "man": "m",
    "м": "m",
    "муж": "m",
    "мужской": "m",
    "f": "f",
    "female": "f",
    "woman": "f",
    "ж": "f",
    "жен": "f",
    "женский": "f",
}
_PLAYER = {
    "nom": "игрок",
    "gen": "игрока",
    "dat": "игроку",
    "acc": "игрока",
    "ins": "игроком",
    "loc": "игроке",
}
_NAME_TAGS = frozenset({"Name", "Surn", "Patr"})
_WORD = re.compile(r"^[А-Яа-яЁё]+$")
_MANS_NAME = re.compile(r"^[А-ЯЁ]?[а-яё]*[аеёиоуыэюя][а-яё]*[бвгджзклмнпрстфхцчшщ]$")
"""An unknown word declined as a man's name: Cyrillic, not all capitals, a vowel, and a
final hard consonant («Клифф»; not «Бадди», «ДМБ» or «Рэй»)."""
_ADJECTIVES = ("ADJF", "PRTF")
_PARTS = re.compile(r"([ \-])")
_ALTERNATIVES = re.compile(r"\{([^{}|]*)\|([^{}|]*)(?:\|([^{}|]*))?\}")


def parse_gender(text: object) -> Gender:
    """A gender written in a game file: m/f, male/female, м/ж, муж/жен."""
    found = _GENDER_WORDS.get(str(text).strip().casefold())
    if found is None:
        raise ValueError(f"{text!r}: write m or f (м or ж)")
    return found


def _analyzer() -> Any:
    from scraper.wordforms import analyzer  # the one shared dictionary, loaded on first use

    return analyzer()


def _reading(word: str, gender: Gender | None) -> Any | None:
    """The nominative singular reading of a name's word, best first: one pymorphy3 knows,
    or, for an unknown word shaped like a man's name, its guess of a masculine noun."""
    morph = _analyzer()
    if not morph.word_is_known(word.lower()):
        if gender == "f" or not _MANS_NAME.match(word):
            return None
        guesses = [
            p
            for p in morph.parse(word.lower())
            if p.tag.POS == "NOUN" and {"masc", "nomn", "sing"} <= p.tag.grammemes
        ]
        guess = guesses[0] if guesses else None
        return None if guess is None or "Fixd" in guess.tag else guess
    wanted = {"m": "masc", "f": "femn"}.get(gender or "")
    ranked = []
    for parse in morph.parse(word.lower()):
        tag = parse.tag
        if tag.POS not in ("NOUN", *_ADJECTIVES) or "nomn" not in tag or "sing" not in tag:
            continue
        named = bool(_NAME_TAGS & tag.grammemes)
        # A declared gender picks among a surname's readings (a woman's «Бут» is Fixd).
        fits = wanted is None or wanted in tag or "ms-f" in tag or not named
        rank = (not fits, not named, tag.POS != "NOUN", "anim" not in tag, -parse.score)
        ranked.append((rank, parse))
    if not ranked:
        return None
    best = min(ranked, key=lambda item: item[0])[1]
    return None if "Fixd" in best.tag else best


def _like(form: str, original: str) -> str:
    """`form` written with the capitals of `original` (Коля → Колю, КОЛЯ → КОЛЮ)."""
    if len(original) > 1 and original.isupper():
        return form.upper()
    if original[:1].isupper():
        return form[:1].upper() + form[1:]
    return form


def _inflected(parse: Any, case: str) -> str | None:
    """One word of a name in `case`; a name is a being, so a masculine noun's accusative
    is its genitive («Трупа», «Клиффа») and an adjective's is the animate one."""
    grammemes = {CASES[case]}
    if parse.tag.POS in _ADJECTIVES:
        grammemes.add(parse.tag.gender or "masc")
        if case == "acc":
            grammemes.add("anim")
    elif case == "acc" and "inan" in parse.tag and parse.tag.gender == "masc":
        grammemes = {CASES["gen"]}
    form = parse.inflect(frozenset(grammemes))
    return None if form is None else str(form.word)


@functools.lru_cache(maxsize=4096)
def inflect_name(name: str, case: str, gender: Gender | None = None) -> str:
    """`name` in a Russian case, or exactly as given where the dictionary does not know it."""
    if case not in CASES:
        raise ValueError(f"unknown case {case!r} (known: {', '.join(CASES)})")
    if case == "nom" or not name:
        return name
    pieces = _PARTS.split(name)
    words = pieces[::2]
    if not all(_WORD.match(w) for w in words):
        return name
    found = [_reading(w, gender) for w in words]
    readings = [r for r in found if r is not None]
    if len(readings) != len(words):
        return name
    out = list(pieces)
    for index, (word, reading) in enumerate(zip(words, readings, strict=True)):
        form = _inflected(reading, case)
        if form is None:
            return name
        if "ё" in reading.word and "ё" not in word.lower():
            form = form.replace("ё", "е")  # «Серега» stays without ё: «Сереги», not «Серёги»
        out[index * 2] = _like(form, word)
    return "".join(out)


@functools.lru_cache(maxsize=4096)
def name_gender(name: str) -> Gender | None:
    """The gender of a first name the dictionary knows (Маша f, Коля m); else None."""
    for word in _PARTS.split(name)[::2]:
        if not _WORD.match(word):
            continue
        reading = _reading(word, None)
        if reading is not None and "Name" in reading.tag:
            if "masc" in reading.tag:
                return "m"
            return "f" if "femn" in reading.tag else None
    return None


_CASE_AFTER_PREPOSITION: Mapping[str, str] = {
    **dict.fromkeys(("в", "во", "на", "за", "про", "через"), "acc"),
    **dict.fromkeys(("для", "у", "против", "от", "из", "без", "до", "около"), "gen"),
    **dict.fromkeys(("к", "ко", "по"), "dat"),
    **dict.fromkeys(("над", "с", "со", "под", "перед"), "ins"),
}


@functools.lru_cache(maxsize=1024)
def case_after(phrase: str) -> str:
    """The case of a name written right after an order's phrase: what a preposition ending it
    governs («голосую за» → acc, «анонимка для» → gen), a noun's genitive («проверка Коли»),
    the nominative after a short adjective («виноват Коля»), else a verb's accusative
    («лечу Машу»)."""
    words = phrase.lower().split()
    if not words:
        return "nom"
    last = words[-1]
    if last in _CASE_AFTER_PREPOSITION:
        return _CASE_AFTER_PREPOSITION[last]
    parses = _analyzer().parse(last)
    if not parses or not _analyzer().word_is_known(last):
        return "acc"
    best = parses[0].tag
    if best.POS == "NOUN" and "nomn" in best:
        return "gen"
    if best.POS == "ADJS":
        return "nom"
    return "acc"


def a_an(text: object) -> str:
    """English: the text after "a" or "an" as it is said (an Honest Citizen, a Doctor)."""
    words = str(text)
    lower = words.lower()
    vowel = lower[:1] in ("a", "e", "i", "o") or (
        lower[:1] == "u" and not lower.startswith(("uni", "use", "usu"))
    )
    silent_h = lower.startswith(("hon", "hour", "heir"))
    return f"{'an' if vowel or silent_h else 'a'} {words}"


def capfirst(text: object) -> str:
    """A capital first letter, unless the text opens with a tag (a nickname keeps its case)."""
    words = str(text)
    return words if words.startswith("[") else words[:1].upper() + words[1:]


class Wording:
    """Cases and agreement for one game: its language and the genders the host declared."""

    def __init__(self, lang: str, genders: Mapping[str, str] | None = None) -> None:
        self.lang = lang
        self.genders: dict[str, Gender] = {
            str(k).casefold(): parse_gender(v) for k, v in (genders or {}).items()
        }

    def gender(self, name: object) -> Gender | None:
        text = str(name)
        return self.genders.get(text.casefold()) or (
            name_gender(text) if self.lang == "ru" else None
        )

    def case(self, name: object, case: str | None = None) -> str:
        text = str(name)
        if self.lang != "ru" or case in (None, "nom"):
            if case is not None and case not in CASES:
                raise ValueError(f"unknown case {case!r} (known: {', '.join(CASES)})")
            return text
        return inflect_name(text, case, self.genders.get(text.casefold()))

    def agree(self, text: object, name: object) -> str:
        """Each {masculine|feminine} (or {m|f|unknown}) in `text` chosen for `name`."""
        gender = self.gender(name)

        def pick(match: re.Match[str]) -> str:
            masculine, feminine, unknown = match.groups()
            if gender == "f":
                return feminine
            if gender is None and unknown is not None:
                return unknown
            return masculine

        return _ALTERNATIVES.sub(pick, str(text))

    def needs_player_word(self, name: object) -> bool:
        """Russian: whether a verb's subject is written «игрок X» (the gender is unknown)."""
        return self.lang == "ru" and self.gender(name) is None

    def player_word(self, case: str = "nom") -> str:
        """«игрок» in a case, put before a name whose gender is unknown."""
        if case not in CASES:
            raise ValueError(f"unknown case {case!r} (known: {', '.join(CASES)})")
        return _PLAYER[case]


_PHASES_RU = {
    "day": {"nom": "день", "gen": "дня", "dat": "дню", "acc": "день", "ins": "днём", "loc": "дне"},
    "night": {
        "nom": "ночь",
        "gen": "ночи",
        "dat": "ночи",
        "acc": "ночь",
        "ins": "ночью",
        "loc": "ночи",
    },
    "turn": {
        "nom": "ход",
        "gen": "хода",
        "dat": "ходу",
        "acc": "ход",
        "ins": "ходом",
        "loc": "ходе",
    },
    "draft": {  # minimafik's deck building before night 1
        "nom": "сбор колод",
        "gen": "сбора колод",
        "dat": "сбору колод",
        "acc": "сбор колод",
        "ins": "сбором колод",
        "loc": "сборе колод",
    },
}


def phase_words(phase: object, case: str = "nom", lang: str = "ru") -> str:
    """A phase id ("night 2") as words: «ночь 2», «до конца ночи 2»; English "night 2"."""
    kind, _, number = str(phase).partition(" ")
    if case not in CASES:
        raise ValueError(f"unknown case {case!r} (known: {', '.join(CASES)})")
    if lang != "ru" or kind not in _PHASES_RU:
        return str(phase)
    return f"{_PHASES_RU[kind][case]} {number}".strip()

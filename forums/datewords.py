"""Month and weekday names, "today"/"yesterday" and filler words in the languages boards speak.

The words come from `dateparser`'s per-language tables (about 200 languages, the names and
the short forms language packs print: «Août», «gennaio», «Ноя», «Mer», «martedì»). Only the
data is used: `dateparser.parse` costs about 1 ms a call (200 ms for its first) and reads
"Mar 13 Jan 2015" as March, so the board readers keep their own linear reading and ask here
only for a word the built-in Russian and English names do not know.

Each language's table is read from its data file on first use, without importing
`dateparser` itself (its package import pulls in `regex` and the whole parser, 70 ms): the
CLI never pays for it, and a page in a known language costs one small file.
"""

from __future__ import annotations

import ast
import importlib.util
import re
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

__all__ = ["LangWords", "WordMeaning", "language_of", "lookup", "words_for"]

_MONTH_KEYS = (
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
)
_WEEKDAY_KEYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_LANG = re.compile(r"^[a-z]{2,3}")


@dataclass(frozen=True)
class WordMeaning:
    """What one word can mean in the languages looked at: a month number (or several, when
    languages disagree), a weekday, a filler, "today" or "yesterday"."""

    months: frozenset[int] = frozenset()
    weekday: bool = False
    filler: bool = False
    today: bool = False
    yesterday: bool = False

    def __bool__(self) -> bool:
        return bool(self.months) or self.weekday or self.filler or self.today or self.yesterday


@dataclass
class LangWords:
    months: dict[str, set[int]] = field(default_factory=dict)
    weekdays: set[str] = field(default_factory=set)
    fillers: set[str] = field(default_factory=set)
    today: set[str] = field(default_factory=set)
    yesterday: set[str] = field(default_factory=set)

    def meaning(self, word: str) -> WordMeaning:
        return WordMeaning(
            frozenset(self.months.get(word, ())),
            word in self.weekdays,
            word in self.fillers,
            word in self.today,
            word in self.yesterday,
        )


def _norm(word: str) -> str:
    return word.lower().replace("ё", "е").strip(" .")


@cache
def _data_dir() -> Path | None:
    spec = importlib.util.find_spec("dateparser")
    if spec is None or spec.origin is None:
        return None
    folder = Path(spec.origin).parent / "data" / "date_translation_data"
    return folder if folder.is_dir() else None


@cache
def _raw(lang: str) -> dict[str, object] | None:
    folder = _data_dir()
    if folder is None or not lang.replace("_", "").replace("-", "").isalnum():
        return None
    path = folder / f"{lang}.py"
    if not path.is_file():
        return None
    # The file is one dict literal (`info = {...}`): read as data, never run.
    try:
        module = ast.parse(path.read_text(encoding="utf-8"))
        for statement in module.body:
            if isinstance(statement, ast.Assign) and isinstance(statement.value, ast.Dict):
                info = ast.literal_eval(statement.value)
                return info if isinstance(info, dict) else None
    except (OSError, SyntaxError, ValueError):
        return None
    return None


def _strings(value: object) -> list[str]:
    return [v for v in value if isinstance(v, str)] if isinstance(value, list) else []


@cache
def words_for(lang: str) -> LangWords | None:
    """The date words of one language (`fr`, `it`, `pt-BR` → `pt`), None when unknown."""
    code = lang.lower().replace("_", "-")
    info = _raw(code) or _raw(code.split("-")[0])
    if info is None:
        return None
    table = LangWords()
    for number, key in enumerate(_MONTH_KEYS, start=1):
        for word in _strings(info.get(key)):
            table.months.setdefault(_norm(word), set()).add(number)
    for key in _WEEKDAY_KEYS:
        table.weekdays.update(_norm(w) for w in _strings(info.get(key)))
    table.fillers.update(
        _norm(w) for w in _strings(info.get("skip")) if _norm(w) and _norm(w).isalpha()
    )
    relative = info.get("relative-type")
    if isinstance(relative, dict):
        table.today.update(_norm(w) for w in _strings(relative.get("0 day ago")))
        table.yesterday.update(_norm(w) for w in _strings(relative.get("1 day ago")))
    table.months.pop("", None)
    return table


@cache
def _all_languages() -> tuple[str, ...]:
    folder = _data_dir()
    if folder is None:
        return ()
    return tuple(sorted(p.stem for p in folder.glob("*.py") if not p.stem.startswith("_")))


@cache
def _texts() -> tuple[tuple[str, str], ...]:
    folder = _data_dir()
    if folder is None:
        return ()
    return tuple(
        (lang, (folder / f"{lang}.py").read_text(encoding="utf-8").lower())
        for lang in _all_languages()
    )


@cache
def lookup(word: str, lang: str | None = None) -> WordMeaning:
    """What `word` (lower case) means as a date word: in `lang` when the page names its
    language, else in every language whose table holds the word."""
    word = _norm(word)
    if not word:
        return WordMeaning()
    if lang is not None:
        table = words_for(lang)
        if table is not None:
            found = table.meaning(word)
            if found:
                return found
    # A language's data file names the word in quotes: only those files are read.
    needle = f'"{word}"'
    months: set[int] = set()
    weekday = filler = today = yesterday = False
    for code, text in _texts():
        if needle not in text:
            continue
        table = words_for(code)
        if table is None:
            continue
        found = table.meaning(word)
        months |= found.months
        weekday |= found.weekday
        filler |= found.filler
        today |= found.today
        yesterday |= found.yesterday
    return WordMeaning(frozenset(months), weekday, filler, today, yesterday)


def language_of(lang_attribute: str | None) -> str | None:
    """The language code of an `<html lang>` value ("fr", "it-IT" → "it"), None if none."""
    if not lang_attribute:
        return None
    match = _LANG.match(lang_attribute.strip().lower())
    return match.group(0) if match else None

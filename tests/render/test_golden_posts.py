"""Rendered posts and PMs of every template, in Russian and English, as players read them."""

from __future__ import annotations

import importlib
import re
from importlib.resources import files
from pathlib import Path

import pytest

from tests.render import golden_posts as g

CASES = [(name, lang) for name in g.SETS for lang in ("ru", "en")]
_EVENT = re.compile(r'e\.type == "([a-z_]+)"')


@pytest.mark.parametrize(("name", "lang"), CASES)
def test_rendered_texts_match_the_golden_file(name: str, lang: str) -> None:
    expected = g.golden_path(name, lang).read_text(encoding="utf-8")
    assert g.render_set(name, lang) == expected, (
        f"{name}.{lang} changed: read the difference as a player would, then "
        "`.venv/bin/python -m tests.render.golden_posts --update`"
    )


@pytest.mark.parametrize(("name", "lang"), CASES)
def test_every_template_and_event_has_a_sample(name: str, lang: str) -> None:
    package, _, cases = g.SETS[name]
    rendered = {c.template for c in cases}
    events = {e.type for c in cases for e in c.events}
    for template in files(package).joinpath(lang).iterdir():
        if not template.name.endswith(".j2") or template.name.startswith("_"):
            continue
        stem = template.name.removesuffix(".j2")
        assert stem in rendered, f"{package}/{lang}/{template.name} has no sample"
        for kind in _EVENT.findall(template.read_text(encoding="utf-8")):
            assert kind in events, f"{package}/{lang}/{template.name}: no sample of {kind!r}"


@pytest.mark.parametrize(("name", "lang"), CASES)
def test_no_gender_guess_and_no_name_left_in_the_nominative(name: str, lang: str) -> None:
    text = g.render_set(name, lang)
    assert "(а)" not in text and "(ла)" not in text
    for wrong in (
        "за [b]Коля[/b]",
        "за решётку [b]Коля[/b]",
        "на [b]Катя[/b]",
        "[b]Маша[/b] — тяжело ранен,",
        "скончался [b]Nekr0",
        "на никого",
    ):
        assert wrong not in text


GOLDEN_FILES = {
    "classic": "tests/render/golden/classic.{lang}.txt",
    "yakuza": "tests/render/golden/yakuza.{lang}.txt",
    "votecount": "tests/render/golden/votecount.{lang}.txt",
    "twelve_rooms": "tests/rulesets/golden/twelve_rooms/{lang}/*.txt",
    "minimafik": "tests/rulesets/golden/minimafik/{lang}_*.txt",
}
"""Where each ruleset's golden texts are (the last two have their own tests)."""

NEVER_PRINTED: dict[tuple[str, str], str] = {
    ("*", "unknown_command"): "a message without any command has a sentence of its own",
    ("classic", "imprisonment_reasons"): "the wording of a reason with no sentence of its own",
    ("classic", "sides.ru"): "Russian writes the faction in brackets after a role, not a side",
    ("classic", "factions.loner.en"): "English names a loner's faction as his side",
    ("twelve_rooms", "rooms_from"): "only the sticky room's name follows «последний выход из»",
    ("twelve_rooms", "factions.neutral"): "no role of the catalogue plays for a neutral side",
    ("twelve_rooms", "winners.neutral"): "no role of the catalogue plays for a neutral side",
    ("twelve_rooms", "causes.lynch"): "a lynch has a sentence of its own",
}
"""Text-table entries no template prints, and why: a line here is a decision, not a gap."""

_ALTERNATIVES = re.compile(r"\{[^{}]*\}")
_ROOT = Path(__file__).resolve().parents[2]


def _normal(text: str) -> str:
    return re.sub(r"\[/?b\]", "", text).casefold()


def _never_printed(ruleset: str, lang: str, table: str, key: str) -> bool:
    names = (table, f"{table}.{lang}", f"{table}.{key}", f"{table}.{key}.{lang}")
    return ("*", key) in NEVER_PRINTED or any((ruleset, n) in NEVER_PRINTED for n in names)


@pytest.mark.parametrize("lang", ["ru", "en"])
@pytest.mark.parametrize("ruleset", list(GOLDEN_FILES))
def test_every_text_of_every_ruleset_is_in_a_golden_file(ruleset: str, lang: str) -> None:
    """Each entry of the ruleset's word tables (`rulesets.<name>.texts.TEXTS`) is printed
    in one of its golden files, so a change of any text shows in a golden diff. A text with
    {m|f} forms is found by the words around them."""
    tables = importlib.import_module(f"rulesets.{ruleset}.texts").TEXTS[lang]
    pattern = GOLDEN_FILES[ruleset].format(lang=lang)
    golden = _normal("\n".join(p.read_text(encoding="utf-8") for p in _ROOT.glob(pattern)))
    assert golden, pattern
    missing = []
    for table, words in tables.items():
        for key, text in words.items():
            if not isinstance(text, str) or _never_printed(ruleset, lang, table, key):
                continue
            pieces = [p.strip() for p in _ALTERNATIVES.split(text)]
            if not all(_normal(p) in golden for p in pieces if p):
                missing.append(f"{table}.{key}: {text}")
    assert not missing, f"{ruleset}.{lang}: no golden text prints:\n" + "\n".join(missing)


@pytest.mark.parametrize("ruleset", list(GOLDEN_FILES))
def test_what_is_never_printed_exists(ruleset: str) -> None:
    """Every exemption names a table (and key) the ruleset has: none outlives its text."""
    tables = importlib.import_module(f"rulesets.{ruleset}.texts").TEXTS
    for (owner, name), _why in NEVER_PRINTED.items():
        if owner != ruleset:
            continue
        table, _, rest = name.partition(".")
        key = rest.removesuffix(".ru").removesuffix(".en")
        langs = [rest] if rest in ("ru", "en") else ["ru", "en"]
        assert all(table in tables[lang] for lang in langs), name
        if key and key not in ("ru", "en"):
            assert any(key in tables[lang][table] for lang in langs), name

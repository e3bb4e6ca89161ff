"""Rendered posts and PMs of every template, in Russian and English, as players read them."""

from __future__ import annotations

import re
from importlib.resources import files

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

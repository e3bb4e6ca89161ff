"""Names in a case and gender agreement (engine.wording) as the templates get them."""

from __future__ import annotations

import pytest

from engine.render import Renderer
from engine.wording import Wording, a_an, capfirst, inflect_name, name_gender, parse_gender
from rulesets.classic.texts import TEMPLATES


@pytest.mark.parametrize(
    ("name", "case", "expected"),
    [
        ("Коля", "acc", "Колю"),
        ("Катя", "acc", "Катю"),
        ("Маша", "gen", "Маши"),
        ("Оля", "loc", "Оле"),
        ("Игорь", "ins", "Игорем"),
        ("Илья", "ins", "Ильёй"),
        ("Серега", "gen", "Сереги"),  # written without ё, kept without ё
        ("Орёл", "acc", "Орла"),  # a word, not a name: still declined
        ("Серый Волк", "acc", "Серого Волка"),
        ("Красная Шапочка", "dat", "Красной Шапочке"),
        ("КОЛЯ", "dat", "КОЛЕ"),
        ("Nekr0", "acc", "Nekr0"),  # not Russian: as registered
        ("Клифф", "acc", "Клиффа"),  # unknown, shaped like a man's name: declined as one
        ("Клифф Бут", "gen", "Клиффа Бута"),
        ("Бадди", "acc", "Бадди"),  # unknown and not ending in a consonant: as registered
        ("ДМБ", "dat", "ДМБ"),
        ("Выживший", "acc", "Выжившего"),  # a participle
        ("Уставший Скиталец", "ins", "Уставшим Скитальцем"),
        ("Труп", "acc", "Трупа"),  # a name is a being, though the word is not
        ("Серый Камень", "acc", "Серого Камня"),
        ("Вася_123", "gen", "Вася_123"),
        ("Сани", "acc", "Сани"),  # only a plural reading: as registered
        ("Коля", "nom", "Коля"),
    ],
)
def test_names_in_a_case(name: str, case: str, expected: str) -> None:
    assert inflect_name(name, case) == expected


def test_a_declared_gender_picks_the_surname_reading() -> None:
    assert inflect_name("Бут", "acc") == "Бута"
    assert inflect_name("Бут", "acc", "f") == "Бут"  # a woman's surname does not decline
    assert inflect_name("Клифф", "gen", "f") == "Клифф"  # nor a woman's unknown name


def test_gender_from_the_name_or_the_game_file() -> None:
    assert [name_gender(n) for n in ("Маша", "Коля", "Саша", "Nekr0", "Орёл")] == [
        "f",
        "m",
        None,
        None,
        None,
    ]
    words = Wording("ru", {"Nekr0": "ж", "Маша": "m"})
    assert words.gender("Nekr0") == "f" and words.gender("nekr0") == "f"
    assert words.gender("Маша") == "m"  # the host knows better than the dictionary
    assert words.agree("{убит|убита}", "Nekr0") == "убита"
    assert words.agree("{убит|убита}", "Орёл") == "убит"
    assert words.agree("{his|her|their}", "Орёл") == "their"
    with pytest.raises(ValueError, match="write m or f"):
        parse_gender("x")


def test_the_template_filters() -> None:
    r = Renderer(TEMPLATES, "ru", genders={"Nekr0": "f"})
    env = r.env

    def say(source: str, **ctx: object) -> str:
        return env.from_string(source).render(ctx)

    assert say('Голос за {{ n|nick("acc") }} принят.', n="Коля") == "Голос за [b]Колю[/b] принят."
    assert say('Досье на {{ n|nick("acc") }}', n="Катя") == "Досье на [b]Катю[/b]"
    assert say('{{ n|plain("gen") }}', n="Ма[b]ша") == "Ма［b］ша"  # BBCode-safe before all
    line = '{{ n|subject|capfirst }} — {{ "{ранен|ранена}"|agree(n) }}.'
    assert say(line, n="Маша") == "[b]Маша[/b] — ранена."
    assert say(line, n="Nekr0") == "[b]Nekr0[/b] — ранена."
    assert say(line, n="Орёл") == "Игрок [b]Орёл[/b] — ранен."
    assert say('убит {{ n|subject("ins") }}', n="Орёл") == "убит игроком [b]Орёл[/b]"
    en = Renderer(TEMPLATES, "en").env
    assert en.from_string('{{ n|nick("acc") }}').render(n="Коля") == "[b]Коля[/b]"
    assert en.from_string("{{ n|subject }}").render(n="Орёл") == "[b]Орёл[/b]"
    assert a_an("Honest Citizen") == "an Honest Citizen" and a_an("Doctor") == "a Doctor"
    assert capfirst("[b]маша[/b]") == "[b]маша[/b]"


def test_an_unknown_case_is_a_render_error() -> None:
    from engine.render import RenderError

    r = Renderer(TEMPLATES, "ru")
    with pytest.raises(RenderError, match="unknown case"):
        r.nick("Коля", "vocative")

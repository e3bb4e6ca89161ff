"""Nickname resolution: scenario-format.md "Nickname matching" and classic.md §10.4."""

from __future__ import annotations

import pytest

from scraper.nicknames import MatchStatus, NameResolver


@pytest.mark.parametrize(
    ("text", "name"),
    [
        # -а: -ы/-и, -е, -у, -ой/-ою/-ей
        ("Маши", "Маша"),
        ("Маше", "Маша"),
        ("Машу", "Маша"),
        ("Машей", "Маша"),
        ("Машею", "Маша"),
        # -я: -и, -е, -ю, -ей
        ("Пети", "Петя"),
        ("Пете", "Петя"),
        ("Петю", "Петя"),
        ("Петей", "Петя"),
        # a hard consonant: +у, +ом, +е («Кота» is a player of its own here)
        ("Коту", "Кот"),
        ("Котом", "Кот"),
        ("Коте", "Кот"),
        # -й and -ь
        ("Андрея", "Андрей"),
        ("Андрею", "Андрей"),
        ("Андреем", "Андрей"),
        ("Игоря", "Игорь"),
        ("Игорю", "Игорь"),
        ("Игорем", "Игорь"),
        # feminine -ь: -и, -ью
        ("Любови", "Любовь"),
        ("Любовью", "Любовь"),
        # fleeting vowels and multi-word nicks, from pymorphy3
        ("Орла", "Орёл"),
        ("Орлу", "Орёл"),
        ("Уставшего Скитальца", "Уставший Скиталец"),
        ("Уставшему Скитальцу", "Уставший Скиталец"),
        ("Уставшим Скитальцем", "Уставший Скиталец"),
        # Latin nicks with a Cyrillic ending
        ("Law'а", "Law"),
        ("Law’у", "Law"),
        ("Law-у", "Law"),
        ("Lawу", "Law"),
        ("Law'ом", "Law"),
    ],
)
def test_declined_forms_resolve(resolver: NameResolver, text: str, name: str) -> None:
    found = resolver.resolve(text)
    assert found.status is MatchStatus.OK, found
    assert found.name == name
    assert found.candidates == (name,)


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("вася", "Вася"),
        ("ВАСЯ", "Вася"),
        ("«Вася»", "Вася"),
        ('"Вася"', "Вася"),
        ("@Вася", "Вася"),
        ("Ва\u200bся", "Вася"),
        ("[b]Вася[/b]", "Вася"),
        ("Орел", "Орёл"),
        ("ОРЁЛ", "Орёл"),
        ("уставший   скиталец", "Уставший Скиталец"),
        # Latin look-alikes typed in a Cyrillic nick
        ("Mаша", "Маша"),
        ("Kоля", "Коля"),
        ("Пeтю", "Петя"),
    ],
)
def test_normalisation(resolver: NameResolver, text: str, name: str) -> None:
    assert resolver.resolve(text).name == name


def test_a_name_that_is_a_form_of_another_name_is_ambiguous(resolver: NameResolver) -> None:
    # Issue 10.5: a player who signs up as «Кота» must not capture the votes for «Кот».
    found = resolver.match_start("Кота")
    assert found.status is MatchStatus.AMBIGUOUS
    assert found.candidates == ("Кот", "Кота")
    assert resolver.match_start("Кот").name == "Кот"
    assert resolver.match_start("Коту").name == "Кот"


@pytest.mark.parametrize(
    ("roster", "text", "both"),
    [
        (["Вася", "Васю", "Петя"], "Васю", ("Вася", "Васю")),
        (["Коля", "Коли", "Петя"], "Коли", ("Коля", "Коли")),
        (["Маша", "Машу"], "Машу", ("Маша", "Машу")),
    ],
)
def test_declined_twins_offer_both(roster: list[str], text: str, both: tuple[str, ...]) -> None:
    found = NameResolver(roster).match_start(text)
    assert (found.status, found.candidates) == (MatchStatus.AMBIGUOUS, both)
    assert NameResolver(roster).match_start(roster[0]).name == roster[0]


def test_longest_name_wins_and_the_rest_is_returned(resolver: NameResolver) -> None:
    found = resolver.match_start("Уставшего Скитальца, он маф")
    assert found.name == "Уставший Скиталец"
    assert found.matched == "Уставшего Скитальца"
    assert found.rest == ", он маф"
    assert found.consumed == len("Уставшего Скитальца")


def test_multi_word_name_beats_its_first_word() -> None:
    resolver = NameResolver(["Кот", "Кот Учёный"])
    assert resolver.match_start("Кота Учёного").name == "Кот Учёный"
    assert resolver.match_start("Кота и ещё").name == "Кот"


def test_leading_punctuation_is_skipped(resolver: NameResolver) -> None:
    found = resolver.match_start(": «Васю»!")
    assert found.name == "Вася"
    assert found.rest == "»!"


def test_ambiguous_form(resolver: NameResolver) -> None:
    found = resolver.match_start("Нику")  # accusative of Ника, dative of Ник
    assert found.status is MatchStatus.AMBIGUOUS
    assert found.name is None
    assert found.candidates == ("Ника", "Ник")


def test_unknown_name_offers_suggestions_but_never_picks(resolver: NameResolver) -> None:
    found = resolver.match_start("Ваську")
    assert found.status is MatchStatus.UNKNOWN
    assert found.name is None
    assert found.consumed == 0
    assert found.rest == "Ваську"
    assert "Вася" in found.suggestions


def test_unknown_prefix_is_only_a_suggestion(resolver: NameResolver) -> None:
    found = resolver.match_start("Скитальца")
    assert found.status is MatchStatus.UNKNOWN
    assert found.suggestions[0] == "Уставший Скиталец"


def test_whole_string_resolution_rejects_extra_words(resolver: NameResolver) -> None:
    assert resolver.resolve("Вася Пупкин").status is MatchStatus.UNKNOWN
    assert resolver.resolve("Вася!").name == "Вася"
    assert resolver.resolve("").status is MatchStatus.UNKNOWN


def test_look_alike_twins_are_not_folded() -> None:
    resolver = NameResolver(["Сара", "Capa", "Коля"])  # Cyrillic vs Latin letters
    assert resolver.resolve("Сара").name == "Сара"
    assert resolver.resolve("Capa").name == "Capa"
    mixed = resolver.resolve("Cара")
    assert mixed.status is MatchStatus.UNKNOWN
    assert set(mixed.suggestions) >= {"Сара", "Capa"}
    assert resolver.resolve("Kоля").name == "Коля"  # other names still fold


def test_aliases_and_their_forms() -> None:
    resolver = NameResolver(["Vasiliy_88", "Петя"], {"Vasiliy_88": ["Вася", "Васёк"]})
    assert resolver.resolve("Вася").name == "Vasiliy_88"
    assert resolver.resolve("Васю").name == "Vasiliy_88"
    assert resolver.resolve("Vasiliy 88").name == "Vasiliy_88"
    alias = resolver.resolve("Вася")
    assert not alias.exact


def test_roster_name_beats_an_alias() -> None:
    resolver = NameResolver(["Кот", "Мурзик"], {"Мурзик": ["Кот"]})
    assert resolver.resolve("Кот").name == "Кот"


def test_alias_for_a_stranger_is_an_error() -> None:
    with pytest.raises(ValueError, match="not on the roster"):
        NameResolver(["Вася"], {"Петя": ["Петруха"]})


def test_hyphenated_word_falls_back_to_its_head(resolver: NameResolver) -> None:
    assert resolver.match_start("Васю-мафа").name == "Вася"


def test_unknown_cyrillic_nick_uses_the_minimal_endings() -> None:
    resolver = NameResolver(["Жмыхарь", "Брумба", "Крякс"])
    assert resolver.resolve("Жмыхаря").name == "Жмыхарь"
    assert resolver.resolve("Брумбу").name == "Брумба"
    assert resolver.resolve("Кряксом").name == "Крякс"


LENIENT_ROSTER = ["Nobody Special", "Красная Шапочка", "Коля", "Кот", "Petya"]


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("NS", "Nobody Special"),
        ("nob", "Nobody Special"),
        ("Nobody Spe", "Nobody Special"),
        ("Шапоч", "Красная Шапочка"),
        ("КШ", "Красная Шапочка"),
        ("Кол", "Коля"),
        ("pet", "Petya"),
    ],
)
def test_lenient_prefixes_and_acronyms(text: str, name: str) -> None:
    assert NameResolver(LENIENT_ROSTER, lenient=True).resolve(text).name == name
    strict = NameResolver(LENIENT_ROSTER).resolve(text)
    assert strict.status is MatchStatus.UNKNOWN
    assert name in strict.suggestions


def test_lenient_prefix_must_be_unique() -> None:
    found = NameResolver(LENIENT_ROSTER, lenient=True).resolve("Ко")
    assert found.status is MatchStatus.AMBIGUOUS
    assert found.candidates == ("Коля", "Кот")


def test_lenient_still_prefers_exact_and_declined_names() -> None:
    resolver = NameResolver(["Кот", "Котофей"], lenient=True)
    assert resolver.resolve("Кот").name == "Кот"
    assert resolver.resolve("Коту").name == "Кот"
    assert resolver.resolve("Котоф").name == "Котофей"

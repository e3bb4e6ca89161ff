"""The failure classes of issue 4 that vote counters get wrong, one test each."""

from __future__ import annotations

import pytest

from engine.core.orders import Channel, OrderKind
from forums.bbcode import parse_bbcode
from forums.records import PostBody, TextRun
from rulesets.classic.grammar import GRAMMAR as CLASSIC
from rulesets.votecount.grammar import GRAMMAR as VOTECOUNT
from rulesets.votecount.ruleset import Votecount
from scraper.matcher import drop_literal_quotes, parse_post
from scraper.nicknames import NameResolver
from scraper.translit import sound_key, to_cyrillic

ROSTER = (
    "Вася",
    "вася2",
    "Mr. Fiks",
    "Клифф Бут",
    "Nekr0",
    "Уставший Скиталец",
    "Alu",
    "Мaрина",
    "Лёха",
    "Doc_Holiday",
    "Петя",
    "???",
)
LENIENT = NameResolver(ROSTER, lenient=True)
STRICT = NameResolver(ROSTER)


def votes(text: str | PostBody, *, classic: bool = False) -> list[tuple[str, tuple[str, ...]]]:
    body = text if isinstance(text, PostBody) else parse_bbcode(text)
    grammar, resolver = (CLASSIC, STRICT) if classic else (VOTECOUNT, LENIENT)
    channel = Channel.PM if classic else Channel.THREAD
    result = parse_post(body, grammar, resolver, sender="Вася", channel=channel)
    return [(o.kind.value, o.targets) for o in result.orders]


def codes(text: str, *, classic: bool = False) -> list[str]:
    grammar, resolver = (CLASSIC, STRICT) if classic else (VOTECOUNT, LENIENT)
    channel = Channel.PM if classic else Channel.THREAD
    result = parse_post(parse_bbcode(text), grammar, resolver, sender="Вася", channel=channel)
    return [w.code for w in result.warnings]


@pytest.mark.parametrize(
    ("latin", "cyrillic"),
    [("petya", "петя"), ("petja", "петя"), ("petia", "петя"), ("andrey", "андрей"),
     ("alexei", "алексей"), ("cliff", "клифф"), ("nekr0", "некро"), ("maria", "мария")],
)  # fmt: skip
def test_sound_keys_agree_across_alphabets(latin: str, cyrillic: str) -> None:
    assert sound_key(latin) == sound_key(cyrillic)


def test_latin_nicks_get_a_cyrillic_spelling() -> None:
    assert to_cyrillic("alu") == "алу"
    assert to_cyrillic("andrey") == "андрей"


@pytest.mark.parametrize("classic", [False, True])
@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("vote Petya", "Петя"),
        ("vote Petyu", "Петя"),
        ("голосую за Алу", "Alu"),
        ("голосую за Некро", "Nekr0"),
        ("vote Klif But", "Клифф Бут"),
        ("vote Lyokha", "Лёха"),
    ],
)
def test_transliterated_nicks(text: str, name: str, classic: bool) -> None:
    assert votes(text, classic=classic) == [("vote", (name,))]


def test_transliteration_only_across_alphabets() -> None:
    # «Вас» is not «Vas»-anything and «вася2» is not «Вася»: within one alphabet the
    # spelling rules decide.
    assert STRICT.resolve("Vasya").name == "Вася"
    assert STRICT.resolve("Vasya2").name == "вася2"
    assert not STRICT.resolve("Вас").ok


def test_punctuation_only_nick() -> None:
    assert votes("голосую за ???") == [("vote", ("???",))]
    assert votes("голосую за Васю???") == []  # a question, and the marks belong to it
    assert votes("Кто это??? vote Лёха") == [("vote", ("Лёха",))]


def test_acronyms_and_short_forms_resolve_only_where_the_game_is_lenient() -> None:
    assert votes("голосую за УС") == [("vote", ("Уставший Скиталец",))]
    assert votes("vote Mr F") == [("vote", ("Mr. Fiks",))]
    assert votes("виноват УС", classic=True) == []
    assert codes("виноват УС", classic=True) == ["unknown_target"]


@pytest.mark.parametrize(
    "text",
    [
        "если что, голос за Васю",
        "Мёртвые не голосуют, но если бы могли — голосую за Nekr0.",
        "vote Лёха if he does not claim",
        "I'd vote Alu",
        "голос за Лёху?",
    ],
)
def test_conditional_votes_and_questions_are_not_votes(text: str) -> None:
    assert votes(text) == []
    assert codes(text) == []


def test_a_condition_in_another_sentence_does_not_matter() -> None:
    assert votes("Ладно, голосую за Лёху. Если что, перезайду.") == [("vote", ("Лёха",))]
    assert votes("Голос за Alu — вдруг Nekr0 прав?") == [("vote", ("Alu",))]
    assert votes("Голосую за Mr. Fiks. Он молчит.") == [("vote", ("Mr. Fiks",))]


def test_classic_order_with_a_condition_after_it() -> None:
    assert votes("выстрел в Васю, если он жив", classic=True) == []
    assert votes("выстрел в Лёху\nесли что, проверка Васи", classic=True) == [("order", ("Лёха",))]


@pytest.mark.parametrize(
    "text",
    [
        "Голос остаётся на Лёхе.",
        "Марина, твой голос — эмоции.",
        "Подтверждаю, мой голос на Nekr0 в силе.",
        "Пока без голоса, почитаю.",
        "Это мой голос",
    ],
)
def test_vote_words_in_talk_raise_nothing_in_the_thread(text: str) -> None:
    assert votes(text) == []
    assert codes(text) == []


@pytest.mark.parametrize(
    "text",
    [
        "I will vote someone else tomorrow.",
        "That was a weird vote switch.",
        "Don't vote him yet.",
        "We should vote elsewhere.",
        "I think we should vote them all out.",
        "I will vote when I have read it all.",
    ],
)  # talk as in mafiascum 17378 (#21, #153, #43, #49, #209, #168)
def test_english_talk_around_vote_raises_nothing(text: str) -> None:
    assert votes(text) == []
    assert codes(text) == []


def test_a_player_named_like_a_function_word_is_still_voted() -> None:
    resolver = NameResolver((*ROSTER, "Someone"), lenient=True)
    result = parse_post(
        parse_bbcode("vote someone"), VOTECOUNT, resolver, sender="Вася", channel=Channel.THREAD
    )
    assert [o.targets for o in result.orders] == [("Someone",)]


def test_explicit_vote_for_a_non_player_still_warns() -> None:
    assert codes("голос за Зюзю") == ["unknown_target"]
    assert codes("vote for peace") == ["unknown_target"]


def test_ordinary_words_do_not_become_players() -> None:
    # «мир» is the no-lynch word in votecount, never a prefix of a nick.
    resolver = NameResolver((*ROSTER, "Мирон"), lenient=True)
    body = parse_bbcode("голосую за мир во всём мире")
    result = parse_post(body, VOTECOUNT, resolver, sender="Вася", channel=Channel.THREAD)
    assert [o.kind for o in result.orders] == [OrderKind.NO_LYNCH]
    classic = NameResolver((*ROSTER, "Мирон"))
    result = parse_post(body, CLASSIC, classic, sender="Вася", channel=Channel.PM)
    assert result.orders == []
    assert [(w.code, w.choices) for w in result.warnings] == [("unknown_target", ("Мирон",))]


def test_vote_split_over_two_lines() -> None:
    assert votes("голосую за\nЛёху") == [("vote", ("Лёха",))]
    assert votes("[b]vote:[/b]\n\nNekr0") == [("vote", ("Nekr0",))]
    assert votes("виноват\nЛёха", classic=True) == [("vote", ("Лёха",))]


def test_vote_in_a_signature_does_not_count() -> None:
    body = PostBody((TextRun("Всем привет.\n"), TextRun("vote Лёха", signature=True)))
    assert votes(body) == []
    assert votes("Всем привет.\n-- \nvote Лёха навсегда") == []


def test_broken_quote_tags() -> None:
    assert votes("[quote=Лёха]vote Nekr0\nЯ думаю иначе") == []
    assert votes("Лёха писал: vote Nekr0[/quote]\nvote Alu") == [("vote", ("Alu",))]
    assert drop_literal_quotes("a\n[quote]vote X\n[/quote]b") == "a\n\nb"
    assert drop_literal_quotes("vote X [/quote] vote Y") == " vote Y"
    assert drop_literal_quotes("vote Y [quote=Z]vote X") == "vote Y "


def test_vote_line_start_reads_one_vote_per_line() -> None:
    grammar = Votecount().grammar_for({"vote_line_start": True})
    assert grammar is Votecount().grammar_for({"vote_line_start": True})
    body = parse_bbcode("голос: Лёха голос: Alu\nпо-моему, vote Nekr0")
    result = parse_post(body, grammar, LENIENT, sender="Вася", channel=Channel.THREAD)
    assert [o.targets for o in result.orders] == [("Лёха",)]

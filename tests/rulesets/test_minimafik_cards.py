"""The minimafik card collection: the shipped sample, and clear errors for broken files.

Every error must name the file (with the line where the file is YAML), the card, and the
field, so a host fixes a collection without reading code.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import rulesets
from engine.core.ruleset import RulesError, Seat
from rulesets.minimafik.cards import PRIMITIVES, SPECIAL_CARDS
from rulesets.minimafik.collection_file import (
    CollectionError,
    collection_of,
    load_collection,
    parse_collection_text,
    sample_collection,
)

RULESET = rulesets.find("minimafik")

GOOD_CARD = """\
cards:
  - id: strike
    name: Удар
    colour: attack
    light: {target: other, effects: [{do: deal_damage, n: 2}]}
    dark: {target: other, effects: [{do: deal_damage, n: 3}]}
  - id: shield
    name: Щит
    colour: defence
    light: {target: any, effects: [{do: give_armor, n: 2}]}
    dark: {target: any, effects: [{do: give_armor, n: 4}]}
"""


def _error(text: str, name: str = "cards.yaml") -> str:
    with pytest.raises(CollectionError) as caught:
        parse_collection_text(text, name)
    return str(caught.value)


def test_the_sample_is_the_spec_appendix() -> None:
    sample = sample_collection()
    assert len(sample.cards) == 18
    assert sample.visible_roles == {}  # no visible-role abilities by default (D-32)
    ambush = sample.card("ambush")
    assert (ambush.name, ambush.colour, ambush.cost, ambush.timing) == (
        "Засада",
        "attack",
        1,
        "night",
    )
    assert [e.n for e in ambush.dark.effects] == [5]
    brawl = sample.card("brawl").dark.effects
    assert [(e.do, e.to, e.n) for e in brawl] == [
        ("deal_damage", "target", 2),
        ("deal_damage", "self", 1),
    ]
    assert sample.card("bandage").timing == "conditional_day"
    assert sample.card("rot").colour == "none" and sample.card("blank").colour == "neutral"


def test_the_sample_is_package_data() -> None:
    # pyproject's package-data globs ship *.yaml; the file sits beside the module.
    import rulesets.minimafik.cards as cards

    assert (Path(cards.__file__).parent / "sample_collection.yaml").is_file()


def test_a_stored_document_loads_back_the_same() -> None:
    sample = sample_collection()
    again = collection_of(sample.as_doc())
    assert again.cards == sample.cards
    assert collection_of(sample.as_doc()) is again  # cached by content


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            GOOD_CARD.replace("colour: attack", "colour: red"),
            ["cards.yaml:2", "card 'strike'", "field colour", "'red'"],
        ),
        (
            GOOD_CARD.replace(
                "    dark: {target: other, effects: [{do: deal_damage, n: 3}]}\n", "", 1
            ),
            ["card 'strike'", "field dark", "both sides"],
        ),
        (
            GOOD_CARD.replace("do: deal_damage, n: 2", "do: smash, n: 2"),
            ["card 'strike'", "light.effects[0].do", "'smash'"],
        ),
        (
            GOOD_CARD.replace("do: deal_damage, n: 2", "do: deal_damage, n: -1"),
            ["card 'strike'", "light.effects[0].n", "≥ 1"],
        ),
        (
            GOOD_CARD.replace("do: deal_damage, n: 2", "do: deal_damage"),
            ["light.effects[0].n", "needs `n`"],
        ),
        (
            GOOD_CARD.replace(
                "{target: other, effects: [{do: deal_damage, n: 2}]}",
                "{target: none, effects: [{do: deal_damage, n: 2, to: target}]}",
            ),
            ["card 'strike'", "light.effects[0].to", "target: none"],
        ),
        (
            GOOD_CARD.replace("id: shield", "id: strike"),
            ["cards.yaml:7", "card 'strike'", "used twice"],
        ),
        (GOOD_CARD.replace("name: Щит", "name: Удар"), ["card 'shield'", "'Удар'", "strike"]),
        (GOOD_CARD.replace("id: strike", "id: rot"), ["field id", "reserved"]),
        (
            GOOD_CARD.replace("id: strike", "id: Strike Card"),
            ["cards.yaml:2", "card 'Strike Card'", "field id", "snake_case"],
        ),
        (
            GOOD_CARD.replace("    name: Удар\n", "    name: Удар\n    price: 2\n"),
            ["card 'strike'", "field price", "unknown field"],
        ),
        (
            GOOD_CARD.replace("    name: Удар\n", "    name: Удар\n    cost: two\n"),
            ["card 'strike'", "field cost", "'two'"],
        ),
        (
            GOOD_CARD.replace("    name: Удар\n", "    name: Удар\n    timing: evening\n"),
            ["field timing", "'evening'"],
        ),
        (
            GOOD_CARD.replace("do: deal_damage, n: 2", "do: transform, n: 1, into: dragon"),
            ["light.effects[0].into", "'dragon'"],
        ),
        (
            GOOD_CARD.replace("do: deal_damage, n: 2", "do: extra_vote, n: 1"),
            ["card 'strike'", "field light", "by day"],
        ),
        ("cards: []\n", ["cards.yaml", "non-empty list"]),
        ("cards:\n  - {id: a, name: A, colour: [\n", ["cards.yaml:", "not valid YAML"]),
        ("- just a list\n", ["cards.yaml", "mapping with `cards:`"]),
    ],
    ids=[
        "colour",
        "missing-side",
        "primitive",
        "negative-n",
        "missing-n",
        "to-target-without-target",
        "duplicate-id",
        "duplicate-name",
        "reserved-id",
        "bad-id",
        "unknown-field",
        "cost-type",
        "timing",
        "transform-into",
        "day-effect-on-night-card",
        "empty",
        "yaml-syntax",
        "not-a-mapping",
    ],
)
def test_broken_collections_name_file_card_and_field(text: str, expected: list[str]) -> None:
    message = _error(text)
    for part in expected:
        assert part in message, (part, message)


def test_a_toml_collection_with_the_same_keys(tmp_path: Path) -> None:
    path = tmp_path / "cards.toml"
    path.write_text(
        """
[[cards]]
id = "strike"
name = "Удар"
colour = "attack"
light = {target = "other", effects = [{do = "deal_damage", n = 2}]}
dark = {target = "other", effects = [{do = "deal_damage", n = 3}]}

[[cards]]
id = "shield"
name = "Щит"
colour = "defence"
light = {target = "any", effects = [{do = "give_armor", n = 2}]}
dark = {target = "any", effects = [{do = "give_armor", n = 4}]}
""",
        encoding="utf-8",
    )
    coll = load_collection(path)
    assert list(coll.cards) == ["strike", "shield"]
    path.write_text(path.read_text(encoding="utf-8").replace('"attack"', '"red"'), encoding="utf-8")
    with pytest.raises(CollectionError, match=r"cards\.toml: card 'strike', field colour"):
        load_collection(path)


def test_visible_role_abilities_are_data() -> None:
    text = (
        GOOD_CARD
        + """\
visible_roles:
  bartender:
    name: Бармен
    abilities:
      - id: free_drink
        name: Угостить
        timing: night
        uses: {per_game: 1}
        target: other
        effects: [{do: give_armor, n: 1}]
"""
    )
    coll = parse_collection_text(text, "cards.yaml")
    (ability,) = coll.abilities_of("bartender")
    assert (ability.id, ability.per_game, ability.side.target) == ("free_drink", 1, "other")
    broken = text.replace("timing: night", "timing: noon")
    message = _error(broken)
    assert "visible role 'bartender'" in message and "ability 'free_drink'" in message
    assert "field timing" in message


def test_a_missing_file_is_one_clear_line(tmp_path: Path) -> None:
    with pytest.raises(CollectionError, match="cannot read"):
        load_collection(tmp_path / "nope.yaml")


def test_the_collection_option_is_checked_with_its_name(tmp_path: Path) -> None:
    path = tmp_path / "mine.yaml"
    path.write_text(GOOD_CARD.replace("colour: attack", "colour: red"), encoding="utf-8")
    with pytest.raises(RulesError) as caught:
        RULESET.options({"collection": str(path)})
    assert str(caught.value).startswith("option collection: ")
    assert "mine.yaml:2: card 'strike', field colour" in str(caught.value)


def test_a_collection_too_small_for_a_mafia_deck_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "small.yaml"
    path.write_text(GOOD_CARD, encoding="utf-8")
    with pytest.raises(RulesError, match="deck needs"):
        RULESET.setup([Seat(f"P{i}") for i in range(4)], {"collection": str(path)}, 1)


def test_the_game_keeps_its_cards_in_the_state(tmp_path: Path) -> None:
    seats = [Seat(f"P{i}") for i in range(8)]
    state, _ = RULESET.setup(seats, None, 1)
    assert list(state.options["collection"]) == ["json"]  # one string: cheap to copy
    assert len(collection_of(state.options["collection"]).cards) == 18


def test_every_primitive_is_documented() -> None:
    docs = Path(__file__).resolve().parents[2] / "docs" / "rulesets" / "minimafik.md"
    text = docs.read_text(encoding="utf-8")
    for name in PRIMITIVES:
        assert f"`{name}`" in text, name
    for special in SPECIAL_CARDS:
        assert f"`{special}`" in text

"""The minimafik texts: every template in Russian and English against golden files.

Each template is rendered with events that take every branch it has; the output must equal
`tests/rulesets/golden/minimafik/<lang>_<case>.txt`. After an intended change of wording,
`FORUMGM_UPDATE_GOLDEN=1 pytest tests/rulesets/test_minimafik_texts.py` rewrites them (look
at the diff). Russian must need no «(а)»: names are declined, verbs agree or avoid gender.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

import rulesets
from engine.core.events import Event
from engine.core.ruleset import Seat
from engine.render import Renderer
from rulesets.minimafik.cards import PRIMITIVES
from rulesets.minimafik.collection_file import sample_collection
from rulesets.minimafik.resolution import DRAFT_STEPS, PHASE_STEPS, START_STEPS
from rulesets.minimafik.roles import ACTIONS
from rulesets.minimafik.texts import REASONS

RULESET = rulesets.find("minimafik")
ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "tests" / "rulesets" / "golden" / "minimafik"
NICKS = ["Cornix", "Ингероид", "Destiny", "Alu", "VanSLis"]
CHARACTERS = {
    "Cornix": "Ворон",
    "Ингероид": "Бадди",
    "Destiny": "Grillby",
    "Alu": "Клифф Бут",
    "VanSLis": "Труп",
}
ME = "Cornix"
DEADLINE = "2026-12-02T16:00:00+00:00"
OFFERS = [["strike", "shield"], ["peek", "stash"]]


def _context() -> dict[str, object]:
    seats = [
        Seat(n, role, visible)
        for n, role, visible in zip(
            NICKS,
            ["citizen", "citizen", "citizen", "killer", "boss"],
            ["photographer", "dancer", "bartender", "courier", "designer"],
            strict=True,
        )
    ]
    state, _ = RULESET.setup(seats, {"characters": CHARACTERS}, 1)
    return dict(RULESET.render_context(state))


def _p(type: str, **fields: object) -> Event:
    return Event.private(ME, type, **fields)


def _orders_samples() -> list[Event]:
    """What the game itself writes about orders (issue 23): the role PMs of a citizen with
    an ability and of a killer (deck rules), «помощь», a wrong deck, a miswritten order."""
    from rulesets.minimafik.help import action_usage, deck_rules, orders_of

    seats = [
        Seat(n, role, visible)
        for n, role, visible in zip(
            NICKS,
            ["citizen", "citizen", "citizen", "killer", "boss"],
            ["photographer", "dancer", "bartender", "courier", "designer"],
            strict=True,
        )
    ]
    state, events = RULESET.setup(seats, {"characters": CHARACTERS}, 1)
    roles = [e for e in events if e.type == "role_assigned" and e.to[0] in (ME, "Alu")]
    out = [Event.private(ME, e.type, **e.fields) for e in roles]
    out.append(_p("orders_help", orders=orders_of(state, ME)))
    killer = state.player("Alu")
    out.append(
        _p(
            "order_rejected",
            action="build_deck",
            reason="bad_composition",
            usage=action_usage(state, "Alu", "build_deck"),
            deck_rules=deck_rules(killer, state.options),
        )
    )
    out.append(
        _p(
            "order_rejected",
            action="armor",
            reason="target_required",
            usage=action_usage(state, ME, "armor"),
        )
    )
    return out


PRIVATE = [
    _p(
        "role_assigned",
        role="citizen",
        faction="law",
        colours=["attack", "defence", "support", "information", "neutral"],
        visible_role="photographer",
        points=1,
        abilities=[],
    ),
    _p(
        "role_assigned",
        role="killer",
        faction="mafia",
        colours=["attack", "defence"],
        visible_role=None,
        points=1,
        abilities=[],
    ),
    _p("draft_offers", kind="draft", offers=OFFERS),
    _p("draft_offers", kind="rebuild", offers=OFFERS),
    _p("rebuild_available", by="picks"),
    _p("rebuild_available", by="deck"),
    _p("hand", cards=["ambush", "bandage", "blank", "rot"], points=2, deck_size=4),
    _p("hand", cards=[], points=0, deck_size=0),
    _p(
        "partner_info",
        partner="VanSLis",
        role="boss",
        visible_role="designer",
        deck=["stash", "supply"],
        hand=["stash"],
    ),
    _p("partner_hand", partner="VanSLis", cards=["stash", "letter"]),
    _p(
        "card_played",
        card="ambush",
        side="dark",
        targets=["Alu"],
        paid_points=1,
        paid_cards=["coin"],
    ),
    _p("card_played", card="stash", side="light", targets=[], paid_points=0, paid_cards=[]),
    _p(
        "order_accepted",
        action="play_card",
        card="letter",
        side="light",
        targets=["Ингероид"],
        paid_points=0,
        paid_cards=[],
    ),
    _p("order_accepted", action="discard", cards=["strike", "shield"]),
    _p(
        "order_accepted",
        action="mafia_vote",
        targets=["Destiny"],
        extra=1,
        paid_points=0,
        paid_cards=["coin"],
    ),
    _p("order_accepted", action="mafia_vote", targets=[], extra=0, paid_points=0, paid_cards=[]),
    _p("order_accepted", action="armor", targets=["Ингероид"]),
    _p("order_accepted", action="punishment", choice="beating"),
    _p("order_accepted", action="order_hand", cards=["shield", "strike"]),
    _p("order_accepted", action="draft_pick", picks=["strike", None], missing=1),
    _p("order_accepted", action="draft_pick", picks=["strike", "peek"], missing=0),
    _p("order_accepted", action="build_deck", cards=["strike", "strike", "shield"]),
    _p("vote_accepted", action="leader_vote", target="Ингероид"),
    _p("vote_accepted", action="vece_vote", target="Alu"),
    _p("vote_withdrawn", action="vece_vote", had=True),
    _p("vote_withdrawn", action="leader_vote", had=False),
    _p("order_cancelled", action="play_card", had=True),
    _p("order_cancelled", action="armor", had=False),
    _p("order_rejected", action="play_card", reason="insufficient_payment"),
    _p("order_rejected", action="order", reason="unknown_command"),
    _p("cards_discarded", cards=["coin"], reason="cost"),
    _p("cards_discarded", cards=["strike", "shield"], reason="replace"),
    _p("cards_discarded", cards=["blank", "blank"], reason="rebuild"),
    _p("cards_drawn", cards=["poison"], reason="replace"),
    _p("cards_drawn", cards=["blank"], reason="effect"),
    _p("cards_drawn", cards=["strike", "shield"], reason="rebuild"),
    _p("cards_drawn", cards=["strike", "shield", "stash", "coin", "peek"], reason="initial"),
    _p(
        "damage_taken",
        raw=6,
        protected=False,
        amount=4,
        armor=1,
        lost=3,
        cancelled_draws=1,
        discarded=["strike", "shield"],
    ),
    _p(
        "damage_taken",
        raw=2,
        protected=False,
        amount=2,
        armor=2,
        lost=0,
        cancelled_draws=0,
        discarded=[],
    ),
    _p(
        "damage_taken",
        raw=3,
        protected=True,
        amount=0,
        armor=0,
        lost=0,
        cancelled_draws=0,
        discarded=[],
    ),
    _p("points_changed", delta=2, total=3),
    _p("points_changed", delta=-1, total=0),
    _p("rot_created", cards=["blank"], reason="dark_side"),
    _p("rot_created", cards=["shield"], reason="effect"),
    Event.private(ME, "card_transformed", **{"from": "shield", "to": "blank"}),
    _p("hand_seen", target="Alu", cards=["ambush", "strike"]),
    _p("colour_seen", target="VanSLis", colours=["support", "information"]),
    _p("colour_seen", target="VanSLis", colours=[]),
    _p("card_seen", target="Ингероид", cards=["letter"]),
    _p("card_seen", target="Ингероид", cards=[]),
    _p("faction_result", target="VanSLis", faction="mafia"),
    _p("role_result", target="Alu", role="killer"),
    _p("message", text="Голосуй за Mr. Fiks [b]завтра[/b]", **{"from": None}),
    _p("message", text="Я знаю, кто ты", **{"from": "Бадди"}),
    _p("mafia_kill_result", target="Destiny", damage=4),
    _p("mafia_kill_result", target=None, damage=0),
    *(_p("order_rejected", action="play_card", reason=r) for r in sorted(REASONS["ru"])),
    *_orders_samples(),
]

NIGHT = [
    Event.public("death", player="Destiny"),
    Event.public("role_revealed", player="Destiny", role="citizen"),
    Event.public("role_revealed", player="Alu", faction="mafia"),
    Event.public("leader_elected", player="Ингероид"),
    Event.public("beaten_reveal", player="Alu", colours=["attack", "defence"]),
    Event.public("beaten_reveal", player="VanSLis", colours=[]),
    Event.public("hand_sizes", counts={"Cornix": 5, "Ингероид": 3, "Alu": 1, "VanSLis": 2}),
]
NIGHT_NONE = [Event.public("leader_none", reason=r) for r in ("no_votes", "tie", "winner_died")]
DAY = [
    Event.public("vote_tally", counts={"Alu": 3, "Cornix": 2}),
    Event.public("vece_result", target="Alu", punishment="execution", damage=5, reason="majority"),
    Event.public("death", player="Alu"),
    Event.public("hand_sizes", counts={"Cornix": 5, "Ингероид": 3}),
    Event.public("game_over", winner="law", survivors=["Cornix", "Ингероид"]),
]
DAY_BEATING = [
    Event.public("vote_tally", counts={"VanSLis": 2, "Cornix": 2}),
    Event.public(
        "vece_result", target="VanSLis", punishment="beating", damage=2, reason="leader_tiebreak"
    ),
    Event.public("hand_sizes", counts={"Cornix": 5, "VanSLis": 1}),
]
DAY_NOBODY = [
    Event.public("vote_tally", counts={}),
    Event.public("vece_result", target=None, punishment=None, damage=0, reason="no_votes"),
    Event.public("vece_result", target=None, punishment=None, damage=0, reason="tie"),
    Event.public("game_over", winner="draw", survivors=[]),
]
DRAFT = [Event.public("decks_built", players=NICKS)]


def _every_word() -> list[Event]:
    """A sample of each entry of the word tables the private template prints that the
    samples above do not: every visible role, every colour (a Blank has none), every card
    timing, every order's name in a refusal (the golden test of all rulesets checks it)."""
    from rulesets.minimafik.texts import ACTIONS as NAMES
    from rulesets.minimafik.texts import VISIBLE

    roles = [
        _p(
            "role_assigned",
            role="citizen",
            faction="law",
            colours=["attack"],
            visible_role=v,
            points=1,
            abilities=[],
        )
        for v in VISIBLE["ru"]
    ]
    refusals = [_p("order_rejected", action=a, reason="late") for a in NAMES["ru"]]
    return [
        *roles,
        _p("draft_offers", kind="draft", offers=[["coin", "bribe"], ["letter", "bandage"]]),
        _p("colour_seen", target="VanSLis", colours=["none", "neutral"]),
        *refusals,
    ]


def _cases(r: Renderer, context: dict[str, object]) -> dict[str, str]:
    players = {"players": NICKS, **context}
    return {
        "private": r.render_private(PRIVATE, ME, context=context) or "",
        "private_every_word": r.render_private(_every_word(), ME, context=context) or "",
        **{
            f"results_game_over_{w}": r.render_public(
                [Event.public("game_over", winner=w, survivors=["Cornix"])],
                phase="day 5",
                context=players,
            )
            for w in ("law", "mafia")
        },
        "results_draft": r.render_public(DRAFT, phase="draft", context={**players, "turn": 0}),
        "results_night": r.render_public(NIGHT, phase="night 2", context=players),
        "results_night_no_leader": r.render_public(NIGHT_NONE, phase="night 3", context=players),
        "results_day": r.render_public(DAY, phase="day 2", context=players),
        "results_day_beating": r.render_public(DAY_BEATING, phase="day 3", context=players),
        "results_day_nobody": r.render_public(DAY_NOBODY, phase="day 4", context=players),
        "game_started": r.render_post(
            "game_started",
            players=NICKS,
            visible_roles={"Cornix": "photographer", "Alu": "courier", "VanSLis": None},
            deadline=DEADLINE,
            **context,
        ),
        **{
            f"phase_opened_{kind}": r.render_post(
                "phase_opened",
                phase=f"{kind} 2" if kind != "draft" else "draft",
                kind=kind,
                number=2 if kind != "draft" else None,
                deadline=DEADLINE,
                players=NICKS[:4],
                **context,
            )
            for kind in ("night", "day", "draft")
        },
    }


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_every_template_matches_its_golden_file(lang: str) -> None:
    renderer = Renderer.for_ruleset(RULESET, lang)
    cases = _cases(renderer, _context())
    update = os.environ.get("FORUMGM_UPDATE_GOLDEN") == "1"
    GOLDEN.mkdir(parents=True, exist_ok=True)
    for name, text in cases.items():
        path = GOLDEN / f"{lang}_{name}.txt"
        if update:
            path.write_text(text + "\n", encoding="utf-8")
        assert path.exists(), f"no golden file {path.name}: run with FORUMGM_UPDATE_GOLDEN=1"
        assert text + "\n" == path.read_text(encoding="utf-8"), f"{path.name} differs"
        assert "{{" not in text and "None" not in text and "[b][/b]" not in text, name
        if lang == "ru":
            assert not re.search(r"\((а|ла|ло|и)\)", text), (name, "a gender left open")
        assert "[b]завтра[/b]" not in text  # a player's text cannot open BBCode tags


def test_every_refusal_has_a_text_in_both_languages() -> None:
    spec = [
        "action_not_available",
        "target_self",
        "target_not_in_play",
        "invalid_target",
        "not_allowed",
        "wrong_phase",
        "not_in_hand",
        "rot_locked",
        "card_in_use",
        "target_required",
        "leader_not_votable",
        "current_leader",
        "insufficient_payment",
        "bad_payment",
        "points_only",
        "not_eligible",
        "too_many_copies",
        "bad_composition",
        "bad_pick",
        "unknown_card",
        "message_missing",
        "message_has_link",
        "message_too_long",
        "unknown_command",
        "unknown_target",
        "ambiguous_target",
        "ambiguous_card",
    ]  # §13.7
    assert set(spec) <= set(REASONS["ru"]) == set(REASONS["en"])


def test_every_event_type_has_a_text() -> None:
    types = {e.type for e in PRIVATE}
    public = {e.type for e in (*NIGHT, *NIGHT_NONE, *DAY, *DAY_BEATING, *DAY_NOBODY, *DRAFT)}
    from rulesets.minimafik.texts import RESULTS_ORDER

    assert public == {t for group in RESULTS_ORDER for t in group}
    spec_private = {
        "role_assigned", "draft_offers", "rebuild_available", "hand", "partner_info",
        "partner_hand", "card_played", "order_rejected", "cards_discarded", "cards_drawn",
        "damage_taken", "points_changed", "rot_created", "card_transformed", "hand_seen",
        "colour_seen", "card_seen", "faction_result", "role_result", "message",
        "mafia_kill_result",
    }  # fmt: skip
    assert spec_private <= types


def test_the_docs_table_covers_every_step_action_and_card() -> None:
    text = (ROOT / "docs" / "rulesets" / "minimafik.md").read_text(encoding="utf-8")
    table = text.split("| Step or ability | Scenarios |", 1)[1].split("\n\n", 1)[0]
    rows = {}
    for line in table.splitlines()[2:]:  # after the header's rule
        name, _, cells = line[2:].partition(" | ")
        rows[name] = cells
    scenarios = ROOT / "tests" / "scenarios" / "minimafik"
    wanted = [s.name.split()[0] for s in (*DRAFT_STEPS, *PHASE_STEPS, *START_STEPS)]
    wanted += [f"Action `{a}`" for a in ACTIONS]
    wanted += [f"Card `{c}`" for c in [*sample_collection().cards, "rot", "blank"]]
    for key in wanted:
        row = next((cells for name, cells in rows.items() if name.startswith(key)), None)
        assert row is not None, f"no row for {key}"
    for name, cells in rows.items():  # every row, also those not asked for above
        files = re.findall(r"`([^`]+\.yaml)`", cells)
        assert files, f"the row {name!r} names no scenario"
        for f in files:
            assert (scenarios / f).exists(), f
    # Every effect primitive: used by a sample card (which has its row) or named in a row.
    sample = sample_collection()
    used = {e.do for c in sample.cards.values() for side in (c.light, c.dark) for e in side.effects}
    named = {
        p for name in rows if name.startswith("Primitives") for p in re.findall(r"`(\w+)`", name)
    }
    assert set(PRIMITIVES) <= used | named, set(PRIMITIVES) - used - named
    assert "signed" in text  # the one parameter the sample never sets


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_every_template_file_has_a_golden_case(lang: str) -> None:
    """Each template (and the macros they all import) is rendered by a case of `_cases`."""
    cases = _cases(Renderer.for_ruleset(RULESET, lang), _context())
    templates = ("results", "phase_opened", "private", "game_started")
    covered = {next(t for t in templates if case.startswith(t)) for case in cases}
    folder = ROOT / "rulesets" / "minimafik" / "templates" / lang
    assert {p.stem for p in folder.glob("*.j2")} == covered | {"_macros"}

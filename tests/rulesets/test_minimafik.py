"""Rules tests of the minimafik ruleset beyond the scenario files.

The property test plays many seeded 8-player games from the draft with random orders (some
of them written as PMs) and checks after every phase that hands, points, the Leader and the
winner agree with the rules, that nothing secret reaches a public post, that every event
renders in both languages, and that the engine never raises.
"""

from __future__ import annotations

import functools
import random
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

import rulesets
from engine.core.events import Audience, Event
from engine.core.orders import Channel, Order, OrderKind
from engine.core.phases import PhaseId
from engine.core.ruleset import PhaseInputs, RulesError, Seat
from engine.render import Renderer
from engine.session import GameSession
from forums.bbcode import parse_bbcode
from rulesets.minimafik.collection_file import sample_collection
from rulesets.minimafik.deck import random_mafia_deck
from rulesets.minimafik.resolution import DRAFT_STEPS, PHASE_STEPS, START_STEPS
from rulesets.minimafik.roles import BLANK, ROT, VISIBLE_ROLES
from rulesets.minimafik.state import alive, leader

RULESET = rulesets.find("minimafik")
MOSCOW = ZoneInfo("Europe/Moscow")
START = datetime(2026, 3, 1, 19, 0, tzinfo=MOSCOW)
MAX_PHASES = 60
PUBLIC_TYPES = {
    "game_started",
    "decks_built",
    "vote_tally",
    "vece_result",
    "death",
    "role_revealed",
    "leader_elected",
    "leader_none",
    "beaten_reveal",
    "hand_sizes",
    "game_over",
}
ACKS = {"order_accepted", "order_rejected", "order_cancelled", "vote_accepted", "vote_withdrawn"}
COLL = sample_collection()
CARDS = list(COLL.cards)
NAMES = ["Ворон", "Бадди", "Grillby", "Mr. Fiks", "Труп", "Клифф Бут", "Роберт", "Выживший"]


def test_the_resolution_reads_like_the_rulebook() -> None:
    assert [s.name.split()[0] for s in PHASE_STEPS] == [f"E{i}" for i in range(1, 16)]
    assert [s.name.split()[0] for s in START_STEPS] == ["S1", "S2", "S3"]
    assert [s.name.split()[0] for s in DRAFT_STEPS] == ["D1", "D2"]
    for step in (*PHASE_STEPS, *START_STEPS, *DRAFT_STEPS):
        assert step.doc.strip(), f"step {step.name} has no docstring"


def test_setup_deals_one_boss_one_killer_and_draft_offers() -> None:
    seats = [Seat(n) for n in NAMES]
    state, events = RULESET.setup(seats, None, 5)
    assert sorted(p.role or "" for p in state.players) == sorted(
        ["boss", "killer"] + ["citizen"] * 6
    )
    assert RULESET.first_phase(state) == PhaseId("draft")
    offers = [e for e in events if e.type == "draft_offers"]
    assert len(offers) == 6
    for e in offers:
        pairs = e.fields["offers"]
        assert len(pairs) == 10 and all(len(set(p)) == 2 for p in pairs)
        assert all(COLL.colour_of(c) != "neutral" for p in pairs for c in p)
    again, _ = RULESET.setup(seats, None, 5)
    assert [p.role for p in again.players] == [p.role for p in state.players]


def test_the_hosts_offer_sizes() -> None:
    """`law_draft_picks` offers, each of `law_draft_choices` different cards (§14)."""
    options = {"law_draft_picks": 4, "law_draft_choices": 3}
    _, events = RULESET.setup([Seat(n) for n in NAMES], options, 5)
    offers = [e.fields["offers"] for e in events if e.type == "draft_offers"]
    assert len(offers) == 6
    assert all(len(o) == 4 and all(len(set(t)) == len(t) == 3 for t in o) for o in offers)


def test_a_visible_role_has_one_holder() -> None:
    seats = [Seat("A", visible_role="bartender"), Seat("B", visible_role="bartender")]
    with pytest.raises(rulesets.RulesError if hasattr(rulesets, "RulesError") else Exception):
        RULESET.setup(seats, None, 1)


def _session(seed: int, options: dict[str, object] | None = None) -> GameSession:
    visible = random.Random(seed).sample(list(VISIBLE_ROLES), len(NAMES))
    seats = [Seat(n, visible_role=v) for n, v in zip(NAMES, visible, strict=True)]
    return GameSession.new(RULESET, seats, options or {}, seed)


def test_partners_see_each_others_hands_at_night_only() -> None:
    session = _session(3)
    events: list[list[Event]] = []
    for phase in range(4):  # draft, night 1, day 1, night 2
        opened = START + timedelta(days=phase)
        session.open_phase(opened, opened + timedelta(days=1))
        events.append(session.resolve().resolution)
    mafia = {p.name for p in session.state.players if p.faction == "mafia"}
    kinds = [{e.type for e in phase if e.to and e.to[0] in mafia} for phase in events]
    assert {"partner_info", "partner_hand"} <= kinds[0]  # the draft's results open night 1
    assert "partner_hand" not in kinds[1]  # night 1's results open day 1
    assert "partner_hand" in kinds[2] and "partner_info" not in kinds[2]


def test_the_vote_view_keeps_votes_secret_from_the_thread() -> None:
    session = _session(4)
    session.state.phase = PhaseId("day", 1)
    for p in session.state.players:
        p.fields["hand"] = ["coin", "coin"]
    session.open_phase(START, START + timedelta(days=1))
    session.submit(Order("Ворон", OrderKind.VOTE, targets=("Бадди",), channel=Channel.PM, at=START))
    assert session.inputs is not None
    public = RULESET.vote_view(session.state, session.inputs, public=True)
    assert public.secret and public.votes == {} and public.totals == {}
    host = RULESET.vote_view(session.state, session.inputs, public=False)
    assert host.votes["Ворон"] == "Бадди" and host.totals == {"Бадди": 1}


def test_the_host_sees_draft_progress() -> None:
    session = _session(6)
    session.open_phase(START, START + timedelta(days=2))
    law = next(p for p in session.state.players if p.faction == "law")
    session.submit(
        Order(law.name, OrderKind.ORDER, "draft_pick", args={"picks": [1, 2, 1]}, at=START)
    )
    assert session.inputs is not None
    lines = RULESET.progress(session.state, session.inputs)
    assert f"{law.name}: draft: 3/10 picks" in lines
    boss = next(p for p in session.state.players if p.role == "boss")
    assert f"{boss.name}: draft: deck not sent yet" in lines


# -- the property test ---------------------------------------------------------------------


def _pm(session: GameSession, player: str, text: str, at: datetime) -> None:
    session.submit_post(player, parse_bbcode(text), Channel.PM, at=at, post_id=f"{player}{at}")


def _feed(session: GameSession, rng: random.Random, at: datetime) -> None:
    state = session.state
    kind = state.phase.kind if state.phase else "draft"
    living = [p for p in state.players if alive(p)]
    names = [p.name for p in living]
    for p in living:

        def order(
            action: str, targets: tuple[str, ...] = (), name: str = p.name, **args: object
        ) -> None:
            session.submit(Order(name, OrderKind.ORDER, action, targets, args, Channel.PM, at))

        if kind == "draft" or p.fields.get("can_rebuild"):
            if p.faction == "law":
                picks = [rng.choice([1, 2, None]) for _ in range(10)]
                order("draft_pick", picks=picks)
            elif rng.random() < 0.8:
                deck = random_mafia_deck(rng, p.role or "", COLL, state.options)
                order("build_deck", cards=deck if rng.random() < 0.9 else deck[:-1])
            if kind == "draft":
                continue
        hand = list(p.fields.get("hand") or [])
        if hand and rng.random() < 0.2:
            order("order_hand", cards=rng.sample(range(1, len(hand) + 1), k=min(2, len(hand))))
        roll = rng.random()
        if hand and roll < 0.55:
            card = rng.choice(hand)
            target = (rng.choice(names),)
            side = rng.choice(["light", "dark"])
            if rng.random() < 0.15:
                name = COLL.card(card).name if card not in (ROT, BLANK) else "Пустышка"
                word = "тёмной" if side == "dark" else "светлой"
                _pm(session, p.name, f"играю {name} {word} на {target[0]}", at)
            else:
                pay = None
                if rng.random() < 0.3 and len(hand) > 1:
                    pay = {"cards": [rng.randint(1, len(hand))]}
                order("play_card", target, card=card, side=side, pay=pay, text="Привет")
        elif hand and roll < 0.7 and kind == "night":
            order("discard", cards=rng.sample(range(1, len(hand) + 1), k=rng.randint(1, len(hand))))
        if kind == "night":
            if p.faction == "mafia":
                order("mafia_vote", (rng.choice(names),), extra=rng.choice([0, 0, 1]))
            elif rng.random() < 0.5:
                order("armor", (rng.choice(names),))
            if rng.random() < 0.7:
                session.submit(Order(p.name, OrderKind.VOTE, targets=(rng.choice(names),), at=at))
        else:
            if rng.random() < 0.8:
                session.submit(Order(p.name, OrderKind.VOTE, targets=(rng.choice(names),), at=at))
            if leader(state) == p.name:
                order("punishment", choice=rng.choice(["beating", "execution"]))


def _check(
    session: GameSession, events: list[Event], phase: str, renderers: list[Renderer]
) -> None:
    state = session.state
    living = [p for p in state.players if alive(p)]
    for p in state.players:
        hand = list(p.fields.get("hand") or [])
        if not alive(p):
            assert hand == [], p.name
            continue
        assert any(c != ROT for c in hand), (p.name, hand)
        rots = [i for i, c in enumerate(hand) if c == ROT]
        assert rots == list(range(len(hand) - len(rots), len(hand))), (p.name, hand)
        assert int(p.fields.get("points", 0)) >= 0
        assert all(c in COLL.cards or c in (ROT, BLANK) for c in hand + list(p.fields["deck"]))
    assert leader(state) in {None, *(p.name for p in living)}
    factions = {p.faction for p in living}
    if state.finished:
        assert state.winner == ("draw" if not living else factions.pop())
    else:
        assert state.winner is None and len(factions) == 2
    public = [e for e in events if e.audience is Audience.PUBLIC]
    for e in public:
        assert e.type in PUBLIC_TYPES, e.type
        assert "cards" not in e.fields and "hand" not in e.fields
        if e.type != "role_revealed":
            assert "role" not in e.fields and "faction" not in e.fields
    sizes = next(e for e in public if e.type in ("hand_sizes", "decks_built"))
    if sizes.type == "hand_sizes":
        assert sizes.fields["counts"] == {p.name: len(p.fields["hand"]) for p in living}
    before = {p for p in session.history[-1].in_play_before} if session.history else set()
    for e in events:
        if e.audience is Audience.PRIVATE and e.type not in ACKS | {
            "role_assigned",
            "draft_offers",
        }:
            (to,) = e.to
            assert to in before, (e.type, to)
    context = RULESET.render_context(state)
    for r in renderers:
        r.render_public(
            [e for e in public if e.type != "game_started"],
            phase=phase,
            context={"players": state.names, "turn": PhaseId.parse(phase).number, **context},
        )
        # Every player's PM of the first phases, then one player's a phase (each branch of
        # the PM template has its golden test; here the point is real game sequences).
        turn = len(session.history)
        readers = state.names if turn <= 2 else [state.names[turn % len(state.names)]]
        for name in readers:
            r.render_private(events, name, context=context)


@functools.lru_cache(maxsize=1)
def _renderers() -> list[Renderer]:
    """One renderer per language for every game (compiling the templates once)."""
    return [Renderer.for_ruleset(RULESET, "ru"), Renderer.for_ruleset(RULESET, "en")]


def play(seed: int) -> tuple[str | None, int]:
    rng = random.Random(seed)
    options = {
        "reveal_role_on_death": rng.choice(["none", "none", "faction", "role"]),
        "leader_term": rng.choice(["one_cycle", "until_replaced"]),
    }
    session = _session(seed, options)
    # Every fourth game also renders each phase's posts and PMs in both languages.
    renderers = _renderers() if seed % 4 == 0 else []
    phases = 0
    while not session.state.finished and phases < MAX_PHASES:
        opened = START + timedelta(days=phases)
        session.open_phase(opened, opened + timedelta(days=1))
        _feed(session, rng, opened + timedelta(hours=1))
        phase = str(session.state.phase)
        log = session.resolve()
        _check(session, log.events, phase, renderers)
        phases += 1
    return session.state.winner, phases


@pytest.mark.parametrize("batch", range(10))
def test_random_games(batch: int) -> None:
    """≥ 200 seeded games (20 per batch); a game reaching 60 phases stops and is counted."""
    finished = stopped = 0
    for seed in range(batch * 20, batch * 20 + 20):
        winner, phases = play(seed)
        if winner is None:
            assert phases == MAX_PHASES
            stopped += 1
        else:
            finished += 1
    assert finished + stopped == 20
    assert finished >= 15


def test_a_phase_resolves_the_same_twice() -> None:
    session = _session(9)
    session.open_phase(START, START + timedelta(days=1))
    assert session.inputs is not None
    a = RULESET.resolve(session.state, session.inputs)
    b = RULESET.resolve(
        session.state,
        PhaseInputs(
            session.inputs.phase,
            dict(session.inputs.votes),
            session.inputs.orders,
            session.inputs.log,
            session.inputs.data,
        ),
    )
    assert a.state.to_json() == b.state.to_json()
    assert [e.as_dict() for e in a.events] == [e.as_dict() for e in b.events]


# -- §12.3: the parser's examples, as a player's PM gets them accepted ----------------------

_HAND = ["strike", "ambush", "dossier", "letter", "shield", "coin"]
_CAST = [("Бадди", "citizen"), ("Ворон", "citizen"), ("Клифф Бут", "citizen"),
         ("Mr. Fiks", "killer"), ("Труп", "boss"), ("Роберт", "citizen")]  # fmt: skip


def _accepted(phase: str, writer: str, text: str) -> list[tuple[str, dict[str, object]]]:
    seats = [
        Seat(
            n,
            r,
            state={
                "hand": list(_HAND),
                "points": 3,
                **({"nick": "Alu"} if n == "Mr. Fiks" else {}),
            },
        )
        for n, r in _CAST
    ]
    session = GameSession.new(RULESET, seats, {}, 1)
    session.state.phase = PhaseId.parse(phase)
    session.state.data["leader"] = "Бадди" if phase.startswith("day") else None
    session.open_phase(START, START + timedelta(days=1))
    events, _ = session.submit_post(
        writer, parse_bbcode(text), Channel.PM, at=START + timedelta(hours=1), post_id="1"
    )
    return [(e.type, dict(e.fields)) for e in events]


@pytest.mark.parametrize(
    ("phase", "writer", "text", "wanted"),
    [
        ("night 2", "Бадди", "играю Удар светлой стороной на Ворона", {"card": "strike", "side": "light", "targets": ["Ворон"]}),
        ("night 2", "Бадди", "Удар ◯ → Ворон", {"card": "strike", "side": "light", "targets": ["Ворон"]}),
        ("night 2", "Бадди", "play Strike light on Ворон", {"card": "strike", "side": "light", "targets": ["Ворон"]}),
        ("night 2", "Бадди", "играю Удар тёмной на Трупа", {"card": "strike", "side": "dark", "targets": ["Труп"]}),
        ("night 2", "Бадди", "сыграть Щит на себя", {"card": "shield", "side": "light", "targets": ["Бадди"]}),
        ("night 2", "Ворон", "карта 2, светлая, цель: Бадди", {"card": "ambush", "side": "light", "targets": ["Бадди"]}),
        ("night 2", "Бадди", "Засаду ⚫ на Клиффа Бута, оплата: сброс 4",
         {"card": "ambush", "side": "dark", "targets": ["Клифф Бут"], "paid_points": 0, "paid_cards": ["letter"]}),
        ("night 2", "Бадди", "играю Досье на Роберта, плачу 1 балл и картой 5",
         {"card": "dossier", "side": "light", "targets": ["Роберт"], "paid_points": 1, "paid_cards": ["shield"]}),
        ("night 2", "Ворон", "Записка светлая Бадди: «Голосуй за Mr. Fiks»", {"card": "letter", "targets": ["Бадди"]}),
        ("night 2", "Бадди", "сброс 2,3", {"action": "discard", "cards": ["ambush", "dossier"]}),
        ("night 2", "Бадди", "сбрасываю 2 и 3", {"action": "discard", "cards": ["ambush", "dossier"]}),
        ("night 2", "Бадди", "discard 2 3", {"action": "discard", "cards": ["ambush", "dossier"]}),
        ("night 2", "Бадди", "сброс: Удар, Щит", {"action": "discard", "cards": ["strike", "shield"]}),
        ("night 2", "Труп", "голос мафии: Роберт +1", {"targets": ["Роберт"], "extra": 1, "paid_points": 1}),
        ("night 2", "Труп", "мафия: Ворон +2 сбросом 4,5", {"targets": ["Ворон"], "extra": 2, "paid_cards": ["letter", "shield"]}),
        ("night 2", "Труп", "убить Ворона", {"action": "mafia_vote", "targets": ["Ворон"], "extra": 0}),
        ("night 2", "Труп", "kill Ворон", {"action": "mafia_vote", "targets": ["Ворон"]}),
        ("night 2", "Труп", "мафия: +1", {"action": "mafia_vote", "targets": [], "extra": 1}),
        ("night 2", "Бадди", "броня себе", {"action": "armor", "targets": ["Бадди"]}),
        ("night 2", "Бадди", "armor self", {"action": "armor", "targets": ["Бадди"]}),
        ("night 2", "Бадди", "даю броню Ворону", {"action": "armor", "targets": ["Ворон"]}),
        ("night 2", "Бадди", "броня: Ворон", {"action": "armor", "targets": ["Ворон"]}),
        ("night 2", "Бадди", "лидер: Alu", {"action": "leader_vote", "target": "Mr. Fiks"}),
        ("night 2", "Бадди", "голосую в лидеры за Ворона", {"action": "leader_vote", "target": "Ворон"}),
        ("night 2", "Бадди", "leader: Ворон", {"action": "leader_vote", "target": "Ворон"}),
        ("night 2", "Бадди", "голос: Ворон", {"action": "leader_vote", "target": "Ворон"}),
        ("day 2", "Ворон", "вече: Роберт", {"action": "vece_vote", "target": "Роберт"}),
        ("day 2", "Бадди", "голос: Ворон", {"action": "vece_vote", "target": "Ворон"}),
        ("day 2", "Бадди", "голосую против Ворона", {"action": "vece_vote", "target": "Ворон"}),
        ("day 2", "Бадди", "vote: Ворон", {"action": "vece_vote", "target": "Ворон"}),
        ("day 2", "Бадди", "казнь", {"choice": "execution"}),
        ("day 2", "Бадди", "execute", {"choice": "execution"}),
        ("day 2", "Бадди", "избиение", {"choice": "beating"}),
        ("day 2", "Бадди", "наказание: избить", {"choice": "beating"}),
        ("day 2", "Бадди", "beat", {"choice": "beating"}),
        ("night 2", "Бадди", "порядок: 3,1,2", {"cards": ["dossier", "strike", "ambush", "letter", "shield", "coin"]}),
        ("night 2", "Бадди", "order: 3 1 2", {"cards": ["dossier", "strike", "ambush", "letter", "shield", "coin"]}),
        ("night 2", "Бадди", "порядок руки: Щит, Удар", {"cards": ["shield", "strike", "ambush", "dossier", "letter", "coin"]}),
        ("night 2", "Бадди", "не играю", {"action": "play_card", "had": False}),
        ("night 2", "Бадди", "отмена карты", {"action": "play_card", "had": False}),
        ("night 2", "Бадди", "cancel card", {"action": "play_card", "had": False}),
        ("day 2", "Бадди", "снимаю голос", {"action": "vece_vote", "had": False}),
        ("night 2", "Бадди", "Привет! Когда дедлайн?", {"reason": "unknown_command"}),
    ],
)  # fmt: skip
def test_the_parser_examples_of_section_12(
    phase: str, writer: str, text: str, wanted: dict[str, object]
) -> None:
    ((_, fields),) = _accepted(phase, writer, text)
    assert {k: fields.get(k) for k in wanted} == wanted, fields


@pytest.mark.parametrize(
    ("characters", "said"),
    [
        # The parser drops zero-width and bidi characters, so these read as «Бадди» (a vote
        # meant for Ворон's character would count for the player Бадди), as two characters
        # named «Кар» (every vote for either ambiguous), and as no name at all.
        # The host sees where the invisible character is (the name's repr: 'Бад\\xadди').
        ({"Ворон": "Бад\u00adди"}, "'Бад\\xadди' is already Бадди's"),
        ({"Ворон": "Кар", "Бадди": "К\u200bар"}, "'К\\u200bар' is already Ворон's"),
        ({"Ворон": "\u202eКар\u202c", "Бадди": "Кар"}, "'Кар' is already Ворон's"),
        ({"Ворон": "\u200b"}, "characters.Ворон: the character's name is empty"),
    ],
)
def test_character_names_alike_but_for_invisible_characters_are_refused(
    characters: dict[str, str], said: str
) -> None:
    seats = [Seat(n) for n in NAMES]
    with pytest.raises(RulesError) as raised:
        RULESET.setup(seats, {"characters": characters}, 5)
    assert said in str(raised.value)


def test_a_collection_too_small_for_a_mafia_deck_is_said_in_plain_english() -> None:
    """The host hears what the deck needs, «1 copy» / «2 copies» as English has them."""
    seats = [Seat(n) for n in NAMES]
    for copies, said in ((1, "at most 1 copy of each"), (2, "at most 2 copies of each")):
        options = {"mafia_max_copies": copies, "mafia_own_colour_cards": 400}
        with pytest.raises(RulesError) as raised:
            RULESET.setup(seats, options, 5)
        assert said in str(raised.value)
        assert "the collection has 8 such card types" in str(raised.value)

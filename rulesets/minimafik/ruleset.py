"""The `minimafik` ruleset: decks, hands as lives, the Leader and the Вече (seed 003, minimafik.md)."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from engine.core import rng as rngmod
from engine.core.events import Event
from engine.core.grammar import Grammar
from engine.core.model import GameState, PlayerState
from engine.core.orders import Channel, Order
from engine.core.phases import PhaseId
from engine.core.ruleset import (
    HostTable,
    IntakeResult,
    PhaseInputs,
    Resolution,
    Resolved,
    RulesError,
    Ruleset,
    Seat,
    Step,
    VoteView,
)
from engine.core.warnings import N_, UNKNOWN_COMMAND, ParseWarning
from rulesets.minimafik import grammar as grammar_mod
from rulesets.minimafik.collection_file import (
    COLLECTION_REFUSED,
    CollectionError,
    collection_of,
    sample_collection,
)
from rulesets.minimafik.context import new_turn
from rulesets.minimafik.deck import draft_offers
from rulesets.minimafik.help import deck_rules, orders_of, refusal_extra
from rulesets.minimafik.intake import Intake
from rulesets.minimafik.options import (
    OPTION_DEFAULTS,
    check,
    check_buildable,
    check_character_names,
    check_unique_visible,
    deal,
    seat_fields,
)
from rulesets.minimafik.progress import hands_table, host_progress
from rulesets.minimafik.resolution import DRAFT_STEPS, PHASE_STEPS, START_STEPS
from rulesets.minimafik.roles import DRAFT, LAW, ROLES, VISIBLE_ROLES
from rulesets.minimafik.start import next_phase, s2_rebuild_offers, send_hands
from rulesets.minimafik.state import alive, alive_names, character, colours_of, view


class Minimafik(Ruleset):
    id: ClassVar[str] = "minimafik"
    title: ClassVar[str] = "Минимафик"
    grammar: ClassVar[Grammar] = grammar_mod.grammar_for(sample_collection())
    option_defaults: ClassVar[Mapping[str, Any]] = OPTION_DEFAULTS
    vote_channel: ClassVar[Channel] = Channel.PM
    templates: ClassVar[str] = "rulesets.minimafik.templates"
    phase_kind: ClassVar[str] = "night"
    path_options: ClassVar[tuple[str, ...]] = ("collection", "visible_roles")
    role_ids: ClassVar[tuple[str, ...]] = tuple(ROLES)
    deal_option: ClassVar[str | None] = "setup"
    visible_role_ids: ClassVar[tuple[str, ...]] = VISIBLE_ROLES

    def check_options(self, options: dict[str, Any]) -> None:
        check(options)

    def game_file_options(self, players: Sequence[str]) -> str:
        """`game new`: the collection line to fill in and each player's character name."""
        pairs = ", ".join(f'"{_toml(n)}" = "{_toml(n)}"' for n in players)
        return (
            "# collection = \"my_cards.yaml\"   # the host's cards (default: the spec's sample)\n"
            f"characters = {{ {pairs} }}   # forum nickname = character name\n"
        )

    def grammar_for(self, options: Mapping[str, Any]) -> Grammar:
        try:
            return grammar_mod.grammar_for(collection_of(options.get("collection")))
        except CollectionError as exc:
            raise RulesError(COLLECTION_REFUSED.format(key="collection", said=exc)) from exc

    # -- setup (§3, §5.1) ----------------------------------------------------------------

    def setup(
        self, seats: Sequence[Seat], options: Mapping[str, Any] | None, seed: int
    ) -> tuple[GameState, list[Event]]:
        opts = self.options(options)
        names = [s.name for s in seats]
        if len(set(names)) != len(names):
            raise RulesError(N_("player names must be unique"))
        if len(names) < 2:
            raise RulesError(N_("a game needs at least two players"))
        for who in opts["characters"]:
            if who not in names:
                said = N_("option characters.{name}: {quoted} is not a player of the game")
                raise RulesError(said.format(name=who, quoted=repr(who)))
        rng = random.Random(seed)
        roles = deal(seats, opts, rng)
        players = [seat_fields(seat, role, opts) for seat, role in zip(seats, roles, strict=True)]
        check_unique_visible(players)
        check_character_names(players)
        state = GameState(self.id, opts, players, None, rngmod.snapshot(rng))
        started = [p for p in players if "hand" in p.fields and alive(p)]
        living = [p for p in players if alive(p)]
        if started and len(started) != len(living):
            missing = ", ".join(p.name for p in living if "hand" not in p.fields)
            said = N_("a game set up mid-way needs the hand of every living character: {names}")
            raise RulesError(said.format(names=missing))
        for p in players:
            p.fields.setdefault("hand", [])
            leader = p.fields.pop("is_leader", False)
            if leader:
                state.data["leader"] = p.name
        state.data["started"] = bool(started)
        if not started:
            check_buildable([p.role or "" for p in living], opts)
        events = self._setup_events(state, rng)
        state.rng = rngmod.snapshot(rng)
        return state, events

    def _setup_events(self, state: GameState, rng: random.Random) -> list[Event]:
        coll = collection_of(state.options["collection"])
        events = [
            Event.private(
                p.name,
                "role_assigned",
                role=p.role,
                faction=p.faction,
                colours=colours_of(p.role),
                visible_role=p.fields.get("visible_role"),
                points=int(p.fields.get("points", 0)),
                abilities=[a.id for a in coll.abilities_of(p.fields.get("visible_role"))],
                orders=orders_of(state, p.name),
                **({"deck_rules": deck_rules(p, state.options)} if p.faction == "mafia" else {}),
            )
            for p in state.players
        ]
        events.append(
            Event.public(
                "game_started",
                players=state.names,
                characters={p.name: character(p) for p in state.players},
                visible_roles={p.name: p.fields.get("visible_role") for p in state.players},
                deadline=None,
            )
        )
        if not state.data["started"]:
            for p in state.players:
                if p.faction == LAW and alive(p):
                    if not p.fields.get("offers"):
                        p.fields["offers"] = draft_offers(rng, coll, state.options)
                    events.append(
                        Event.private(
                            p.name, "draft_offers", kind="draft", offers=p.fields["offers"]
                        )
                    )
            return events
        # A game set up mid-way (scenarios): the start-of-phase steps of its first phase.
        turn = new_turn(state, PhaseInputs(_placeholder_phase()), rng)
        s2_rebuild_offers(turn)
        send_hands(turn)
        state.data["partners_pending"] = True
        return events + turn.events

    def first_phase(self, state: GameState) -> PhaseId:
        return PhaseId("night", 1) if state.data.get("started") else PhaseId(DRAFT)

    def next_phase(self, state: GameState) -> PhaseId:
        return next_phase(state.phase or self.first_phase(state))

    # -- intake and resolution -----------------------------------------------------------

    def intake(self, state: GameState, inputs: PhaseInputs, order: Order) -> IntakeResult:
        return Intake(state, inputs).take(order)

    def keep_parse_warnings(
        self, channel: Channel, warnings: list[ParseWarning]
    ) -> list[ParseWarning]:
        """Thread talk that merely resembles an order is not worth a warning."""
        if channel is Channel.THREAD:
            return [w for w in warnings if w.code != UNKNOWN_COMMAND]
        return warnings

    def answer_parse_warnings(
        self, state: GameState, player: str, channel: Channel, warnings: list[ParseWarning]
    ) -> list[Event]:
        """A PM line the parser could not take is answered («не понял»)."""
        if (
            channel is not Channel.PM
            or not state.has_player(player)
            or not alive(state.player(player))
        ):
            return []
        return [
            Event.private(
                player,
                "order_rejected",
                action=w.action or "order",
                reason=w.code,
                **refusal_extra(state, player, w.action, w.code),
            )
            for w in warnings
            if not w.accepted
        ]

    def new_resolution(
        self, state: GameState, inputs: PhaseInputs, rng: random.Random
    ) -> Resolution:
        return new_turn(state, inputs, rng)

    @property
    def steps(self) -> Sequence[Step[Any]]:
        return (*PHASE_STEPS, *START_STEPS)

    def steps_for(self, kind: str, finished: bool = False) -> Sequence[Step[Any]]:
        if kind == DRAFT:
            return (*DRAFT_STEPS, *START_STEPS)
        return PHASE_STEPS

    def resolve(self, state: GameState, inputs: PhaseInputs, *, in_place: bool = False) -> Resolved:
        work = state if in_place else state.copy()
        rng = rngmod.restore(work.rng)
        ctx = new_turn(work, inputs, rng)
        for step in self.steps_for(inputs.phase.id.kind):
            step.run(ctx)
        if inputs.phase.id.kind != DRAFT and not ctx.state.finished:
            for step in START_STEPS:
                step.run(ctx)
        ctx.state.rng = rngmod.snapshot(rng)
        if not ctx.state.finished:
            ctx.state.phase = next_phase(inputs.phase.id)
        return Resolved(ctx.events, ctx.state)

    # -- views ---------------------------------------------------------------------------

    def after_removal(
        self, state: GameState, inputs: PhaseInputs | None, player: PlayerState
    ) -> list[Event]:
        """A removed Leader leads no more (as a dead one, §10): nobody is Leader until the
        next election, and his tie-break and punishment choice are gone (D-36)."""
        if state.data.get("leader") != player.name:
            return []
        state.data["leader"] = None
        return [Event.public("leader_gone", player=player.name)]

    def in_play(self, state: GameState) -> list[str]:
        return alive_names(state)

    def player_view(self, state: GameState, name: str) -> dict[str, Any]:
        return view(state, state.player(name))

    def vote_view(self, state: GameState, inputs: PhaseInputs, *, public: bool) -> VoteView:
        """Votes are secret PMs: the public view shows nobody's vote; the host's shows them."""
        from rulesets.minimafik.state import leader

        living = alive_names(state)
        votes: dict[str, str | None] = {}
        totals: dict[str, int] = {}
        if not public:
            for name in living:
                order = inputs.votes.get(name)
                votes[name] = order.target if order else None
                if order and order.target:
                    totals[order.target] = totals.get(order.target, 0) + 1
        return VoteView(
            phase=str(inputs.phase.id),
            secret=True,
            votes=votes,
            totals=totals,
            not_voting=[n for n in living if n not in inputs.votes] if not public else [],
            leader=leader(state),
        )

    def name_aliases(self, state: GameState) -> Mapping[str, Sequence[str]]:
        """Players are addressed by character name or forum nickname (§12.1, D-34)."""
        out: dict[str, list[str]] = {}
        for p in state.players:
            more = [character(p), str(p.fields.get("nick") or "")]
            out[p.name] = [m for m in more if m and m != p.name]
        return out

    def render_context(self, state: GameState) -> Mapping[str, Any]:
        from rulesets.minimafik.texts import render_context

        return render_context(state)

    def progress(self, state: GameState, inputs: PhaseInputs, lang: str = "en") -> list[str]:
        return host_progress(state, inputs, lang)

    def host_tables(
        self, state: GameState, inputs: PhaseInputs | None, lang: str = "en"
    ) -> list[HostTable]:
        return [hands_table(state, lang)]


def _toml(text: str) -> str:
    return text.replace("\\", "\\\\").replace('"', '\\"')


def _placeholder_phase() -> Any:
    from datetime import UTC, datetime, timedelta

    from engine.core.phases import Phase

    now = datetime(2000, 1, 1, tzinfo=UTC)
    return Phase(PhaseId("setup"), now, now + timedelta(seconds=1))

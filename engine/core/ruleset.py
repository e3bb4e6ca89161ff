"""The rules framework: intake of orders, the resolution pipeline and the ruleset registry.

A ruleset declares its resolution order as one ordered list of named steps. Resolution is a
pure function of (state, the phase's registered orders, the RNG stored in the state):
it works on a copy and returns the events and the new state, so any phase replays exactly.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, TypeVar

from engine.core import rng as rngmod
from engine.core.events import Event
from engine.core.grammar import Grammar
from engine.core.model import GameState, PlayerState
from engine.core.orders import Channel, Order
from engine.core.phases import Phase, PhaseId
from engine.core.warnings import N_, ParseWarning


class RulesError(Exception):
    """A game or scenario that the ruleset cannot run (bad setup, unknown option).

    `where` names the game-file keys the error is about, most specific last, e.g.
    ``("options", "layout")`` or ``("roles", "Вася")``, so `game validate` can give its line.
    """

    def __init__(self, message: str, *, where: tuple[str, ...] = ()) -> None:
        super().__init__(message)
        self.where = where


# A ruleset's refusals of a game file are made in English from N_ templates, as its warnings
# are (`engine.config` shows them in the host's language); the ones every ruleset says:
NOT_ONE_OF = N_("option {key}: {value} is not one of {allowed}")
NOT_A_FLAG = N_("option {key}: expected true or false, got {value}")
UNKNOWN_ROLE = N_("{name}: unknown role {role} (known: {known})")


@dataclass(frozen=True)
class Seat:
    """A player slot at setup: the name, and the role where the host deals it by hand."""

    name: str
    role: str | None = None
    visible_role: str | None = None
    state: Mapping[str, Any] = field(default_factory=dict)


@dataclass
class PhaseInputs:
    """The phase's registered commands as they stand (the ledger intake keeps)."""

    phase: Phase
    votes: dict[str, Order] = field(default_factory=dict)
    """Voter → the vote in force (unvotes remove the entry)."""
    orders: dict[str, dict[str, Order]] = field(default_factory=dict)
    """Player → slot (usually the action id) → the order in force."""
    log: list[Order] = field(default_factory=list)
    """Every command that was accepted, in the order it arrived."""
    data: dict[str, Any] = field(default_factory=dict)
    """Ruleset bookkeeping during the phase (e.g. when the last rating was posted)."""

    def orders_of(self, player: str) -> list[Order]:
        return list(self.orders.get(player, {}).values())

    def all_orders(self) -> list[Order]:
        return [o for slots in self.orders.values() for o in slots.values()]


@dataclass(slots=True)
class IntakeResult:
    """What taking one command produced: acknowledgements/answers and warnings. (Slots: one
    is made for every command taken, millions in a simulation.)"""

    events: list[Event] = field(default_factory=list)
    warnings: list[ParseWarning] = field(default_factory=list)

    def extend(self, other: IntakeResult) -> None:
        self.events.extend(other.events)
        self.warnings.extend(other.warnings)


@dataclass
class Resolved:
    """The outcome of resolving one phase."""

    events: list[Event]
    state: GameState


@dataclass
class VoteView:
    """The common view of the current vote that vote count posts and `tally` use."""

    phase: str
    secret: bool
    votes: dict[str, str | None]
    """Voter → target (None: not voting). Empty when the votes are secret."""
    totals: Mapping[str, float]
    """Target → what its votes add up to: whole numbers as `int`, weighted halves as `float`."""
    not_voting: list[str]
    leader: str | None
    majority: int | None = None
    weights: dict[str, float] = field(default_factory=dict)
    """Voter → what their vote counts, for votes that do not count 1 (empty: all count 1)."""


@dataclass(frozen=True)
class HostTable:
    """A table the host sees beside the phase (yakuza's HP, minimafik's hands): text cells.
    Never published; the dashboard and `forumgm review` show it."""

    title: str
    columns: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]


C = TypeVar("C", bound="Resolution")


@dataclass
class Resolution:
    """The working context of one phase's resolution, passed from step to step."""

    state: GameState
    inputs: PhaseInputs
    rng: random.Random
    events: list[Event] = field(default_factory=list)

    def emit(self, event: Event) -> None:
        self.events.append(event)


@dataclass(frozen=True)
class Step(Generic[C]):
    """One named step of the resolution order; `doc` says what it sets and what it uses."""

    name: str
    run: Callable[[C], None]
    doc: str = ""


def run_steps(steps: Sequence[Step[C]], ctx: C) -> C:
    for step in steps:
        step.run(ctx)
    return ctx


class Ruleset(ABC):
    """A game variant: setup, phases, grammar, intake, resolution, win check, texts."""

    id: ClassVar[str]
    title: ClassVar[str]
    grammar: ClassVar[Grammar]
    option_defaults: ClassVar[Mapping[str, Any]]
    vote_channel: ClassVar[Channel] = Channel.THREAD
    templates: ClassVar[str] = ""
    """The package holding this ruleset's Jinja2 templates (``<lang>/<name>.j2``)."""
    path_options: ClassVar[tuple[str, ...]] = ()
    """Options that name a file; a game file's relative path is read from its folder."""
    role_ids: ClassVar[tuple[str, ...]] = ()
    """Every role id a host may deal or give (game files list them in errors)."""
    deal_option: ClassVar[str | None] = None
    """The option a game file's `[deal]` table fills ({role: count}); None: the file deals
    no roles this way."""
    deal_groups: ClassVar[tuple[str, ...]] = ()
    """Keys `[deal]` takes besides role ids (e.g. yakuza's teams)."""
    visible_role_ids: ClassVar[tuple[str, ...]] = ()
    """Public roles a game file may give (`[players] visible_roles`); empty: none."""
    missed_votes: ClassVar[bool] = False
    """The rules punish a player who sent no vote in a phase (twelve-rooms' warnings):
    a running game tells the ruleset who voted from its activity counts (`VOTED`), and
    `forumgm activity` shows each missed vote."""

    def options(self, given: Mapping[str, Any] | None) -> dict[str, Any]:
        """The defaults with the host's options applied; unknown options are an error."""
        merged = dict(self.option_defaults)
        for key, value in (given or {}).items():
            if key not in merged:
                known = ", ".join(sorted(merged))
                raise RulesError(f"unknown option {key!r} for ruleset {self.id} (known: {known})")
            merged[key] = value
        self.check_options(merged)
        return merged

    def check_options(self, options: dict[str, Any]) -> None:  # noqa: B027 - an optional hook
        """Raise RulesError for an option value out of range."""

    @abstractmethod
    def setup(
        self, seats: Sequence[Seat], options: Mapping[str, Any] | None, seed: int
    ) -> tuple[GameState, list[Event]]:
        """A new game: state at the start of the first phase and the setup events."""

    def game_file_options(self, players: Sequence[str]) -> str:
        """What `forumgm game new` writes into the [options] table for these players (TOML
        lines, comments welcome); nothing by default."""
        return ""

    phase_kind: ClassVar[str] = "turn"
    """The kind of phase a game is a sequence of ("turn", "day"); rulesets with day and
    night override `first_phase`/`next_phase`."""

    def first_phase(self, state: GameState) -> PhaseId:
        return PhaseId(self.phase_kind, 1)

    def next_phase(self, state: GameState) -> PhaseId:
        current = state.phase or PhaseId(self.phase_kind, 0)
        return PhaseId(self.phase_kind, current.number + 1)

    @abstractmethod
    def intake(self, state: GameState, inputs: PhaseInputs, order: Order) -> IntakeResult:
        """Validate one command and register it in `inputs` (or reject it with a warning)."""

    def grammar_for(self, options: Mapping[str, Any]) -> Grammar:
        """The grammar a game reads with; options may change it (e.g. spoilers count)."""
        return self.grammar

    def keep_parse_warnings(
        self, channel: Channel, warnings: list[ParseWarning]
    ) -> list[ParseWarning]:
        """The parser's warnings worth a host's look for a post in this channel."""
        return warnings

    def answer_parse_warnings(
        self, state: GameState, player: str, channel: Channel, warnings: list[ParseWarning]
    ) -> list[Event]:
        """What the sender is told about text the parser could not take (e.g. a help reply)."""
        return []

    def read_post(
        self, state: GameState, inputs: PhaseInputs, player: str, channel: Channel, text: str
    ) -> IntakeResult:
        """A whole post or PM (its own text, quotes dropped), beside the commands in it: for
        rules about what may be posted at all (twelve-rooms: the laughter room)."""
        return IntakeResult()

    @abstractmethod
    def new_resolution(
        self, state: GameState, inputs: PhaseInputs, rng: random.Random
    ) -> Resolution:
        """The context object the steps work on."""

    @property
    @abstractmethod
    def steps(self) -> Sequence[Step[Any]]:
        """The resolution order, as the rulebook gives it."""

    def resolve(self, state: GameState, inputs: PhaseInputs, *, in_place: bool = False) -> Resolved:
        """Resolve the phase: a pure function of the state (with its RNG) and the inputs.

        `in_place`: the caller gives `state` up (a simulated game keeps no earlier state), so
        the resolution works on it instead of on a copy; the result is the same."""
        if not in_place:
            work = state.copy()
            ctx = self.new_resolution(work, inputs, rngmod.restore(work.rng))
            run_steps(self.steps, ctx)
            ctx.state.rng = rngmod.snapshot(ctx.rng)
            return Resolved(ctx.events, ctx.state)
        # In place, the generator stays the state's between phases (`GameState.keep`): the
        # next phase draws on from it, and its 625 words are written out only if read.
        ctx = self.new_resolution(state, inputs, state.stream())
        run_steps(self.steps, ctx)
        ctx.state.keep(ctx.rng)
        return Resolved(ctx.events, ctx.state)

    @abstractmethod
    def in_play(self, state: GameState) -> list[str]:
        """Players still in play, in seating order."""

    def player_view(self, state: GameState, name: str) -> dict[str, Any]:
        """A player's state fields, derived ones included (scenario `state:` checks)."""
        p = state.player(name)
        return {"role": p.role, "faction": p.faction, **p.fields}

    @abstractmethod
    def vote_view(self, state: GameState, inputs: PhaseInputs, *, public: bool) -> VoteView:
        """Who voted for whom so far; `public` hides what the rules keep secret."""

    def name_aliases(self, state: GameState) -> Mapping[str, Sequence[str]]:
        """Other names the parser reads as each player (e.g. character names)."""
        return {}

    def render_context(self, state: GameState) -> Mapping[str, Any]:
        """What a game's templates need besides the events (e.g. its own card names)."""
        return {}

    def progress(self, state: GameState, inputs: PhaseInputs, lang: str = "en") -> list[str]:
        """Lines telling the host how the open phase stands (e.g. who has built a deck), in
        the host's language `lang` ("ru", "en"): the ruleset has the words, the caller the
        language (a ruleset may not import engine.i18n)."""
        return []

    def host_tables(
        self, state: GameState, inputs: PhaseInputs | None, lang: str = "en"
    ) -> list[HostTable]:
        """Tables of the game's hidden numbers for the host (HP, hand sizes), in the host's
        language `lang` as `progress`; `inputs` are the open phase's orders so far (None: the
        state after the last resolution)."""
        return []

    def host_picture(self, state: GameState, lang: str) -> str | None:
        """An SVG picture of the game for the host (twelve-rooms' map); never published."""
        return None

    def private_messages_needed(self, options: Mapping[str, Any]) -> str | None:
        """Why a game with these options needs private messages (a board without them,
        FluxBB, cannot run it), or None when it is played in the open thread alone."""
        return "it deals secret roles and takes night orders by private message"

    # -- the host's measures on a running game (modkill, grants, the end) ---------------

    host_grants: ClassVar[Mapping[str, str]] = {}
    """What the host may grant a player by command: grant id → what its value means."""

    def removal_reveals(self, state: GameState) -> bool:
        """Whether a removed player's role is shown when the host does not say (the rules'
        default: as a death shows it)."""
        value = state.options.get("reveal_role_on_death", False)
        return value not in (False, None, "none")

    def remove_player(
        self, state: GameState, inputs: PhaseInputs | None, name: str, *, reveal: bool | None
    ) -> list[Event]:
        """The host removes `name` from play (inactivity, a rule breach): he is out from now
        on, and the votes by and for him and his orders of the open phase no longer count
        (`inputs`; None between phases). `reveal`: his role is shown (None: the rules'
        default). The ruleset's own consequences follow (`after_removal`)."""
        if not state.has_player(name):
            raise RulesError(f"{name!r} is not a player of this game")
        if name not in self.in_play(state):
            raise RulesError(f"{name} is not in play")
        shown = self.removal_reveals(state) if reveal is None else reveal
        p = state.player(name)
        p.fields["alive"] = False
        p.fields["removed"] = True
        if inputs is not None:
            drop_inputs_of(inputs, name)
        fields: dict[str, Any] = {"player": name, "revealed": shown}
        if shown:
            fields.update(role=p.role, faction=p.faction)
        return [Event.public("player_removed", **fields), *self.after_removal(state, inputs, p)]

    def after_removal(
        self, state: GameState, inputs: PhaseInputs | None, player: PlayerState
    ) -> list[Event]:
        """The ruleset's consequences of a removal (a team told, a Leader gone, a room)."""
        return []

    def grant(
        self, state: GameState, inputs: PhaseInputs | None, name: str, grant: str, value: Any
    ) -> list[Event]:
        """Give `name` what the host grants (`host_grants`); events for him (private)."""
        known = ", ".join(self.host_grants) or "none"
        raise RulesError(f"ruleset {self.id} has no grant {grant!r} (grants: {known})")

    def end_outcomes(self, state: GameState) -> list[str]:
        """What the host may end the game with: a winning faction, a draw, or abandoned."""
        factions = [p.faction for p in state.players if p.faction]
        return [*dict.fromkeys(factions), DRAW, ABANDONED]

    def end_by_host(self, state: GameState, outcome: str) -> list[Event]:
        """The host ends the game early: `outcome` is a winning faction, `draw` or
        `abandoned`. The final post reveals every role, as the game's end does."""
        outcomes = self.end_outcomes(state)
        if outcome not in outcomes:
            raise RulesError(f"{outcome!r}: one of {', '.join(outcomes)}")
        state.finished = True
        state.winner = None if outcome == ABANDONED else outcome
        roles = {p.name: p.role for p in state.players}
        factions = {p.name: p.faction for p in state.players}
        alive = self.in_play(state)
        return [
            Event.public(
                "game_ended_by_host", outcome=outcome, roles=roles, factions=factions, alive=alive
            )
        ]


DRAW = "draw"
ABANDONED = "abandoned"


def drop_inputs_of(inputs: PhaseInputs, name: str) -> None:
    """The open phase forgets `name`'s vote, the votes for him and his orders."""
    inputs.votes.pop(name, None)
    voided = inputs.data.setdefault(VOTES_VOIDED, [])
    for voter, vote in list(inputs.votes.items()):
        if name in vote.targets:
            del inputs.votes[voter]
            if voter not in voided:
                voided.append(voter)
    inputs.orders.pop(name, None)


VOTED = "voted_by_activity"
"""`PhaseInputs.data` key: the seats that sent a vote that counts in the phase, as a
running game's activity store counts them (`engine.service.activity.voters`). A ruleset
with `missed_votes` takes it for who voted; without it (a scenario, a simulation) the
phase's standing votes say so."""


VOTES_VOIDED = "votes_voided_by_host"
"""`PhaseInputs.data` key: the voters whose vote the host's removal of its target voided
(they voted; a ruleset that warns a player who did not vote spares them)."""


_REGISTRY: dict[str, Ruleset] = {}


def register(ruleset: Ruleset, aliases: Iterable[str] = ()) -> Ruleset:
    for key in (ruleset.id, *aliases):
        if key in _REGISTRY and _REGISTRY[key] is not ruleset:
            raise RulesError(f"ruleset id {key!r} registered twice")
        _REGISTRY[key] = ruleset
    return ruleset


def get_ruleset(ruleset_id: str) -> Ruleset:
    try:
        return _REGISTRY[ruleset_id]
    except KeyError:
        known = ", ".join(sorted(_REGISTRY)) or "none loaded"
        raise RulesError(f"unknown ruleset {ruleset_id!r} (known: {known})") from None


def registered() -> list[str]:
    return sorted({r.id for r in _REGISTRY.values()})

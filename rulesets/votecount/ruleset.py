"""The `votecount` ruleset: only the day vote is counted (votecount.md)."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any, ClassVar

from engine.core import rng as rngmod
from engine.core.events import Event
from engine.core.grammar import Grammar
from engine.core.model import GameState, PlayerState
from engine.core.numbers import whole_number
from engine.core.orders import Channel, Order
from engine.core.phases import PhaseId
from engine.core.ruleset import (
    NOT_A_FLAG,
    NOT_ONE_OF,
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
from engine.core.warnings import N_, ParseWarning
from rulesets.votecount.grammar import GRAMMAR
from rulesets.votecount.help import how_to_vote
from rulesets.votecount.intake import (
    Intake,
    current_votes,
    leader_of,
    living_slots,
    majority,
    totals_of,
)
from rulesets.votecount.resolution import STEPS, new_day

OPTION_DEFAULTS: dict[str, Any] = {
    "vote_channel": "thread",
    "vote_line_start": False,
    "count_spoilers": False,
    "lenient_names": True,
    "no_lynch": False,
    "end": "plurality",
    "tie": "none",
    "on_deadline": "plurality",
    "weights": {},
    "cannot_vote": [],
    "cannot_be_voted": [],
    "replacements": {},
    "vote_count_cooldown_minutes": 60,
}

_CHOICES: dict[str, tuple[str, ...]] = {
    "vote_channel": ("thread", "pm", "both"),
    "end": ("plurality", "majority"),
    "tie": ("none", "all", "random", "first_to_reach"),
    "on_deadline": ("plurality", "none"),
}
_GRAMMARS: dict[tuple[bool, bool], Grammar] = {}
_FLAGS = [k for k, v in OPTION_DEFAULTS.items() if isinstance(v, bool)]
_STATE_FIELDS = {"alive"}


class Votecount(Ruleset):
    id: ClassVar[str] = "votecount"
    title: ClassVar[str] = "Подсчёт голосов (vote count)"
    grammar: ClassVar[Grammar] = GRAMMAR
    phase_kind: ClassVar[str] = "day"
    templates: ClassVar[str] = "rulesets.votecount.templates"

    def grammar_for(self, options: Mapping[str, Any]) -> Grammar:
        """Spoilers count only where the host says so (`count_spoilers`); with
        `vote_line_start` a vote must open its line, so only one vote per line is read."""
        switches = (bool(options.get("count_spoilers")), bool(options.get("vote_line_start")))
        if switches not in _GRAMMARS:  # one object per variant: the matcher caches by identity
            spoilers, line_start = switches
            _GRAMMARS[switches] = replace(
                self.grammar,
                count_spoilers=spoilers,
                line_start=line_start or self.grammar.line_start,
                clause_votes=not line_start,
            )
        return _GRAMMARS[switches]

    option_defaults: ClassVar[Mapping[str, Any]] = OPTION_DEFAULTS
    vote_channel: ClassVar[Channel] = Channel.THREAD

    def check_options(self, options: dict[str, Any]) -> None:
        for key, allowed in _CHOICES.items():
            if options[key] not in allowed:
                raise RulesError(
                    NOT_ONE_OF.format(key=key, value=repr(options[key]), allowed=allowed)
                )
        for key in _FLAGS:
            if not isinstance(options[key], bool):
                raise RulesError(NOT_A_FLAG.format(key=key, value=repr(options[key])))
        for key in ("weights", "replacements"):
            if not isinstance(options[key], Mapping):
                raise RulesError(N_("option {key}: expected a mapping").format(key=key))
            options[key] = dict(options[key])
        for name, value in options["weights"].items():
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                said = N_("option weights: {name}: expected a whole number >= 0")
                raise RulesError(said.format(name=name))
        for key in ("cannot_vote", "cannot_be_voted"):
            if not isinstance(options[key], list):
                raise RulesError(N_("option {key}: expected a list of names").format(key=key))
        cooldown = options["vote_count_cooldown_minutes"]
        if not isinstance(cooldown, int) or isinstance(cooldown, bool) or cooldown < 0:
            said = N_("option {key}: expected minutes >= 0, got {value}")
            key = "vote_count_cooldown_minutes"
            raise RulesError(said.format(key=key, value=repr(cooldown)))

    def private_messages_needed(self, options: Mapping[str, Any]) -> str | None:
        """Only PM votes need them (`vote_channel` "pm" or "both"): thread votes do not."""
        channel = self.options(options)["vote_channel"]
        if channel == "thread":
            return None
        return f'vote_channel = "{channel}" takes votes by private message'

    # -- setup -----------------------------------------------------------------------------

    def setup(
        self, seats: Sequence[Seat], options: Mapping[str, Any] | None, seed: int
    ) -> tuple[GameState, list[Event]]:
        opts = self.options(options)
        names = [s.name for s in seats]
        if len(set(names)) != len(names):
            raise RulesError(N_("player names must be unique"))
        if len(names) < 2:
            raise RulesError(N_("a game needs at least two players"))
        listed = [
            (key, name)
            for key in ("weights", "cannot_vote", "cannot_be_voted")
            for name in opts[key]
        ]
        listed += [("replacements", name) for name in opts["replacements"].values()]
        for key, name in listed:  # the option that names him is the game file's line
            if name not in names:
                said = N_("options name {name}, who is not a player").format(name=repr(name))
                raise RulesError(said, where=("options", key))
        players = []
        for seat in seats:
            fields: dict[str, Any] = {"alive": True}
            for key, value in seat.state.items():
                if key not in _STATE_FIELDS:
                    raise RulesError(f"{seat.name}: unknown state field {key!r} for votecount")
                fields[key] = bool(value)
            players.append(PlayerState(seat.name, seat.role, None, fields))
        rng = random.Random(seed)
        state = GameState(self.id, opts, players, PhaseId("day", 1), rngmod.snapshot(rng))
        living = living_slots(state)
        started = Event.public(
            "game_started", players=living, deadline=None, orders=how_to_vote(state, living)
        )
        return state, [started]

    # -- intake and resolution -------------------------------------------------------------

    def intake(self, state: GameState, inputs: PhaseInputs, order: Order) -> IntakeResult:
        return Intake(state, inputs).take(order)

    def keep_parse_warnings(
        self, channel: Channel, warnings: list[ParseWarning]
    ) -> list[ParseWarning]:
        """Posts are mostly chatter: keep what is about a vote, not "no command here"."""
        return [w for w in warnings if w.code != "unknown_command"]

    def new_resolution(
        self, state: GameState, inputs: PhaseInputs, rng: random.Random
    ) -> Resolution:
        return new_day(state, inputs, rng)

    @property
    def steps(self) -> Sequence[Step[Any]]:
        return STEPS

    def resolve(self, state: GameState, inputs: PhaseInputs, *, in_place: bool = False) -> Resolved:
        resolved = super().resolve(state, inputs, in_place=in_place)
        if inputs.phase.id.kind == "day":
            resolved.state.phase = self.next_phase(state)
        return resolved

    # -- views -----------------------------------------------------------------------------

    host_grants: ClassVar[Mapping[str, str]] = {
        "weight": N_("what the player's vote counts from now on (a whole number, 0 or more)"),
        "cannot_vote": N_("yes: his votes no longer count; no: they count again"),
    }

    def grant(
        self, state: GameState, inputs: PhaseInputs | None, name: str, grant: str, value: Any
    ) -> list[Event]:
        """A vote weight or «cannot vote» changed by the host: the counts follow at once."""
        if grant not in self.host_grants:
            return super().grant(state, inputs, name, grant, value)
        if not state.has_player(name):
            raise RulesError(N_("«{name}» is not a player of this game").format(name=name))
        options = state.options
        if grant == "weight":
            weight = whole_number(str(value).strip())
            if weight is None:
                said = N_("weight: a whole number 0 or more, not «{value}»")
                raise RulesError(said.format(value=value))
            options["weights"] = {**options["weights"], name: weight}
            return [Event.public("vote_weight_set", player=name, weight=weight)]
        word = str(value).strip().casefold()
        if word not in ("yes", "no", "true", "false", "да", "нет"):
            raise RulesError(N_("cannot_vote: yes or no, not «{value}»").format(value=value))
        banned = word in ("yes", "true", "да")
        listed = [n for n in options["cannot_vote"] if n != name]
        options["cannot_vote"] = [*listed, name] if banned else listed
        if banned and inputs is not None:
            inputs.votes.pop(name, None)
        return [Event.public("cannot_vote_set", player=name, cannot_vote=banned)]

    def in_play(self, state: GameState) -> list[str]:
        return living_slots(state)

    def player_view(self, state: GameState, name: str) -> dict[str, Any]:
        view = super().player_view(state, name)
        view["in_play"] = name in living_slots(state)
        return view

    def vote_view(self, state: GameState, inputs: PhaseInputs, *, public: bool) -> VoteView:
        """Thread votes are public: everyone sees the same count."""
        votes = current_votes(state, inputs)
        totals = totals_of(state, votes)
        return VoteView(
            phase=str(inputs.phase.id),
            secret=False,
            votes=votes,
            totals=totals,
            not_voting=[v for v, t in votes.items() if t is None],
            leader=leader_of(totals),
            majority=majority(state),
        )

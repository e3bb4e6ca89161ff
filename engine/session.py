"""One game in memory: its state, the open phase's ledger, and the flow intake → resolve.

The scenario runner, the demo and the service all drive games through this class, so a
post is read the same way everywhere: BBCode or board HTML → PostBody → the ruleset's
grammar → orders → the ruleset's intake.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from engine.core.events import Event
from engine.core.model import GameState
from engine.core.orders import Channel, Order, Source
from engine.core.phases import Phase
from engine.core.ruleset import PhaseInputs, RulesError, Ruleset, Seat
from engine.core.warnings import ParseWarning
from forums.records import PostBody
from scraper.matcher import DEFAULT_MAX_CHARS, ParseResult, parse_post
from scraper.nicknames import NameResolver


@dataclass
class PhaseLog:
    """What happened in one phase: every event and warning, in order."""

    phase: Phase
    events: list[Event] = field(default_factory=list)
    warnings: list[ParseWarning] = field(default_factory=list)
    in_play_before: list[str] = field(default_factory=list)
    in_play_after: list[str] = field(default_factory=list)
    resolution: list[Event] = field(default_factory=list)
    """The events of the resolution alone (the results post and private results)."""


class GameSession:
    """Drives one game: open a phase, take commands, resolve at the deadline."""

    def __init__(
        self,
        ruleset: Ruleset,
        state: GameState,
        aliases: Mapping[str, Sequence[str]] | None = None,
        *,
        max_post_chars: int | None = None,
    ):
        self.ruleset = ruleset
        self.state = state
        self.aliases = dict(aliases or {})
        self.max_post_chars = max_post_chars or DEFAULT_MAX_CHARS
        """Characters of one post or PM read (`[game] max_post_chars`)."""
        self.inputs: PhaseInputs | None = None
        self.log: PhaseLog | None = None
        self.history: list[PhaseLog] = []
        self.pending_setup: list[Event] = []
        self._resolver: NameResolver | None = None

    @classmethod
    def new(
        cls,
        ruleset: Ruleset,
        seats: Sequence[Seat],
        options: Mapping[str, Any] | None,
        seed: int,
        aliases: Mapping[str, Sequence[str]] | None = None,
    ) -> GameSession:
        state, events = ruleset.setup(seats, options, seed)
        session = cls(ruleset, state, aliases)
        session.pending_setup = events
        return session

    def all_aliases(self) -> dict[str, list[str]]:
        """The host's aliases and the ruleset's own other names of players (characters)."""
        aliases = {k: list(v) for k, v in self.aliases.items()}
        for name, more in self.ruleset.name_aliases(self.state).items():
            aliases.setdefault(name, []).extend(m for m in more if m not in aliases[name])
        return aliases

    @property
    def resolver(self) -> NameResolver:
        if self._resolver is None:
            lenient = bool(self.state.options.get("lenient_names", False))
            self._resolver = NameResolver(self.state.names, self.all_aliases(), lenient=lenient)
        return self._resolver

    def open_phase(
        self, opened_at: datetime, deadline: datetime, next_deadline: datetime | None = None
    ) -> PhaseLog:
        if self.state.finished:
            raise RuntimeError("the game is over")
        phase_id = self.state.phase or self.ruleset.first_phase(self.state)
        self.state.phase = phase_id
        phase = Phase(phase_id, opened_at, deadline)
        self.inputs = PhaseInputs(phase)
        self.inputs.data["next_deadline"] = next_deadline or deadline + (deadline - opened_at)
        self.log = PhaseLog(phase, in_play_before=self.ruleset.in_play(self.state))
        if self.pending_setup:
            # Setup events learn the first deadline only now that the schedule is known.
            self.log.events.extend(
                Event(e.type, {**e.fields, "deadline": deadline.isoformat()}, e.audience, e.to)
                if e.type == "game_started" and e.fields.get("deadline") is None
                else e
                for e in self.pending_setup
            )
            self.pending_setup = []
        return self.log

    def _open(self) -> tuple[PhaseInputs, PhaseLog]:
        if self.inputs is None or self.log is None:
            raise RuntimeError("no phase is open")
        return self.inputs, self.log

    def submit(self, order: Order) -> tuple[list[Event], list[ParseWarning]]:
        """Take one structured order; returns what it produced."""
        inputs, log = self.inputs, self.log  # self._open() written out: every order asks
        if inputs is None or log is None:
            raise RuntimeError("no phase is open")
        result = self.ruleset.intake(self.state, inputs, order)
        if result.events:
            log.events.extend(result.events)
        if result.warnings:
            log.warnings.extend(result.warnings)
        return result.events, result.warnings

    def read(
        self,
        player: str,
        body: PostBody,
        channel: Channel,
        *,
        at: datetime | None = None,
        post_id: str | None = None,
        url: str | None = None,
    ) -> ParseResult:
        """Parse a post or PM with the ruleset's grammar, taking nothing.

        The result depends only on the arguments and `parse_context()`, so it may be kept
        and handed to `submit_parsed` again instead of parsing the same post twice.
        """
        return parse_post(
            body,
            self.ruleset.grammar_for(self.state.options),
            self.resolver,
            sender=player,
            channel=channel,
            source=Source(channel, post_id, url),
            at=at,
            max_chars=self.max_post_chars,
        )

    def submit_post(
        self,
        player: str,
        body: PostBody,
        channel: Channel,
        *,
        at: datetime | None = None,
        post_id: str | None = None,
        url: str | None = None,
        rewrite: Callable[[Order], Order | None] | None = None,
    ) -> tuple[list[Event], list[ParseWarning]]:
        """Parse a post or PM with the ruleset's grammar and take every command in it.

        `rewrite` lets the host's overrides replace (or drop, with None) a parsed order.
        """
        parsed = self.read(player, body, channel, at=at, post_id=post_id, url=url)
        return self.submit_parsed(player, channel, parsed, body.text(), rewrite=rewrite)

    def parse_context(self) -> dict[str, Any]:
        """Everything besides the post that `read` reads: grammar, roster, aliases, cap."""
        return {
            "ruleset": self.ruleset.id,
            "grammar": self.ruleset.grammar_for(self.state.options),
            "names": list(self.state.names),
            "aliases": dict(sorted(self.all_aliases().items())),
            "lenient": bool(self.state.options.get("lenient_names", False)),
            "max_chars": self.max_post_chars,
        }

    @property
    def reads_posts(self) -> bool:
        """Whether the ruleset reads whole posts besides their commands (`read_post`)."""
        return type(self.ruleset).read_post is not Ruleset.read_post

    def submit_parsed(
        self,
        player: str,
        channel: Channel,
        parsed: ParseResult,
        text: str,
        *,
        rewrite: Callable[[Order], Order | None] | None = None,
    ) -> tuple[list[Event], list[ParseWarning]]:
        """Take what `read` parsed: its warnings as the ruleset keeps them, the post's `text`
        as the ruleset reads whole posts (only where `reads_posts`), then each order."""
        inputs, log = self._open()
        kept = self.ruleset.keep_parse_warnings(channel, list(parsed.warnings))
        warnings: list[ParseWarning] = list(kept)
        log.warnings.extend(kept)
        events = self.ruleset.answer_parse_warnings(self.state, player, channel, kept)
        log.events.extend(events)
        seen = self.ruleset.read_post(self.state, inputs, player, channel, text)
        log.events.extend(seen.events)
        log.warnings.extend(seen.warnings)
        events, warnings = events + seen.events, warnings + seen.warnings
        for parsed_order in parsed.orders:
            order = rewrite(parsed_order) if rewrite is not None else parsed_order
            if order is None:
                continue  # the host dropped this order
            e, w = self.submit(order)
            events.extend(e)
            warnings.extend(w)
        return events, warnings

    def apply_measure(self, kind: str, player: str, detail: Mapping[str, Any]) -> list[Event]:
        """A host's measure on the open phase (`remove`, `grant` or `end`), through the
        ruleset; its events join the phase's log. Raises RulesError when the rules refuse."""
        return apply_measure(self.ruleset, self.state, self.inputs, self.log, kind, player, detail)

    def end_phase_early(self) -> PhaseLog:
        """The host ended the game in the open phase: it is not resolved, its log is kept."""
        _, log = self._open()
        log.in_play_after = self.ruleset.in_play(self.state)
        self.history.append(log)
        self.inputs, self.log = None, None
        return log

    def resolve(self, *, in_place: bool = False) -> PhaseLog:
        """Resolve the open phase. `in_place`: nobody keeps the state before the resolution
        (a simulation), so the ruleset need not copy it first."""
        inputs, log = self._open()
        resolved = self.ruleset.resolve(self.state, inputs, in_place=in_place)
        self.state = resolved.state
        log.events.extend(resolved.events)
        log.resolution = list(resolved.events)
        log.in_play_after = self.ruleset.in_play(self.state)
        self.history.append(log)
        self.inputs, self.log = None, None
        return log

    @staticmethod
    def day_after(moment: datetime) -> datetime:
        return moment + timedelta(days=1)


MEASURES = ("remove", "grant", "end")
"""What a host may do to a running game that its phases are read with."""


def apply_measure(
    ruleset: Ruleset,
    state: GameState,
    inputs: PhaseInputs | None,
    log: PhaseLog | None,
    kind: str,
    player: str,
    detail: Mapping[str, Any],
) -> list[Event]:
    """Apply one host measure to `state` (and the open phase's `inputs`, if any)."""
    if kind == "remove":
        reveal = detail.get("reveal")
        events = ruleset.remove_player(
            state, inputs, player, reveal=None if reveal is None else bool(reveal)
        )
    elif kind == "grant":
        events = ruleset.grant(state, inputs, player, str(detail["grant"]), detail.get("value"))
    elif kind == "end":
        events = ruleset.end_by_host(state, str(detail["outcome"]))
    else:
        raise RulesError(f"unknown host measure {kind!r} (known: {', '.join(MEASURES)})")
    if log is not None:
        log.events.extend(events)
    return events

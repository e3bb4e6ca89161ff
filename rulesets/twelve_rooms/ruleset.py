"""The `twelve-rooms` ruleset: «12 комнат», a mafia game on a hidden map (seed 000)."""

from __future__ import annotations

import random
import re
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from engine.core import rng as rngmod
from engine.core.events import Event
from engine.core.grammar import Grammar
from engine.core.model import GameState, PlayerState
from engine.core.numbers import whole_number
from engine.core.orders import Channel, Order
from engine.core.phases import PhaseId
from engine.core.ruleset import (
    IntakeResult,
    PhaseInputs,
    Resolved,
    RulesError,
    Ruleset,
    Seat,
    Step,
    VoteView,
)
from engine.core.warnings import N_, ParseWarning
from rulesets.twelve_rooms import codes
from rulesets.twelve_rooms.context import Turn
from rulesets.twelve_rooms.endturn import position_events, room_events
from rulesets.twelve_rooms.grammar import GRAMMAR
from rulesets.twelve_rooms.help import refusal_extra
from rulesets.twelve_rooms.intake import Intake
from rulesets.twelve_rooms.resolution import PLACEMENT_STEPS, TURN_STEPS, new_turn
from rulesets.twelve_rooms.roles import ROLES
from rulesets.twelve_rooms.rooms import LAUGHTER, ROOM_TYPES
from rulesets.twelve_rooms.setup import (
    OPTION_DEFAULTS,
    check_options,
    new_game,
    setup_events,
)
from rulesets.twelve_rooms.state import alive, effective_status, living, role_state, room_type

_TEXT_RE = re.compile(r"[^\W_]")


class TwelveRooms(Ruleset):
    id: ClassVar[str] = "twelve-rooms"
    title: ClassVar[str] = "12 комнат"
    grammar: ClassVar[Grammar] = GRAMMAR
    option_defaults: ClassVar[Mapping[str, Any]] = OPTION_DEFAULTS
    vote_channel: ClassVar[Channel] = Channel.PM
    missed_votes: ClassVar[bool] = True
    templates: ClassVar[str] = "rulesets.twelve_rooms.templates"
    role_ids: ClassVar[tuple[str, ...]] = tuple(ROLES)
    deal_option: ClassVar[str | None] = "roles"

    def check_options(self, options: dict[str, Any]) -> None:
        check_options(options)

    def setup(
        self, seats: Sequence[Seat], options: Mapping[str, Any] | None, seed: int
    ) -> tuple[GameState, list[Event]]:
        opts = self.options(options)
        state = new_game(self.id, seats, opts, seed)
        # Everybody learns his starting room (mafia: who shares each member's room); without
        # a `turn 0` the cameras and the detector report with the opening post (§2.1, §3.8).
        report = [] if opts["placement_phase"] else room_events(state, 0)
        return state, setup_events(state, report + position_events(state))

    def game_file_options(self, players: Sequence[str]) -> str:
        """The map's shape, turn 0, a commented layout and the rooms chosen at sign-up."""
        rooms = "\n".join(f'# "{name}" = 1' for name in players)
        layout = ", ".join(f'"{kind}"' for kind in ROOM_TYPES)
        return (
            "rows = 3                     # the map: rows × cols rooms, numbered row by row\n"
            "cols = 4\n"
            "placement_phase = true       # turn 0: the mafia may change its starting rooms\n"
            f"# layout = [{layout}]  # default: a random map from the seed\n"
            "[options.start_rooms]        # the room each player chose at sign-up (else random)\n"
            f"{rooms}\n"
        )

    # -- phases ----------------------------------------------------------------------------

    def first_phase(self, state: GameState) -> PhaseId:
        return PhaseId("turn", 0 if state.options["placement_phase"] else 1)

    def next_phase(self, state: GameState) -> PhaseId:
        current = state.phase or self.first_phase(state)
        return PhaseId("turn", current.number + 1)

    # -- intake and resolution -------------------------------------------------------------

    def intake(self, state: GameState, inputs: PhaseInputs, order: Order) -> IntakeResult:
        return Intake(state, inputs).take(order)

    def keep_parse_warnings(
        self, channel: Channel, warnings: list[ParseWarning]
    ) -> list[ParseWarning]:
        """The thread carries talk, not orders (§1): a misread name there is chatter."""
        return [] if channel is Channel.THREAD else warnings

    def answer_parse_warnings(
        self, state: GameState, player: str, channel: Channel, warnings: list[ParseWarning]
    ) -> list[Event]:
        """A PM the parser could not take gets a reply, so the player can send it again."""
        if channel is not Channel.PM or not state.has_player(player):
            return []
        if not alive(state.player(player)):
            return []
        return [
            Event.private(
                player,
                "order_rejected",
                action=w.action or "order",
                reason=w.code,
                **refusal_extra(state, player, w.action or "order", w.code),
            )
            for w in warnings
            if not w.accepted
        ]

    def read_post(
        self, state: GameState, inputs: PhaseInputs, player: str, channel: Channel, text: str
    ) -> IntakeResult:
        """Комната смеха: a thread post with letters or digits from there is flagged (§4, D21)."""
        out = IntakeResult()
        if channel is not Channel.THREAD or not state.has_player(player):
            return out
        p = state.player(player)
        if (
            alive(p)
            and room_type(state, int(p.fields["room"])) == LAUGHTER
            and _TEXT_RE.search(text)
        ):
            out.warnings.append(
                ParseWarning(
                    codes.LAUGHTER_VIOLATION,
                    codes.MESSAGES[codes.LAUGHTER_VIOLATION],
                    player,
                    accepted=True,
                )
            )
        return out

    def new_resolution(self, state: GameState, inputs: PhaseInputs, rng: random.Random) -> Turn:
        return new_turn(state, inputs, rng)

    @property
    def steps(self) -> Sequence[Step[Any]]:
        return TURN_STEPS

    def resolve(self, state: GameState, inputs: PhaseInputs, *, in_place: bool = False) -> Resolved:
        work = state if in_place else state.copy()
        rng = rngmod.restore(work.rng)
        ctx = self.new_resolution(work, inputs, rng)
        for step in PLACEMENT_STEPS if inputs.phase.id.number == 0 else TURN_STEPS:
            step.run(ctx)
        ctx.state.rng = rngmod.snapshot(rng)
        if not ctx.state.finished:
            ctx.state.phase = PhaseId("turn", inputs.phase.id.number + 1)
        return Resolved(ctx.events, ctx.state)

    # -- views -----------------------------------------------------------------------------

    host_grants: ClassVar[Mapping[str, str]] = {
        "vest": N_("vests given (a whole number, 1 by default) (§7.4)"),
        "immunity": N_("immune through this turn number (§7.3, §7.4)"),
    }

    def after_removal(
        self, state: GameState, inputs: PhaseInputs | None, player: PlayerState
    ) -> list[Event]:
        """A removed player leaves the map: his room counts him no more (the safe room's
        places, the sticky room's last one), his pending eliminations are void and no
        deputy inherits from him (an administrative removal, like inactivity, §2.5). Only
        the host learns the room he left."""
        player.fields["pending_kills"] = []
        return [Event.host("left_room", player=player.name, room=player.fields.get("room"))]

    def grant(
        self, state: GameState, inputs: PhaseInputs | None, name: str, grant: str, value: Any
    ) -> list[Event]:
        """§7.4: the host grants a vest (used with «броник» like any other) or immunity
        from elimination (except inactivity) through turn `value`."""
        if grant not in self.host_grants:
            return super().grant(state, inputs, name, grant, value)
        if name not in living(state):
            raise RulesError(N_("{name} is not in play").format(name=name))
        p = state.player(name)
        if grant == "vest":
            count = _whole(value, 1)
            if count is None or count < 1:
                raise RulesError(N_("vest: give at least 1"))
            p.fields["vests"] = int(p.fields.get("vests", 0)) + count
            return [Event.private(name, "vest_granted", count=count, vests=p.fields["vests"])]
        turn = state.phase.number if state.phase is not None else 0
        until = _whole(value, 0)
        if until is None or until < turn:
            said = N_("immunity: through a turn from {turn} on (the current turn)")
            raise RulesError(said.format(turn=turn))
        p.fields["immune_until"] = max(int(p.fields.get("immune_until", 0) or 0), until)
        return [Event.private(name, "immunity_granted", until=p.fields["immune_until"])]

    def in_play(self, state: GameState) -> list[str]:
        return living(state)

    def player_view(self, state: GameState, name: str) -> dict[str, Any]:
        """State fields of §12.4: the role-held ones flattened, `status` and `pending` derived."""
        p = state.player(name)
        view = super().player_view(state, name)
        view.update(role_state(p))
        turn = state.phase.number if state.phase is not None else 1
        view["status"] = effective_status(state, p, turn)
        view["pending"] = [str(k["cause"]) for k in p.fields.get("pending_kills", [])]
        return view

    def host_picture(self, state: GameState, lang: str) -> str | None:
        """The map: rooms, their counters, who is where with which role (`forumgm map`)."""
        from rulesets.twelve_rooms.mapview import svg_map

        return svg_map(state, lang if lang in ("ru", "en") else "ru")

    def vote_view(self, state: GameState, inputs: PhaseInputs, *, public: bool) -> VoteView:
        """Votes go by PM and are secret until the results; the host sees them as they come."""
        phase = str(inputs.phase.id)
        if public:
            return VoteView(phase, True, {}, {}, [], None)
        names = living(state)
        votes: dict[str, str | None] = {}
        totals: dict[str, int] = {}
        weights: dict[str, float] = {}
        for name in names:
            order = inputs.votes.get(name)
            target = order.target if order is not None else None
            votes[name] = target
            # What the vote counts this turn (the weight the player's PM told him; turn 1: 1).
            weight = (
                1
                if inputs.phase.id.number == 1
                else int(state.player(name).fields.get("vote_weight", 1))
            )
            if weight != 1:
                weights[name] = weight
            if target is not None:
                totals[target] = totals.get(target, 0) + weight
        top = max(totals.values(), default=0)
        leaders = [k for k, v in totals.items() if v == top]
        return VoteView(
            phase=phase,
            secret=True,
            votes=votes,
            totals=totals,
            not_voting=[n for n in names if votes[n] is None],
            leader=leaders[0] if len(leaders) == 1 and top else None,
            weights=weights,
        )


def _whole(value: Any, default: int) -> int | None:
    """A grant's value as a whole number (`default` when none is given); None when it is no
    whole number («two», «-1», «1.5»): the host's typing is refused, never a traceback."""
    if value in (None, ""):
        return default
    return whole_number(str(value).strip())

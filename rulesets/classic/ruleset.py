"""The `classic` ruleset: classic forum mafia after the 2008 rules (seed 002, classic.md)."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from engine.core.events import Event
from engine.core.grammar import Grammar
from engine.core.model import GameState, PlayerState
from engine.core.orders import Channel, Order
from engine.core.phases import PhaseId
from engine.core.ruleset import (
    NOT_A_FLAG,
    NOT_ONE_OF,
    UNKNOWN_ROLE,
    IntakeResult,
    PhaseInputs,
    Resolution,
    RulesError,
    Ruleset,
    Seat,
    Step,
    VoteView,
)
from engine.core.warnings import N_, Nn_, ParseWarning
from rulesets.classic.grammar import GRAMMAR
from rulesets.classic.help import orders_of, refusal
from rulesets.classic.intake import Intake, current_votes, totals_of
from rulesets.classic.resolution import STEPS, new_turn
from rulesets.classic.roles import CLAN, CLANS, MAFIA, ROLES, TOWN
from rulesets.classic.state import check_immune, in_play, in_play_names

OPTION_DEFAULTS: dict[str, Any] = {
    "clans": 1,
    "roles": None,
    "outcast_joins": "perished_clan",
    "reveal_role_on_death": True,
    "publish_final_votes": True,
    "early_end": True,
    "strict_vote_forms": False,
    "all_actions_each_turn": True,
    "team_shot_by": "mafioso",
    "peek_sees_poison": True,
    "report_team_shot_miss": True,
    "notify_blocked": True,
    "anon_out_of_play": True,
    "rating_cooldown_minutes": 10,
    "anon_cooldown_minutes": 10,
    "ack_commands": True,
    "remind_thread_votes": False,
    "role_pm_orders": True,
}

_CHOICES: dict[str, tuple[Any, ...]] = {
    "clans": (1, 2),
    "outcast_joins": ("perished_clan", "surviving_clan"),
    "team_shot_by": ("mafioso", "any_member"),
}
_FLAGS = [k for k, v in OPTION_DEFAULTS.items() if isinstance(v, bool)]
_STATE_FIELDS = {"alive", "free", "poisoned", "faction", "joined"}


class Classic(Ruleset):
    id: ClassVar[str] = "classic"
    title: ClassVar[str] = "Классическая форумная мафия (2008)"
    grammar: ClassVar[Grammar] = GRAMMAR
    option_defaults: ClassVar[Mapping[str, Any]] = OPTION_DEFAULTS
    vote_channel: ClassVar[Channel] = Channel.PM
    templates: ClassVar[str] = "rulesets.classic.templates"
    role_ids: ClassVar[tuple[str, ...]] = tuple(ROLES)
    deal_option: ClassVar[str | None] = "roles"

    def check_options(self, options: dict[str, Any]) -> None:
        for key, allowed in _CHOICES.items():
            if options[key] not in allowed:
                raise RulesError(
                    NOT_ONE_OF.format(key=key, value=repr(options[key]), allowed=allowed)
                )
        for key in _FLAGS:
            if not isinstance(options[key], bool):
                raise RulesError(NOT_A_FLAG.format(key=key, value=repr(options[key])))
        for key in ("rating_cooldown_minutes", "anon_cooldown_minutes"):
            cooldown = options[key]
            if not isinstance(cooldown, int) or isinstance(cooldown, bool) or cooldown < 0:
                said = N_("option {key}: expected minutes >= 0, got {value}")
                raise RulesError(said.format(key=key, value=repr(cooldown)))
        roles = options["roles"]
        if roles is not None and not isinstance(roles, Mapping):
            raise RulesError(N_("option roles: expected a mapping {role: count}"))

    # -- setup (§2.2) ----------------------------------------------------------------------

    def setup(
        self, seats: Sequence[Seat], options: Mapping[str, Any] | None, seed: int
    ) -> tuple[GameState, list[Event]]:
        opts = self.options(options)
        names = [s.name for s in seats]
        if len(set(names)) != len(names):
            raise RulesError(N_("player names must be unique"))
        if len(names) < 2:
            raise RulesError(N_("a game needs at least two players"))
        rng = random.Random(seed)
        dealt = _deal(seats, opts, rng)
        players = []
        for seat, (role, faction) in zip(seats, dealt, strict=True):
            fields: dict[str, Any] = {"alive": True, "free": True, "poisoned": False}
            if role == "outcast":
                fields["joined"] = False
            for key, value in seat.state.items():
                if key not in _STATE_FIELDS:
                    raise RulesError(f"{seat.name}: unknown state field {key!r} for classic")
                if key == "faction":
                    faction = str(value)
                else:
                    fields[key] = value
            players.append(PlayerState(seat.name, role, faction, fields))
        if any(p.role == "outcast" for p in players) and not any(
            p.faction in CLANS for p in players
        ):
            raise RulesError(N_("an outcast needs a clan in the game"))
        opts["clans"] = 2 if any(p.faction == "mafia_b" for p in players) else opts["clans"]
        state = GameState(self.id, opts, players, PhaseId("turn", 1))
        state.keep(rng)  # the dealt stream, written out when the state is first stored
        return state, _setup_events(state)

    # -- intake and resolution -------------------------------------------------------------

    def intake(self, state: GameState, inputs: PhaseInputs, order: Order) -> IntakeResult:
        return Intake(state, inputs).take(order)

    def keep_parse_warnings(
        self, channel: Channel, warnings: list[ParseWarning]
    ) -> list[ParseWarning]:
        """Thread text carries no orders in classic (§10): a misread name there is chatter."""
        return [] if channel is Channel.THREAD else warnings

    def answer_parse_warnings(
        self, state: GameState, player: str, channel: Channel, warnings: list[ParseWarning]
    ) -> list[Event]:
        """A PM the parser could not take gets a reply, so the player can fix it in time (§2.3)."""
        if (
            channel is not Channel.PM
            or not state.options["ack_commands"]
            or not state.has_player(player)
        ):
            return []
        return [
            Event.private(
                player, "order_rejected", **refusal(state, player, w.action or "order", w.code)
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
        return STEPS

    def resolve(self, state: GameState, inputs: PhaseInputs, *, in_place: bool = False) -> Any:
        resolved = super().resolve(state, inputs, in_place=in_place)
        if not resolved.state.finished:
            resolved.state.phase = self.next_phase(state)
        return resolved

    # -- views -----------------------------------------------------------------------------

    def after_removal(
        self, state: GameState, inputs: PhaseInputs | None, player: PlayerState
    ) -> list[Event]:
        """A removed clan member's team is told (in private) that he is out: its team shot
        is theirs alone from now on; a clan left with nobody in play loses at the win check."""
        if player.faction not in CLANS:
            return []
        team = [
            p.name
            for p in state.players
            if p.faction == player.faction and p.name != player.name and in_play(p)
        ]
        return [Event.private(team, "teammate_removed", player=player.name)] if team else []

    def in_play(self, state: GameState) -> list[str]:
        return in_play_names(state)

    def player_view(self, state: GameState, name: str) -> dict[str, Any]:
        view = super().player_view(state, name)
        p = state.player(name)
        view["in_play"] = in_play(p)
        view["check_immune"] = check_immune(p)
        return view

    def vote_view(self, state: GameState, inputs: PhaseInputs, *, public: bool) -> VoteView:
        """PM votes are secret: only the host sees them, and a rating request publishes them."""
        votes = current_votes(state, inputs)
        alive = in_play_names(state)
        totals = totals_of(state, votes)
        top = max(totals.values(), default=0)
        leaders = [n for n, c in totals.items() if c == top]
        if public:
            return VoteView(str(inputs.phase.id), True, {}, {}, [], None)
        return VoteView(
            phase=str(inputs.phase.id),
            secret=True,
            votes={n: votes.get(n) for n in alive},
            totals=totals,
            not_voting=[n for n in alive if n not in votes],
            leader=leaders[0] if len(leaders) == 1 else None,
        )


def _deal(seats: Sequence[Seat], opts: dict[str, Any], rng: random.Random) -> list[tuple[str, str]]:
    """Roles in seating order: the host's where given, the rest shuffled by the seeded RNG."""
    for seat in seats:
        if seat.role is not None and seat.role not in ROLES:
            raise RulesError(
                UNKNOWN_ROLE.format(name=seat.name, role=repr(seat.role), known=", ".join(ROLES))
            )
    missing = [s for s in seats if s.role is None]
    pool: list[tuple[str, str]] = []
    if missing:
        wanted = opts["roles"]
        if not wanted:
            raise RulesError(N_("players without a role and no `roles` option to deal from"))
        for key, count in wanted.items():
            role, _, clan = str(key).partition("@")
            if role not in ROLES:
                known = ", ".join(ROLES)
                said = N_("option roles: unknown role {role} (known: {known})")
                raise RulesError(said.format(role=repr(role), known=known))
            faction = ROLES[role].faction
            if faction == CLAN:
                faction = clan or MAFIA
                if faction not in CLANS:
                    said = N_("option roles: unknown clan {clan} (mafia or mafia_b)")
                    raise RulesError(said.format(clan=repr(clan)))
            pool.extend([(role, faction)] * int(count))
        if len(pool) != len(missing):
            said = Nn_(
                "option roles lists {n} role for {players} players",
                "option roles lists {n} roles for {players} players",
                len(pool),
            )
            raise RulesError(said.format(n=len(pool), players=len(missing)))
        given = [ROLES[s.role].faction for s in seats if s.role is not None]
        factions = {f for _, f in pool} | {MAFIA if f == CLAN else f for f in given}
        if TOWN not in factions or not factions & set(CLANS):
            raise RulesError(N_("a dealt game needs at least one town role and one clan role"))
        rng.shuffle(pool)
    dealt = iter(pool)
    out = []
    for seat in seats:
        if seat.role is None:
            out.append(next(dealt))
        else:
            faction = ROLES[seat.role].faction
            out.append((seat.role, MAFIA if faction == CLAN else faction))
    return out


def _setup_events(state: GameState) -> list[Event]:
    listed = state.options.get("role_pm_orders", True)
    events = [
        Event.private(
            p.name, "role_assigned", role=p.role, faction=p.faction, orders=orders_of(state, p.name)
        )
        if listed
        else Event.private(p.name, "role_assigned", role=p.role, faction=p.faction)
        for p in state.players
    ]
    outcasts = [p.name for p in state.players if p.role == "outcast"]
    for clan in CLANS:
        members = [p for p in state.players if p.faction == clan]
        if not members:
            continue
        roster = {p.name: p.role for p in members}
        for m in members:
            events.append(Event.private(m.name, "team_roster", faction=clan, members=roster))
            for outcast in outcasts:
                events.append(Event.private(m.name, "outcast_known", player=outcast))
    roles: dict[str | None, int] = {}  # a Counter's counts in a Counter's order, at a third
    for p in state.players:
        roles[p.role] = roles.get(p.role, 0) + 1
    clans = len({p.faction for p in state.players if p.faction in CLANS})
    events.append(
        Event.public("game_started", players=state.names, roles=roles, clans=clans, deadline=None)
    )
    return events

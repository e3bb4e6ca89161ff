"""The `yakuza` ruleset: Mafia vs Yakuza with hit points (seed 004, yakuza.md)."""

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
    NOT_A_FLAG,
    NOT_ONE_OF,
    UNKNOWN_ROLE,
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
from engine.core.warnings import N_, Nn_, ParseWarning
from rulesets.yakuza.grammar import GRAMMAR
from rulesets.yakuza.help import day_orders, night_orders, refusal
from rulesets.yakuza.hosting import hp_table
from rulesets.yakuza.intake import Intake
from rulesets.yakuza.resolution import DAY_STEPS, NIGHT_STEPS, new_phase
from rulesets.yakuza.roles import (
    ACTIONS,
    COMA,
    DEFAULT_SETUP,
    MAFIA,
    NO_LYNCH,
    NO_VISIBLE,
    ROLES,
    TEAM_ROLES,
    VISIBLE_ROLES,
    YAKUZA,
)
from rulesets.yakuza.state import (
    alive,
    alive_names,
    faction_for,
    max_hp_for,
    public_status_of,
    start_hp_for,
    status_from_hp,
)

OPTION_DEFAULTS: dict[str, Any] = {
    "min_players": 18,
    "setup": dict(DEFAULT_SETUP),
    "majority": "plurality",
    "day_commands": "last_post",
    "proxy_orders": True,
    "report_hp": "changed",
    "marks_per_shot": False,
    "message_strict": False,
    "coma_is_hospital": True,
    "neutral_joint_win": True,
    "ack_commands": True,
}
_CHOICES: dict[str, tuple[Any, ...]] = {
    "majority": ("plurality", "absolute"),
    "day_commands": ("last_post", "per_kind"),
    "report_hp": ("changed", "always"),
}
_FLAGS = [k for k, v in OPTION_DEFAULTS.items() if isinstance(v, bool)]

FIELD_DEFAULTS: dict[str, Any] = {
    "alive": True,
    "mortally_wounded": False,
    "fake_hp": None,
    "marks": 0,
    "disguise": None,
    "trapped": False,
    "contracted": False,
    "hunted": False,
    "mafia_double": False,
    "nagant_victim": None,
    "stored_shots": 0,
    "revolver_shots": 0,
    "disguises_left": 2,
    "copied_role": None,
    "looted": False,
    "has_katana": False,
    "auto_meditation": False,
}
_LIST_FIELDS = ("spent", "disinformed", "plagiarized")
STATE_FIELDS = {
    *FIELD_DEFAULTS,
    *_LIST_FIELDS,
    "hp",
    "max_hp",
    "status",
    "public_status",
    "faction",
    "has_pistol",
    "trapped_by",
}


class Yakuza(Ruleset):
    id: ClassVar[str] = "yakuza"
    title: ClassVar[str] = "Мафия против Якудзы"
    grammar: ClassVar[Grammar] = GRAMMAR
    option_defaults: ClassVar[Mapping[str, Any]] = OPTION_DEFAULTS
    vote_channel: ClassVar[Channel] = Channel.THREAD
    templates: ClassVar[str] = "rulesets.yakuza.templates"
    role_ids: ClassVar[tuple[str, ...]] = tuple(ROLES)
    deal_option: ClassVar[str | None] = "setup"
    deal_groups: ClassVar[tuple[str, ...]] = tuple(TEAM_ROLES)
    visible_role_ids: ClassVar[tuple[str, ...]] = VISIBLE_ROLES
    phase_kind: ClassVar[str] = "night"

    def check_options(self, options: dict[str, Any]) -> None:
        for key, allowed in _CHOICES.items():
            if options[key] not in allowed:
                raise RulesError(
                    NOT_ONE_OF.format(key=key, value=repr(options[key]), allowed=allowed)
                )
        for key in _FLAGS:
            if not isinstance(options[key], bool):
                raise RulesError(NOT_A_FLAG.format(key=key, value=repr(options[key])))
        if not isinstance(options["setup"], Mapping):
            raise RulesError(N_("option setup: expected a mapping {role or team: count}"))

    # -- setup (§4) ------------------------------------------------------------------------

    def setup(
        self, seats: Sequence[Seat], options: Mapping[str, Any] | None, seed: int
    ) -> tuple[GameState, list[Event]]:
        opts = self.options(options)
        names = [s.name for s in seats]
        if len(set(names)) != len(names):
            raise RulesError(N_("player names must be unique"))
        if len(names) < 2:
            raise RulesError(N_("a game needs at least two players"))
        visibles = [s.visible_role or NO_VISIBLE for s in seats]
        for seat, visible in zip(seats, visibles, strict=True):
            if visible != NO_VISIBLE and visible not in VISIBLE_ROLES:
                known = ", ".join(VISIBLE_ROLES)
                said = N_("{name}: unknown visible role {role} (known: {known})")
                raise RulesError(said.format(name=seat.name, role=repr(visible), known=known))
        holders: dict[str, list[str]] = {}
        for seat, visible in zip(seats, visibles, strict=True):
            if visible != NO_VISIBLE:
                holders.setdefault(visible, []).append(seat.name)
        for visible, who in holders.items():
            if len(who) > 1:
                said = N_("visible roles are unique: {role} is given to {names}")
                raise RulesError(said.format(role=visible, names=" and ".join(who)))
        rng = random.Random(seed)
        roles = _deal(seats, opts, rng)
        players = []
        for seat, role, visible in zip(seats, roles, visibles, strict=True):
            fields: dict[str, Any] = dict(FIELD_DEFAULTS)
            for key in _LIST_FIELDS:
                fields[key] = []
            fields["visible_role"] = visible
            fields["max_hp"] = max_hp_for(visible)
            fields["hp"] = start_hp_for(visible)
            faction = faction_for(role, ROLES[role].faction, opts)
            for key, value in seat.state.items():
                if key not in STATE_FIELDS:
                    raise RulesError(f"{seat.name}: unknown state field {key!r} for yakuza")
                if key == "faction":
                    faction = str(value)
                else:
                    fields[key] = value
            p = PlayerState(seat.name, role, faction, fields)
            if "status" not in seat.state:
                fields["status"] = status_from_hp(p, int(fields["hp"]), None)
                if fields["status"] == "dead":
                    fields["alive"] = False
            if "public_status" not in seat.state:
                fields["public_status"] = public_status_of(p, fields["status"])
            players.append(p)
        state = GameState(self.id, opts, players, None, rngmod.snapshot(rng))
        return state, _setup_events(state)

    def first_phase(self, state: GameState) -> PhaseId:
        return PhaseId("night", 1)

    def next_phase(self, state: GameState) -> PhaseId:
        current = state.phase or PhaseId("night", 0)
        if current.kind == "night":
            return PhaseId("day", current.number)
        return PhaseId("night", current.number + 1)

    # -- intake and resolution -------------------------------------------------------------

    def intake(self, state: GameState, inputs: PhaseInputs, order: Order) -> IntakeResult:
        return Intake(state, inputs).take(order)

    def keep_parse_warnings(
        self, channel: Channel, warnings: list[ParseWarning]
    ) -> list[ParseWarning]:
        """Thread chatter that merely resembles a command is not worth a warning."""
        if channel is Channel.THREAD:
            return [w for w in warnings if w.code not in ("unknown_command",)]
        return warnings

    def answer_parse_warnings(
        self, state: GameState, player: str, channel: Channel, warnings: list[ParseWarning]
    ) -> list[Event]:
        """A PM the parser could not take gets a reply (§10.1)."""
        if channel is not Channel.PM or not state.has_player(player):
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
        return new_phase(state, inputs, rng)

    @property
    def steps(self) -> Sequence[Step[Any]]:
        return NIGHT_STEPS

    def steps_for(self, kind: str) -> Sequence[Step[Any]]:
        return NIGHT_STEPS if kind == "night" else DAY_STEPS

    def resolve(self, state: GameState, inputs: PhaseInputs, *, in_place: bool = False) -> Resolved:
        work = state if in_place else state.copy()
        rng = rngmod.restore(work.rng)
        ctx = self.new_resolution(work, inputs, rng)
        for step in self.steps_for(inputs.phase.id.kind):
            step.run(ctx)
        ctx.state.rng = rngmod.snapshot(rng)
        if not ctx.state.finished:
            ctx.state.phase = self.next_phase(ctx.state)
        return Resolved(ctx.events, ctx.state)

    # -- views -----------------------------------------------------------------------------

    def after_removal(
        self, state: GameState, inputs: PhaseInputs | None, player: PlayerState
    ) -> list[Event]:
        """A removed player is dead to the rules (his HP no longer counts, nobody revives
        him: `status` dead), as a death would leave him."""
        from rulesets.yakuza.roles import DEAD

        player.fields["status"] = DEAD
        player.fields["mortally_wounded"] = False
        return []

    def in_play(self, state: GameState) -> list[str]:
        return alive_names(state)

    def player_view(self, state: GameState, name: str) -> dict[str, Any]:
        view = super().player_view(state, name)
        view.setdefault("mortally_wounded", False)
        return view

    def vote_view(self, state: GameState, inputs: PhaseInputs, *, public: bool) -> VoteView:
        """Votes are public posts in the thread: everybody may see them (weights included)."""
        from rulesets.yakuza.resolution import Phase, as_number, d2_tally, vote_weight

        votes: dict[str, str | None] = {}
        for name in alive_names(state):
            order = inputs.votes.get(name)
            votes[name] = order.target if order else None
        ctx = Phase(state.copy(), inputs, random.Random(0))
        for q in ctx.state.players:
            ctx.start_status[q.name] = str(q.fields.get("status"))
        if inputs.phase.id.kind == "day":
            d2_tally(ctx)
        tally = ctx.inputs.data.pop("tally", {})
        ctx.inputs.data.pop("extras", None)
        totals: dict[str, float] = {k: as_number(v) for k, v in tally.items()}
        top = max(tally.values(), default=0)
        leaders = [k for k, v in tally.items() if v == top]
        weights = {
            voter: float(vote_weight(state.player(voter), target, state))
            for voter, target in votes.items()
            if target is not None
        }
        return VoteView(
            phase=str(inputs.phase.id),
            secret=False,
            votes=votes,
            totals=totals,
            not_voting=[n for n, v in votes.items() if v is None],
            leader=leaders[0] if len(leaders) == 1 and top else None,
            weights={v: w for v, w in weights.items() if w != 1},
        )

    def host_tables(
        self, state: GameState, inputs: PhaseInputs | None, lang: str = "en"
    ) -> list[HostTable]:
        """Everybody's HP as it stands (§6), the secret numbers behind the public statuses."""
        return [hp_table(state, lang)]


def _deal(seats: Sequence[Seat], opts: dict[str, Any], rng: random.Random) -> list[str]:
    """Secret roles in seating order: the host's where given, the rest dealt by the RNG (§4.1)."""
    for seat in seats:
        if seat.role is not None and seat.role not in ROLES:
            raise RulesError(
                UNKNOWN_ROLE.format(name=seat.name, role=repr(seat.role), known=", ".join(ROLES))
            )
    missing = [s for s in seats if s.role is None]
    if not missing:
        return [str(s.role) for s in seats]
    pool: list[str] = []
    for key, count in dict(opts["setup"]).items():
        if key in TEAM_ROLES:
            roles = list(TEAM_ROLES[key])[: int(count)]
            pool.extend(roles)
        elif key in ROLES:
            pool.extend([key] * int(count))
        else:
            known = ", ".join([*TEAM_ROLES, *ROLES])
            said = N_("option setup: unknown role or team {role} (known: {known})")
            raise RulesError(said.format(role=repr(key), known=known))
    for seat in seats:
        if seat.role is not None and seat.role in pool:
            pool.remove(seat.role)
    if len(pool) > len(missing):
        said = Nn_(
            "the setup needs {n} players for {seats} open seats",
            "the setup needs {n} players for {seats} open seats",
            len(pool),
        )
        raise RulesError(said.format(n=len(pool), seats=len(missing)))
    pool.extend(["citizen"] * (len(missing) - len(pool)))
    rng.shuffle(pool)
    dealt = iter(pool)
    return [s.role if s.role is not None else next(dealt) for s in seats]


def abilities_of(p: PlayerState) -> list[dict[str, Any]]:
    role = ROLES[p.role or "citizen"]
    out = []
    for action in role.actions:
        spec = ACTIONS[action]
        limit = "once_per_game" if spec.once_per_game else "unlimited"
        if action == "disguise":
            limit = "2_per_game"
        if action == "disinformation":
            limit = "once_per_target"
        out.append({"action": action, "limit": limit})
    return out


def _setup_events(state: GameState) -> list[Event]:
    events = [
        Event.private(
            p.name,
            "role_assigned",
            role=p.role,
            faction=p.faction,
            visible_role=p.fields["visible_role"],
            hp=p.fields["hp"],
            max_hp=p.fields["max_hp"],
            abilities=abilities_of(p),
            orders=night_orders(state, p.name),
            day_orders=day_orders(state, p.name),
        )
        for p in state.players
    ]
    for team in (MAFIA, YAKUZA):
        members = [p for p in state.players if p.faction == team]
        roster = [{"player": p.name, "role": p.role} for p in members]
        for m in members:
            events.append(Event.private(m.name, "team", members=roster))
    events.append(
        Event.public(
            "game_started",
            players=state.names,
            visible_roles={p.name: p.fields["visible_role"] for p in state.players},
            deadline=None,
        )
    )
    return events


__all__ = ["COMA", "NO_LYNCH", "OPTION_DEFAULTS", "Yakuza", "alive"]

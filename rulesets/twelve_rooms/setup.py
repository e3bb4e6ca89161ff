"""A new twelve-rooms game: options checked, the map laid out, roles dealt, players placed."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from engine.core import rng as rngmod
from engine.core.events import Event
from engine.core.model import GameState, PlayerState
from engine.core.ruleset import NOT_A_FLAG, UNKNOWN_ROLE, RulesError, Seat
from engine.core.warnings import N_, Nn_
from rulesets.twelve_rooms.help import orders_of
from rulesets.twelve_rooms.roles import DEFAULT_ROSTER, MAFIA, ROLES, SKILLS, TOWN
from rulesets.twelve_rooms.rooms import ROOM_TYPES, Grid
from rulesets.twelve_rooms.state import new_role_state, place

OPTION_DEFAULTS: dict[str, Any] = {
    "rows": 3,
    "cols": 4,
    "layout": None,
    "start_rooms": {},
    "placement_phase": True,
    "roles": dict.fromkeys(DEFAULT_ROSTER, 1),
    "missed_votes_limit": 2,
    "no_lynch_turns": [1],
    "safe_capacity": 3,
    "safe_max_turns": 2,
    "pistol_every": 4,
    "convert_after_empty_turns": 2,
    "mafia_gathering_min": 3,
    "max_swap_pairs": 2,
    "guess_from_turn": 2,
    "guesses_per_turn": 1,
    "map_bonus": True,
    "immunity": {},
    "mafkills_per_turn": 1,
    "mafia_teamkill": False,
    "who_is_here_names": False,
    "reveal_role_on_death": False,
    "two_player_priority": True,
    "room_state": {},
}
"""§13 (the deadline is the game file's [schedule]); `start_rooms` are the rooms players
chose at sign-up, `placement_phase` opens the game with `turn 0`, `roles` is the deal (the
seed's ten by default; seats it leaves are citizens)."""

_MINIMUM = {
    "rows": 1,
    "cols": 1,
    "missed_votes_limit": 1,
    "safe_capacity": 1,
    "safe_max_turns": 1,
    "pistol_every": 1,
    "convert_after_empty_turns": 1,
    "mafia_gathering_min": 1,
    "max_swap_pairs": 0,
    "guess_from_turn": 0,
    "guesses_per_turn": 0,
    "mafkills_per_turn": 0,
}
_FLAGS = [k for k, v in OPTION_DEFAULTS.items() if isinstance(v, bool)]
_ROOM_FIELDS = {"type", "entries", "last_entrant", "empty_turns"}

PLAYER_DEFAULTS: dict[str, Any] = {
    "alive": True,
    "warnings": 0,
    "guilt": False,
    "pending_kills": [],
    "deceit_until": [],
    "immune_until": 0,
    "half_votes": False,
    "vests": 0,
}
_PLACED = ("room", "visited_rooms", "vote_weight", "safe_turns", "cocoa_lock")
_ROLE_HELD = (
    "lynch_shield_used",
    "used_ults",
    "support_lost",
    "inherited",
    "last_targets",
    "offers",
)
STATE_FIELDS = {*PLAYER_DEFAULTS, *_PLACED, *_ROLE_HELD, "pending", "faction", "positions"}


def _int(options: Mapping[str, Any], key: str) -> int:
    value = options[key]
    if not isinstance(value, int) or isinstance(value, bool) or value < _MINIMUM[key]:
        raise RulesError(
            N_("option {key}: expected a whole number ≥ {low}, got {value}").format(
                key=key, low=_MINIMUM[key], value=repr(value)
            ),
            where=("options", key),
        )
    return value


def check_options(options: dict[str, Any]) -> None:
    """Every option of §13 in range, with the game-file key of the first problem."""
    for key in _MINIMUM:
        _int(options, key)
    for key in _FLAGS:
        if not isinstance(options[key], bool):
            raise RulesError(
                NOT_A_FLAG.format(key=key, value=repr(options[key])),
                where=("options", key),
            )
    grid = Grid(options["rows"], options["cols"])
    layout = options["layout"]
    if layout is not None:
        if not isinstance(layout, list) or len(layout) != grid.size:
            raise RulesError(
                Nn_(
                    "option layout: expected a list of {n} room type ({rows}×{cols}), got {value}",
                    "option layout: expected a list of {n} room types ({rows}×{cols}), got {value}",
                    grid.size,
                ).format(n=grid.size, rows=grid.rows, cols=grid.cols, value=repr(layout)),
                where=("options", "layout"),
            )
        for number, kind in enumerate(layout, start=1):
            if kind not in ROOM_TYPES:
                raise RulesError(
                    N_(
                        "option layout: room {number} is {kind}, not a room type (known: {known})"
                    ).format(number=number, kind=repr(kind), known=", ".join(ROOM_TYPES)),
                    where=("options", "layout"),
                )
    elif grid.size != len(ROOM_TYPES):
        raise RulesError(
            Nn_(
                "option layout: a {rows}×{cols} map needs a layout of {n} room type (only the "
                "3×4 map is laid out at random)",
                "option layout: a {rows}×{cols} map needs a layout of {n} room types (only the "
                "3×4 map is laid out at random)",
                grid.size,
            ).format(rows=grid.rows, cols=grid.cols, n=grid.size),
            where=("options", "layout"),
        )
    turns = options["no_lynch_turns"]
    if not isinstance(turns, list) or not all(isinstance(x, int) for x in turns):
        raise RulesError(
            N_("option no_lynch_turns: expected a list of turn numbers, got {value}").format(
                value=repr(turns)
            ),
            where=("options", "no_lynch_turns"),
        )
    for key in ("start_rooms", "immunity", "room_state"):
        if not isinstance(options[key], Mapping):
            raise RulesError(
                N_("option {key}: expected a table").format(key=key), where=("options", key)
            )
    for name, number in options["start_rooms"].items():
        if not grid.valid(number):
            raise RulesError(
                N_("option start_rooms: {name}: room {number} is not 1–{size}").format(
                    name=name, number=repr(number), size=grid.size
                ),
                where=("options", "start_rooms", str(name)),
            )
    for name, turn in options["immunity"].items():
        if not isinstance(turn, int) or isinstance(turn, bool) or turn < 0:
            raise RulesError(
                N_("option immunity: {name}: expected the last immune turn, got {value}").format(
                    name=name, value=repr(turn)
                ),
                where=("options", "immunity", str(name)),
            )
    for number, preset in options["room_state"].items():
        if not grid.valid(_room_key(number)) or not isinstance(preset, Mapping):
            raise RulesError(
                N_("option room_state: {number}: expected a room 1–{size} with a table").format(
                    number=repr(number), size=grid.size
                ),
                where=("options", "room_state"),
            )
        unknown = set(preset) - _ROOM_FIELDS
        if unknown:
            raise RulesError(
                N_("option room_state: room {number}: unknown fields {fields}").format(
                    number=number, fields=sorted(unknown)
                ),
                where=("options", "room_state"),
            )
    roles = options["roles"]
    if roles is not None:
        if not isinstance(roles, Mapping):
            raise RulesError(
                N_("option roles: expected a table role = count"), where=("options", "roles")
            )
        for role, count in roles.items():
            if role not in ROLES:
                raise RulesError(
                    N_("option roles: unknown role {role} (known: {known})").format(
                        role=repr(role), known=", ".join(ROLES)
                    ),
                    where=("options", "roles", str(role)),
                )
            if not isinstance(count, int) or isinstance(count, bool) or count < 0:
                raise RulesError(
                    N_("option roles: {role}: expected a count, got {value}").format(
                        role=role, value=repr(count)
                    ),
                    where=("options", "roles", str(role)),
                )


def _room_key(raw: Any) -> int:
    try:
        return int(raw)
    except (TypeError, ValueError):
        return 0


def deal(seats: Sequence[Seat], opts: Mapping[str, Any], rng: random.Random) -> list[str]:
    """Roles in seating order: the host's, the `roles` deal, or the seed's ten (§6, D52)."""
    for seat in seats:
        if seat.role is not None and seat.role not in ROLES:
            raise RulesError(
                UNKNOWN_ROLE.format(name=seat.name, role=repr(seat.role), known=", ".join(ROLES)),
                where=("roles", seat.name),
            )
    open_seats = [s for s in seats if s.role is None]
    if not open_seats:
        return [str(s.role) for s in seats]
    pool = [role for role, count in dict(opts["roles"]).items() for _ in range(int(count))]
    for seat in seats:
        if seat.role is not None and seat.role in pool:
            pool.remove(seat.role)
    if len(pool) > len(open_seats):
        given = len(seats) - len(open_seats)
        said = (
            Nn_(
                "the deal has {n} role for {players} players ({given} more have a role of their "
                "own): one role a player, seats left over are citizens",
                "the deal has {n} roles for {players} players ({given} more have a role of their "
                "own): one role a player, seats left over are citizens",
                len(pool),
            )
            if given
            else Nn_(
                "the deal has {n} role for {players} players: one role a player, seats left over "
                "are citizens",
                "the deal has {n} roles for {players} players: one role a player, seats left "
                "over are citizens",
                len(pool),
            )
        )
        raise RulesError(
            said.format(n=len(pool), players=len(open_seats), given=given),
            where=("options", "roles"),
        )
    # Seats the deal does not fill are honest citizens (§6.3, D52).
    pool += ["citizen"] * (len(open_seats) - len(pool))
    rng.shuffle(pool)
    dealt = iter(pool)
    roles = [s.role if s.role is not None else next(dealt) for s in seats]
    if {ROLES[r].faction for r in roles} != {MAFIA, TOWN}:
        raise RulesError(
            N_(
                "the deal needs at least one mafia role and one town role (§2.7: a game of one "
                "side is over before it starts)"
            ),
            where=("options", "roles"),
        )
    return roles


def new_game(ruleset_id: str, seats: Sequence[Seat], opts: dict[str, Any], seed: int) -> GameState:
    names = [s.name for s in seats]
    if len(set(names)) != len(names):
        raise RulesError(N_("player names must be unique"), where=("players", "players"))
    if len(names) < 2:
        raise RulesError(N_("a game needs at least two players"), where=("players", "players"))
    rng = random.Random(seed)
    grid = Grid(opts["rows"], opts["cols"])
    layout = list(opts["layout"]) if opts["layout"] is not None else rng.sample(ROOM_TYPES, 12)
    rooms: dict[str, dict[str, Any]] = {}
    presets = {_room_key(k): dict(v) for k, v in opts["room_state"].items()}
    for number, kind in enumerate(layout, start=1):
        rooms[str(number)] = {
            "type": kind,
            "original_type": kind,
            "empty_turns": 0,
            "entries": 0,
            "last_entrant": None,
            **presets.get(number, {}),
        }
    for name in opts["start_rooms"]:
        if name not in names:
            raise RulesError(
                N_("option start_rooms: {name} is not a player").format(name=repr(name)),
                where=("options", "start_rooms", str(name)),
            )
    roles = deal(seats, opts, rng)
    state = GameState(ruleset_id, opts, [], None, [], {"seed": seed, "rooms": rooms, "swaps": []})
    for seat, role in zip(seats, roles, strict=True):
        p = PlayerState(seat.name, role, ROLES[role].faction, _fresh())
        p.fields["immune_until"] = int(opts["immunity"].get(seat.name, 0))
        start = seat.state.get("room", opts["start_rooms"].get(seat.name))
        state.players.append(p)
        place(state, p, int(start) if start is not None else rng.choice(list(grid.rooms)))
        _apply_seat_state(state, p, seat, grid)
    state.rng = rngmod.snapshot(rng)
    return state


def _fresh() -> dict[str, Any]:
    fields = {k: (list(v) if isinstance(v, list) else v) for k, v in PLAYER_DEFAULTS.items()}
    fields["role_state"] = new_role_state()
    fields["positions"] = {}
    return fields


def _apply_seat_state(state: GameState, p: PlayerState, seat: Seat, grid: Grid) -> None:
    """A scenario's `state:` for a player: fields of §12.4 (role-held ones go to the role)."""
    for key, value in seat.state.items():
        if key not in STATE_FIELDS:
            raise RulesError(f"{seat.name}: unknown state field {key!r} for twelve-rooms")
        if key == "room":
            if not grid.valid(value):
                raise RulesError(f"{seat.name}: room {value!r} is not 1–{grid.size}")
            continue  # already placed there
        if key == "faction":
            p.faction = str(value)
        elif key in _ROLE_HELD:
            p.fields["role_state"][key] = value
        elif key == "pending":
            p.fields["pending_kills"] = [
                {"cause": str(c), "by": None, "room_type": None} for c in value
            ]
        else:
            p.fields[key] = value


def setup_events(state: GameState, placement_report: list[Event]) -> list[Event]:
    events: list[Event] = []
    for p in state.players:
        role = ROLES[p.role or "citizen"]
        actives = role.actives
        skills = [
            {
                "skill": s,
                "kind": SKILLS[s].kind,
                "slot": actives.index(s) + 1 if s in actives and len(actives) > 1 else None,
            }
            for s in role.skills
        ]
        events.append(
            Event.private(
                p.name,
                "role_assigned",
                role=p.role,
                faction=p.faction,
                skills=skills,
                orders=orders_of(state, p.name),
            )
        )
    mafia = [p.name for p in state.players if p.faction == MAFIA]
    for name in mafia:
        events.append(Event.private(name, "mafia_team", players=mafia))
    events.append(
        Event.public(
            "game_started",
            players=state.names,
            rows=state.options["rows"],
            cols=state.options["cols"],
            placement=bool(state.options["placement_phase"]),
            reports=[{"type": e.type, **e.fields} for e in placement_report if e.is_public],
            deadline=None,
        )
    )
    events.extend(placement_report)
    return events

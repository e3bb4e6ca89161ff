"""Step 17, movement: one walk at a time by submission time, then the sticky room (§3.3–3.4).

The submission time of a turn is the receipt time of its last accepted part (§2.3): the
engine takes it from the orders' `at` (a PM's time), never from the order of arrival alone.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from engine.core import rng as rngmod
from rulesets.twelve_rooms.context import PISTOL_SHOT, STICKY_ROOM, Turn
from rulesets.twelve_rooms.intake import BALLOT
from rulesets.twelve_rooms.roles import MAFIA, TURN_ACTIONS
from rulesets.twelve_rooms.rooms import (
    COCOA,
    PASS_THROUGH,
    PISTOL,
    RIGHT,
    SAFE,
    STAY,
    STICKY,
    UP,
    Walk,
    walk,
)
from rulesets.twelve_rooms.state import alive, grid_of, occupants, room, room_type


def movement_order(t: Turn) -> list[str]:
    """Timed submitters by their latest part (ties: mafia first, then sign-up order), then
    untimed ones by their first order, then players who sent nothing (§3.4)."""
    first_seen: dict[str, int] = {}
    for index, order in enumerate(t.inputs.log):
        counts = order.action in TURN_ACTIONS and order.form != BALLOT
        if counts and order.player not in first_seen:
            first_seen[order.player] = index
    keys: dict[str, tuple[Any, ...]] = {}
    for seat, name in enumerate(t.state.names):
        if not alive(t.p(name)):
            continue
        parts = [o for o in t.inputs.orders.get(name, {}).values() if o.action in TURN_ACTIONS]
        vote = t.inputs.votes.get(name)
        if vote is not None:
            parts.append(vote)
        times: list[datetime] = [o.at for o in parts if o.at is not None]
        faction = 0 if t.p(name).faction == MAFIA else 1
        if times:
            keys[name] = (0, max(times).timestamp(), faction, seat)
        elif name in first_seen:
            keys[name] = (1, first_seen[name], 0, seat)
        else:
            keys[name] = (2, 0, 0, seat)
    return sorted(keys, key=lambda n: keys[n])


def s17_movement(t: Turn) -> None:
    """Перемещение: sequential walks with exit and entry effects, the sticky room, safe turns."""
    leavers: dict[int, list[str]] = {}
    arrived: set[str] = set()
    rng = t.rng
    for name in movement_order(t):
        p = t.p(name)
        if not alive(p):
            continue
        start = int(p.fields["room"])
        way = _walk_of(t, name, start, rng_choice=lambda rooms: rngmod.choice(rng, rooms))
        if way.end == start:
            continue
        if room_type(t.state, start) == STICKY:
            leavers.setdefault(start, []).append(name)
        leaving_safe = room_type(t.state, start) == SAFE and p.fields.get("pending_kills")
        if leaving_safe and t.fire_pending(name):
            # Eliminated at the door: he crossed only the first one and never arrives.
            t.crossings.extend((d, name) for d in way.doors[:1])
            continue
        t.crossings.extend((d, name) for d in way.doors)
        _arrive(t, name, way.end)
        arrived.add(name)
    _sticky(t, leavers)
    for p in t.state.players:
        if not alive(p):
            continue
        here = int(p.fields["room"])
        if room_type(t.state, here) != SAFE:
            p.fields["safe_turns"] = 0
        elif p.name in arrived:
            p.fields["safe_turns"] = 1
        else:
            p.fields["safe_turns"] = int(p.fields.get("safe_turns", 0)) + 1
        p.fields.setdefault("positions", {})[str(t.number)] = here


def _walk_of(t: Turn, name: str, start: int, rng_choice: Any) -> Walk:
    """The walk a player makes, forced outcomes first: cocoa lock, hold, safe-room push."""
    p = t.p(name)
    grid = grid_of(t.state)
    if p.fields.get("cocoa_lock"):
        p.fields["cocoa_lock"] = False
        return Walk(start)
    order = t.order(name, "move")
    direction = str(order.args["direction"]) if order is not None else STAY
    if name in t.held:
        direction = STAY

    def crossed(number: int) -> bool:
        kind = room_type(t.state, number)
        if kind == PASS_THROUGH:
            return True
        capacity = int(t.state.options["safe_capacity"])
        return kind == SAFE and len(occupants(t.state, number)) >= capacity

    way = walk(grid, start, direction, crossed)
    limit = int(t.state.options["safe_max_turns"])
    stuck = way.end == start and room_type(t.state, start) == SAFE
    if stuck and int(p.fields.get("safe_turns", 0)) >= limit:
        way = _push(t, start, crossed, rng_choice)
    return way


def _push(t: Turn, start: int, crossed: Any, rng_choice: Any) -> Walk:
    """Pushed out of the safe room: up, else right, else a random non-pass-through room (§3.3)."""
    grid = grid_of(t.state)
    for direction in (UP, RIGHT):
        way = walk(grid, start, direction, crossed)
        if way.end != start:
            return way
    others = [r for r in grid.rooms if r != start and room_type(t.state, r) != PASS_THROUGH]
    return Walk(rng_choice(others)) if others else Walk(start)


def _arrive(t: Turn, name: str, number: int) -> None:
    """Entry effects: the room, vote weight, the cocoa lock, the pistol counter (§3.3, §4)."""
    p = t.p(name)
    p.fields["room"] = number
    kind = room_type(t.state, number)
    visited: list[int] = p.fields.setdefault("visited_rooms", [])
    if kind != PASS_THROUGH and number not in visited:
        visited.append(number)
        visited.sort()
        p.fields["vote_weight"] = int(p.fields.get("vote_weight", 1)) + 1
    if kind == COCOA:
        p.fields["cocoa_lock"] = True
    if kind == PISTOL:
        state = room(t.state, number)
        state["entries"] = int(state.get("entries", 0)) + 1
        previous = state.get("last_entrant")
        state["last_entrant"] = name
        if state["entries"] % int(t.state.options["pistol_every"]) == 0:
            t.attempt(name, PISTOL_SHOT, by=previous, kind=PISTOL)


def _sticky(t: Turn, leavers: dict[int, list[str]]) -> None:
    """≥ 2 left the sticky room: the last leaver is eliminated, the one before gets guilt."""
    for _room, names in sorted(leavers.items()):
        if len(names) < 2:
            continue
        last, before = names[-1], names[-2]
        if not alive(t.p(last)):
            continue
        t.attempt(last, STICKY_ROOM, by=before, kind=STICKY)

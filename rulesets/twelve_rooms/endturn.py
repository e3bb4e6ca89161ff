"""Step 22, the end of a turn: conversions, room reports, private positions, the win check."""

from __future__ import annotations

from datetime import datetime

from engine.core.events import Event
from engine.core.model import GameState
from rulesets.twelve_rooms.context import Turn
from rulesets.twelve_rooms.roles import MAFIA, NEGATIVE, TOWN
from rulesets.twelve_rooms.rooms import CAMERAS, DETECTOR, LAUGHTER, PASS_THROUGH
from rulesets.twelve_rooms.state import (
    alive,
    effective_status,
    grid_of,
    living,
    occupants,
    room,
    room_type,
)


def conversions(t: Turn) -> None:
    """Rooms nobody was in at the start and the end of 2 turns become pass-through (§3.7)."""
    needed = int(t.state.options["convert_after_empty_turns"])
    at_start = set(t.start_room.values())
    for number in grid_of(t.state).rooms:
        state = room(t.state, number)
        if state["type"] == PASS_THROUGH:
            continue
        empty = number not in at_start and not occupants(t.state, number)
        state["empty_turns"] = int(state.get("empty_turns", 0)) + 1 if empty else 0
        if state["empty_turns"] >= needed:
            state["type"] = PASS_THROUGH
            state["entries"] = 0
            state["last_entrant"] = None
            t.emit(Event.public("room_converted", room=number))


def room_events(
    state: GameState, turn: int, megaphone: dict[int, set[str]] | None = None
) -> list[Event]:
    """Cameras, detector (and after a turn: megaphone, mafia gatherings), from positions now.

    `megaphone` None means the placement report, which has only the cameras and the
    detector (§10.1).
    """
    events: list[Event] = []
    for number in grid_of(state).rooms:
        kind = room_type(state, number)
        inside = occupants(state, number)
        if kind == CAMERAS:
            events.append(Event.public("camera_report", players=sorted(inside, key=str.casefold)))
        elif kind == DETECTOR:
            statuses = [effective_status(state, state.player(n), turn) for n in inside]
            negative = statuses.count(NEGATIVE)
            events.append(
                Event.public(
                    "detector_report", positive=len(statuses) - negative, negative=negative
                )
            )
    if megaphone is None:
        return events
    for number in sorted(megaphone):
        targets = sorted(megaphone[number], key=str.casefold)
        if targets:
            events.append(Event.public("megaphone_report", targets=targets))
    least = int(state.options["mafia_gathering_min"])
    for number in grid_of(state).rooms:
        mafia = [n for n in occupants(state, number) if state.player(n).faction == MAFIA]
        if len(mafia) >= least:
            events.append(Event.public("mafia_gathering", room=number))
    return events


def position_events(state: GameState) -> list[Event]:
    """Positions to all, roommates to every mafia member, the laughter notice (§3.8, §5.1)."""
    events: list[Event] = []
    mafia = [p for p in state.players if alive(p) and p.faction == MAFIA]
    for p in state.players:
        if not alive(p):
            continue
        here = int(p.fields["room"])
        events.append(
            Event.private(p.name, "position", room=here, vote_weight=p.fields["vote_weight"])
        )
        if room_type(state, here) == LAUGHTER:
            events.append(Event.private(p.name, "laughter_room"))
        if p.faction == MAFIA:
            for member in mafia:
                others = [n for n in occupants(state, member.fields["room"]) if n != member.name]
                events.append(
                    Event.private(
                        p.name,
                        "roommates",
                        of=member.name,
                        players=sorted(others, key=str.casefold),
                    )
                )
    return events


def private_reports(t: Turn) -> None:
    """Positions and roommates; the turn's results go only to players still in the game."""
    for event in position_events(t.state):
        t.emit(event)
    for event in t.results:
        if all(alive(t.p(to)) for to in event.to):
            t.emit(event)
    t.results.clear()


def expire(t: Turn) -> None:
    """Обман ending with this turn is gone (§5.2); per-turn effects live only in the context."""
    for p in t.state.players:
        p.fields["deceit_until"] = [
            u for u in p.fields.get("deceit_until", []) if int(u) > t.number
        ]


def winner_of(t: Turn) -> str | None:
    """Mafia wins when no town player is left, town when no mafia (§2.7); the seed's priority
    Neutral >> Mafia >> Town decides a double wipe-out and two players of two factions."""
    factions = [t.p(n).faction for n in living(t.state)]
    mafia, town = factions.count(MAFIA), factions.count(TOWN)
    if town == 0:
        return MAFIA
    if mafia == 0:
        return TOWN
    if t.state.options["two_player_priority"] and mafia + town == 2:
        return MAFIA
    return None


def finish(t: Turn) -> None:
    """The game ends, or the next turn opens."""
    winner = winner_of(t)
    if winner is not None:
        t.state.winner = winner
        t.state.finished = True
        t.emit(
            Event.public(
                "game_over",
                winner=winner,
                survivors=living(t.state),
                roles={p.name: p.role for p in t.state.players},
            )
        )
        return
    deadline = t.inputs.data.get("next_deadline")
    t.emit(
        Event.public(
            "turn_started",
            turn=t.number + 1,
            deadline=deadline.isoformat() if isinstance(deadline, datetime) else None,
        )
    )


def s22_end(t: Turn) -> None:
    """Конец хода: conversions, reports, positions and results, expiry, the win check."""
    conversions(t)
    for event in room_events(t.state, t.number, t.megaphone):
        t.emit(event)
    private_reports(t)
    expire(t)
    finish(t)

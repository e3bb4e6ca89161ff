"""The map of «12 комнат»: room types, the torus grid, doors and walks (twelve-rooms.md §3, §4)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

SAFE, ISOLATED, STICKY, INVERTED = "safe", "isolated", "sticky", "inverted"
DETECTOR, COCOA, CAMERAS, PISTOL = "detector", "cocoa", "cameras", "pistol"
MEGAPHONE, LAUGHTER, SILENCE, PASS_THROUGH = "megaphone", "laughter", "silence", "pass_through"

ROOM_TYPES: tuple[str, ...] = (
    SAFE,
    ISOLATED,
    STICKY,
    INVERTED,
    DETECTOR,
    COCOA,
    CAMERAS,
    PISTOL,
    MEGAPHONE,
    LAUGHTER,
    SILENCE,
    PASS_THROUGH,
)
"""The twelve room types of the seed, in its order (§4); a standard layout uses each once."""

NO_GUESS_BONUS = frozenset({CAMERAS, LAUGHTER, SILENCE})
"""Rooms whose correct guess reveals nothing («угадывание этих комнат плюшек не даёт», §7.1)."""

UP, DOWN, LEFT, RIGHT, STAY = "up", "down", "left", "right", "stay"
DIRECTIONS: tuple[str, ...] = (UP, DOWN, LEFT, RIGHT, STAY)

Door = tuple[int, int]
"""An unordered pair of adjacent rooms, stored as (a, b) with a < b."""


def door(a: int, b: int) -> Door:
    return (a, b) if a < b else (b, a)


@dataclass(frozen=True)
class Grid:
    """`rows × cols` rooms numbered 1… row-major on a torus (§3.1)."""

    rows: int = 3
    cols: int = 4

    @property
    def size(self) -> int:
        return self.rows * self.cols

    @property
    def rooms(self) -> range:
        return range(1, self.size + 1)

    def position(self, room: int) -> tuple[int, int]:
        """(row, column), 0-based."""
        return divmod(room - 1, self.cols)

    def room_at(self, row: int, col: int) -> int:
        return (row % self.rows) * self.cols + (col % self.cols) + 1

    def neighbour(self, room: int, direction: str) -> int:
        row, col = self.position(room)
        if direction == UP:
            return self.room_at(row - 1, col)
        if direction == DOWN:
            return self.room_at(row + 1, col)
        if direction == LEFT:
            return self.room_at(row, col - 1)
        if direction == RIGHT:
            return self.room_at(row, col + 1)
        return room

    def neighbours(self, room: int) -> list[int]:
        """The distinct rooms behind the four doors, up/down/left/right order, itself excluded."""
        out: list[int] = []
        for d in (UP, DOWN, LEFT, RIGHT):
            r = self.neighbour(room, d)
            if r != room and r not in out:
                out.append(r)
        return out

    def adjacent(self, a: int, b: int) -> bool:
        return a != b and b in self.neighbours(a)

    def valid(self, room: object) -> bool:
        return isinstance(room, int) and not isinstance(room, bool) and 1 <= room <= self.size


@dataclass(frozen=True)
class Walk:
    """Where a walk ends and the doors it crossed (none when it rings back to the start)."""

    end: int
    doors: tuple[Door, ...] = ()


def walk(grid: Grid, start: int, direction: str, passes: Callable[[int], bool]) -> Walk:
    """Walk from `start`: keep going through rooms `passes` says are crossed (§3.3).

    A walk that comes round the whole ring back to `start` is no move and records no door.
    """
    if direction == STAY:
        return Walk(start)
    crossed: list[Door] = []
    here = start
    for _ in range(grid.size):
        nxt = grid.neighbour(here, direction)
        crossed.append(door(here, nxt))
        if nxt == start:
            return Walk(start)
        here = nxt
        if passes(here):
            continue
        return Walk(here, tuple(crossed))
    return Walk(start)

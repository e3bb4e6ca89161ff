"""The service's clock: the real time, or a chosen moment (`FORUMGM_NOW`) for tests and rehearsals.

`FORUMGM_NOW=2026-12-01T18:55+03:00 forumgm run game.toml --once` runs as if it were that
moment. The chosen clock starts at the given instant when the command starts and then runs
at normal speed, so a foreground `run` keeps going from there. The local board opened by
the same command reads the same clock, so posts and PMs made through `forumgm board local`
carry the chosen time as well. It is meant for tests and rehearsals: a real game must run
on the real time.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Mapping
from datetime import UTC, datetime, timedelta, tzinfo

NOW_VARIABLE = "FORUMGM_NOW"

Clock = Callable[[], datetime]


class ClockError(ValueError):
    """`FORUMGM_NOW` holds something that is not an aware ISO date and time."""


def utc_now() -> datetime:
    return datetime.now(UTC)


class ShiftedClock:
    """A clock that read `start` when it was made and moves on with the real time."""

    def __init__(self, start: datetime, monotonic: Callable[[], float] = time.monotonic) -> None:
        if start.tzinfo is None or start.utcoffset() is None:
            raise ClockError("the clock needs a time zone")
        self.start = start.astimezone(UTC)
        self._monotonic = monotonic
        self._origin = monotonic()

    def __call__(self) -> datetime:
        return self.start + timedelta(seconds=self._monotonic() - self._origin)

    def __repr__(self) -> str:
        return f"ShiftedClock({self.start.isoformat()})"


def parse_now(text: str) -> datetime:
    """An aware instant from `FORUMGM_NOW` ("2026-12-01T18:55+03:00", "…Z")."""
    try:
        when = datetime.fromisoformat(text.strip().replace("Z", "+00:00"))
    except ValueError:
        raise ClockError(
            f"{NOW_VARIABLE}={text!r} is not a date and time; write e.g. 2026-12-01T18:55+03:00"
        ) from None
    if when.tzinfo is None:
        raise ClockError(
            f"{NOW_VARIABLE}={text!r} has no time zone offset; write e.g. 2026-12-01T18:55+03:00"
        )
    return when


def game_clock(environ: Mapping[str, str] | None = None) -> Clock:
    """The real clock, or a `ShiftedClock` starting at `FORUMGM_NOW` when it is set."""
    env = os.environ if environ is None else environ
    given = env.get(NOW_VARIABLE, "").strip()
    return ShiftedClock(parse_now(given)) if given else utc_now


def is_chosen(clock: Clock) -> bool:
    """Whether `clock` is a chosen (test or rehearsal) clock rather than the real time."""
    return isinstance(clock, ShiftedClock)


def local_time(moment: datetime, tz: tzinfo, *, seconds: bool = False) -> str:
    """A moment as a host reads it in the game's time zone: "2026-12-02 19:00 MSK" (with
    `seconds`, "2026-12-02 19:00:05 MSK")."""
    local = moment.astimezone(tz)
    shown = f"{local:%Y-%m-%d %H:%M:%S}" if seconds else f"{local:%Y-%m-%d %H:%M}"
    return f"{shown} {local.tzname() or local.strftime('%z')}"

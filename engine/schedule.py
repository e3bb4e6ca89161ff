"""Phase deadlines: "every day 19:00" in a time zone, or an explicit list of moments."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, time, timedelta, tzinfo
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from engine.i18n import _, ngettext

_EVERY = re.compile(
    r"^\s*(?:every|каждые|каждый)\s+(?:(\d+)\s+)?(day|days|день|дня|дней|hour|hours|час|часа|часов)"
    r"(?:\s+(?:at\s+|в\s+)?(\d{1,2})[:.](\d{2}))?\s*$",
    re.IGNORECASE,
)
_DAILY = re.compile(
    r"^\s*(?:daily|ежедневно)\s+(?:at\s+|в\s+)?(\d{1,2})[:.](\d{2})\s*$", re.IGNORECASE
)


_LIST_START = re.compile(r"^\s*\d{4}-\d{1,2}-\d{1,2}")
"""A schedule text that opens with a date is a list of deadlines."""


def split_deadlines(text: str) -> list[str]:
    """ "2026-12-02 19:00, 2026-12-03 19:00" (or with ";") → each deadline's text."""
    return [part.strip() for part in re.split(r"[;,]", text) if part.strip()]


class ScheduleError(ValueError):
    """A deadline rule that cannot be understood."""


def zone(name: str) -> tzinfo:
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise ScheduleError(
            _("unknown time zone {name!r} (e.g. Europe/Moscow)").format(name=name)
        ) from None


@dataclass(frozen=True)
class Schedule:
    """When phases end. Either a repeating rule or explicit deadlines, always timezone-aware."""

    tz: tzinfo
    every: timedelta | None = None
    at: time | None = None
    explicit: tuple[datetime, ...] = ()

    @classmethod
    def parse(cls, rule: str | Sequence[str], tz_name: str) -> Schedule:
        """A rule ("every day 19:00"), or deadlines: a list, or one text of them separated by
        commas or semicolons ("2026-12-02 19:00, 2026-12-03 19:00")."""
        tz = zone(tz_name)
        if isinstance(rule, str) and _LIST_START.match(rule):
            rule = split_deadlines(rule)
        if not isinstance(rule, str):
            moments = tuple(sorted(_moment(text, tz) for text in rule))
            if not moments:
                raise ScheduleError(_("the list of deadlines is empty"))
            return cls(tz, explicit=moments)
        daily = _DAILY.match(rule)
        if daily:
            return cls(tz, timedelta(days=1), _clock(daily.group(1), daily.group(2), rule))
        match = _EVERY.match(rule)
        if not match:
            raise ScheduleError(
                _(
                    "cannot read the schedule {rule!r}: write e.g. 'every day 19:00', "
                    "'every 2 days 21:30' or 'every 12 hours', or give a list of deadlines"
                ).format(rule=rule)
            )
        count = int(match.group(1) or 1)
        if count < 1:
            raise ScheduleError(_("{rule!r}: the period must be at least 1").format(rule=rule))
        unit = match.group(2).lower()
        if unit.startswith(("day", "д")):
            if match.group(3) is None:
                said = _("{rule!r}: say at what time, e.g. 'every day 19:00'")
                raise ScheduleError(said.format(rule=rule))
            return cls(tz, timedelta(days=count), _clock(match.group(3), match.group(4), rule))
        if match.group(3) is not None:
            said = _("{rule!r}: an hourly schedule takes no time of day")
            raise ScheduleError(said.format(rule=rule))
        return cls(tz, timedelta(hours=count))

    def deadline_after(
        self, moment: datetime, *, anchor: datetime | None = None
    ) -> datetime | None:
        """The first deadline strictly after `moment` (None when an explicit list has run out).

        A repeating rule counts its periods from `anchor` (the game's first deadline); without
        one, from the next time of day after `moment`.
        """
        if moment.tzinfo is None:
            raise ValueError("deadline_after needs an aware datetime")
        if self.explicit:
            return next((d for d in self.explicit if d > moment), None)
        assert self.every is not None
        if anchor is None:
            anchor = self._first_after(moment)
            if anchor > moment:
                return anchor
        steps = max(0, int((moment - anchor) / self.every))
        candidate = anchor + steps * self.every
        while candidate <= moment:
            candidate += self.every
        return candidate.astimezone(self.tz)

    def _first_after(self, moment: datetime) -> datetime:
        """The first deadline of a game started at `moment`: the time of day after it, and
        for a period of N days not before N - 1 days have passed (`every 2 days 21:00` from
        21:00 gives 48 hours, not 24; from 20:00, 25)."""
        local = moment.astimezone(self.tz)
        if self.at is None:
            return (local + (self.every or timedelta(hours=1))).replace(second=0, microsecond=0)
        candidate = local.replace(hour=self.at.hour, minute=self.at.minute, second=0, microsecond=0)
        candidate = candidate if candidate > local else _same_clock_next_day(candidate, self.tz)
        for _day in range(max(0, (self.every or timedelta(days=1)).days - 1)):
            candidate = _same_clock_next_day(candidate, self.tz)
        return candidate

    def describe(self) -> str:
        if self.explicit:
            return ", ".join(d.strftime("%Y-%m-%d %H:%M") for d in self.explicit)
        assert self.every is not None
        if self.at is not None:
            days = self.every.days
            if days == 1:
                said = _("every day {at} {zone}")
            else:
                said = ngettext("every {n} day {at} {zone}", "every {n} days {at} {zone}", days)
            return said.format(n=days, at=f"{self.at:%H:%M}", zone=self.tz)
        hours = int(self.every.total_seconds() // 3600)
        return ngettext("every {n} hour", "every {n} hours", hours).format(n=hours)


def _same_clock_next_day(moment: datetime, tz: tzinfo) -> datetime:
    # Wall-clock arithmetic, so a daylight-saving change keeps "19:00" at 19:00.
    naive = moment.replace(tzinfo=None) + timedelta(days=1)
    return naive.replace(tzinfo=tz)


def _clock(hours: str, minutes: str, rule: str) -> time:
    h, m = int(hours), int(minutes)
    if not (0 <= h < 24 and 0 <= m < 60):
        said = _("{rule!r}: {hours}:{minutes} is not a time of day")
        raise ScheduleError(said.format(rule=rule, hours=hours, minutes=minutes))
    return time(h, m)


def _moment(text: str, tz: tzinfo) -> datetime:
    try:
        value = datetime.fromisoformat(str(text).strip())
    except ValueError:
        said = _("{text!r} is not a date and time such as 2026-12-02 19:00")
        raise ScheduleError(said.format(text=text)) from None
    return value.replace(tzinfo=tz) if value.tzinfo is None else value

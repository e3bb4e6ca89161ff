"""Activity per player and per day: posts in the game thread, words, the last post's time,
votes and orders sent — from the store for a running game, or from an exported thread.

A "day" of a running game is one of its phases (its posts are those after the deadline
before it, up to its own); of an exported thread it is a game day cut at the host's
day-ending posts, or else the date the board shows. The host's own posts are not counted;
a deleted post is not counted; the words are the author's own (quotes and signatures left
out). Where several accounts held a seat, their posts count for the seat.

`quiet` checks a phase against the `[activity]` thresholds of the game file.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from engine.i18n import _
from engine.table_problems import true_or_false, unknown_key
from scraper.normalize import WORD_RE, lower

ACTIVITY_KEYS = {
    "min_posts",
    "silent_hours",
    "check_before",
    "prod",
    "substitute",
    "offer_hours",
    "in_vote_count",
}


@dataclass(frozen=True)
class ActivitySettings:
    """`[activity]` of a game file: when a player counts as quiet, and what is done."""

    min_posts: int | None = None
    """Fewer posts than this in the phase, once the check is due: quiet."""
    silent_hours: float | None = None
    """No post for this many hours (since the phase opened, at the latest), once due: quiet."""
    check_before: timedelta = timedelta(hours=12)
    """How long before the deadline the check is made (once per phase)."""
    prod: bool = False
    """Send the quiet player a PM (with his post count and the deadline)."""
    substitute: bool = False
    """At a seat's second prod, offer it to the next of `[players] reserve`."""
    offer_hours: float = 24.0
    """How long a player of the reserve has to accept a seat offered to him."""
    in_vote_count: bool = False
    """The vote count posts (`[game] vote_count`) end with each player's posts this phase."""


def parse_activity(raw: Mapping[str, Any]) -> tuple[ActivitySettings | None, list[str]]:
    problems = [unknown_key(k, ACTIVITY_KEYS) for k in raw if k not in ACTIVITY_KEYS]
    min_posts = raw.get("min_posts")
    if min_posts is not None and (
        not isinstance(min_posts, int) or isinstance(min_posts, bool) or min_posts < 1
    ):
        said = _("`min_posts`: a number of posts, at least 1, got {value!r}")
        problems.append(said.format(value=min_posts))
    silent = raw.get("silent_hours")
    if silent is not None and (
        not isinstance(silent, int | float) or isinstance(silent, bool) or silent <= 0
    ):
        problems.append(_("`silent_hours`: a number of hours, got {value!r}").format(value=silent))
    before = raw.get("check_before", 12)
    if not isinstance(before, int | float) or isinstance(before, bool) or before <= 0:
        said = _("`check_before`: hours before the deadline, got {value!r}")
        problems.append(said.format(value=before))
        before = 12
    prod = raw.get("prod", False)
    if not isinstance(prod, bool):
        problems.append(true_or_false("prod", prod))
    substitute = raw.get("substitute", False)
    if not isinstance(substitute, bool):
        problems.append(true_or_false("substitute", substitute))
    hours = raw.get("offer_hours", 24)
    if not isinstance(hours, int | float) or isinstance(hours, bool) or hours <= 0:
        said = _("`offer_hours`: hours to accept an offered seat, got {value!r}")
        problems.append(said.format(value=hours))
        hours = 24
    in_vote_count = raw.get("in_vote_count", False)
    if not isinstance(in_vote_count, bool):
        problems.append(true_or_false("in_vote_count", in_vote_count))
    if min_posts is None and silent is None and (prod or substitute):
        problems.append(
            _(
                "`prod` and `substitute` need `min_posts` or `silent_hours`: what makes a player "
                "quiet"
            )
        )
    if problems:
        return None, problems
    return (
        ActivitySettings(
            min_posts=min_posts,
            silent_hours=float(silent) if silent is not None else None,
            check_before=timedelta(hours=float(before)),
            prod=prod,
            substitute=substitute,
            offer_hours=float(hours),
            in_vote_count=in_vote_count is True,
        ),
        [],
    )


@dataclass(frozen=True)
class Sample:
    """One post as activity counts it."""

    player: str
    day: str
    at: datetime | None
    text: str


@dataclass
class Activity:
    player: str
    day: str
    posts: int = 0
    words: int = 0
    last: datetime | None = None
    votes: int | None = None
    orders: int | None = None
    missed: bool | None = None
    """Whether the rules counted the phase a missed vote (twelve-rooms' warnings); None
    where they do not count them, or the phase is not resolved yet."""

    def as_dict(self) -> dict[str, Any]:
        return {
            "player": self.player,
            "day": self.day,
            "posts": self.posts,
            "words": self.words,
            "last_post": self.last.isoformat() if self.last else None,
            "votes": self.votes,
            "orders": self.orders,
            "missed_vote": self.missed,
        }


def words(text: str) -> int:
    return sum(1 for _ in WORD_RE.finditer(lower(text)))


@dataclass
class ActivityTable:
    days: list[str] = field(default_factory=list)
    rows: list[Activity] = field(default_factory=list)

    def get(self, player: str, day: str) -> Activity | None:
        return next((r for r in self.rows if r.player == player and r.day == day), None)


def count(
    samples: Iterable[Sample],
    *,
    players: Sequence[str] = (),
    days: Sequence[str] = (),
    sent: Mapping[tuple[str, str], tuple[int, int]] | None = None,
) -> ActivityTable:
    """Rows per (player, day): every player of `players` in every day of `days` (0 when
    silent), and whoever else posted; `sent` gives (votes, orders) per (player, day)."""
    table: dict[tuple[str, str], Activity] = {}
    day_order = list(days)
    player_order = list(players)
    for s in samples:
        if s.day not in day_order:
            day_order.append(s.day)
        if s.player not in player_order:
            player_order.append(s.player)
        row = table.setdefault((s.player, s.day), Activity(s.player, s.day))
        row.posts += 1
        row.words += words(s.text)
        if s.at is not None and (row.last is None or s.at > row.last):
            row.last = s.at
    rows = []
    for day in day_order:
        for player in player_order:
            found = table.get((player, day))
            if found is None and player not in players:
                continue
            row = found if found is not None else Activity(player, day)
            if sent is not None:
                row.votes, row.orders = sent.get((player, day), (0, 0))
            rows.append(row)
    return ActivityTable(day_order, rows)


# -- an exported thread (`forumgm export`) ----------------------------------------------------

_DISPLAY = (
    "%a %b %d, %Y %I:%M %p",
    "%a %b %d, %Y %H:%M",
    "%d %b %Y, %H:%M",
    "%d.%m.%Y %H:%M",
)


def shown_date(value: str | None) -> str | None:
    """The date a post's time names, as YYYY-MM-DD: an ISO moment's own date, or a
    board's display of a date ("Mon May 02, 2011 2:34 am")."""
    if not value:
        return None
    try:
        return datetime.fromisoformat(value).date().isoformat()
    except ValueError:
        pass
    for form in _DISPLAY:
        try:
            return datetime.strptime(value.strip(), form).date().isoformat()
        except ValueError:
            continue
    return None


def day_of_number(number: int, day_ends: Sequence[int]) -> str | None:
    """The game day a post falls in, with days cut after each of `day_ends` (post numbers
    of the host's day-ending posts): "day 1" up to the first, … None after the last."""
    for n, end in enumerate(sorted(day_ends), start=1):
        if number <= end:
            return f"day {n}"
    return None


def time_of(value: str | None) -> datetime | None:
    if not value:
        return None
    try:
        return datetime.fromisoformat(value)
    except ValueError:
        for form in _DISPLAY:
            try:
                return datetime.strptime(value.strip(), form)
            except ValueError:
                continue
    return None


def posts_line(counts: Sequence[tuple[str, int]], language: str) -> str:
    """The line a vote count post ends with: each player's posts in the phase so far."""
    listed = ", ".join(f"{name} — {n}" for name, n in counts)
    if language == "ru":
        return f"Сообщений в теме за эту фазу: {listed}."
    return f"Posts in the thread this phase: {listed}."

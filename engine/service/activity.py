"""A running game's activity from the store, the quiet players of a phase, and the prod PM."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta, tzinfo

from engine.activity import ActivitySettings, ActivityTable, Sample, count
from engine.clock import local_time
from engine.core.orders import OrderKind
from engine.core.slots import Slots
from engine.i18n import L_, Ln_, joined
from engine.service.reader import started_at
from engine.store import Store
from engine.store.models import PhaseRecord
from engine.wording import phase_words


def voters(store: Store, game_id: int, phase: str, slots: Slots) -> set[str]:
    """The seats that sent a vote that counts in `phase`: a vote (or «не судить») among
    the orders resolution takes — accepted, or put in by the host — by whoever held the
    seat. A vote refused (no such player) or held and dropped by the host is none."""
    return {
        slots.slot(order.player) or order.player
        for order in store.effective_orders(game_id, phase)
        if order.kind in (OrderKind.VOTE, OrderKind.NO_LYNCH)
    }


def game_activity(
    store: Store,
    game_id: int,
    thread: str,
    gm_user: str,
    slots: Slots,
    now: datetime,
    *,
    missed_votes: bool = False,
) -> ActivityTable:
    """Every phase of the game so far, per seat: the posts of whoever held it, and the
    votes and orders the parser took from it (whatever became of them). `missed_votes`
    (a ruleset that punishes a phase without a vote): each resolved phase's rows say
    whether the rules counted a missed vote (`Activity.missed`)."""
    gm = gm_user.casefold()
    samples: list[Sample] = []
    sent: dict[tuple[str, str], tuple[int, int]] = {}
    missed: dict[tuple[str, str], bool] = {}
    phases = store.phases(game_id)
    for ph in phases:
        since = store.previous_deadline(game_id, ph.deadline)
        if since is None:
            begun = started_at(ph)
            since = min(begun or ph.opened_at, ph.opened_at) - timedelta(seconds=1)
        until = min(ph.deadline, now)
        items = [
            i
            for i in store.posts_in(game_id, thread, until, after=since)
            if not i.deleted and i.author.casefold() != gm and slots.slot(i.author) is not None
        ]
        bodies = store.post_bodies([i.revision for i in items])
        for item in items:
            seat = slots.slot(item.author)
            assert seat is not None
            samples.append(Sample(seat, ph.phase, item.at, bodies[item.revision].text()))
        votes: dict[str, int] = {}
        orders: dict[str, int] = {}
        for stored in store.parsed_orders(game_id, ph.phase):
            order = stored.order
            key = slots.slot(order.player) or order.player
            into = votes if order.is_vote else orders
            into[key] = into.get(key, 0) + 1
        for seat in {*votes, *orders}:
            sent[(seat, ph.phase)] = (votes.get(seat, 0), orders.get(seat, 0))
        if missed_votes and ph.resolved_at is not None:
            warned = {
                str(e.fields.get("player"))
                for e in store.events(game_id, ph.phase)
                if e.type == "warning" and e.fields.get("player")
            }
            for seat in slots.keys:
                missed[(seat, ph.phase)] = seat in warned
    table = count(samples, players=slots.keys, days=[p.phase for p in phases], sent=sent)
    for row in table.rows:
        row.missed = missed.get((row.player, row.day))
    return table


@dataclass(frozen=True)
class Quiet:
    seat: str
    posts: int
    last: datetime | None
    """The seat's last post in the game (None: never)."""
    why: str


def quiet_seats(
    table: ActivityTable,
    ph: PhaseRecord,
    settings: ActivitySettings,
    now: datetime,
    seats: list[str],
) -> list[Quiet]:
    """The seats (of `seats`, those in play) the thresholds call quiet in `ph` as of `now`."""
    found = []
    for seat in seats:
        row = table.get(seat, ph.phase)
        posts = row.posts if row is not None else 0
        last = max((r.last for r in table.rows if r.player == seat and r.last), default=None)
        reasons: list[str] = []
        if settings.min_posts is not None and posts < settings.min_posts:
            reasons.append(
                Ln_(
                    "{n} post(s) this phase, fewer than {least}",
                    "{n} post(s) this phase, fewer than {least}",
                    posts,
                    least=settings.min_posts,
                )
            )
        if settings.silent_hours is not None:
            since = last or ph.opened_at
            hours = (now - since).total_seconds() / 3600
            if hours >= settings.silent_hours:
                reasons.append(L_("silent for {hours} h", hours=f"{hours:.0f}"))
        if reasons:
            found.append(Quiet(seat, posts, last, joined(reasons)))
    return found


def check_due(ph: PhaseRecord, settings: ActivitySettings, now: datetime) -> bool:
    return ph.deadline - settings.check_before <= now < ph.deadline


def prod_text(
    name: str, quiet: Quiet, ph: PhaseRecord, language: str, tz: tzinfo
) -> tuple[str, str]:
    """(subject, BBCode) of the prod PM: his post count this phase and the deadline."""
    deadline = local_time(ph.deadline, tz)
    if language == "ru":
        phase = phase_words(ph.phase, "nom", "ru")
        last = f", последнее — {local_time(quiet.last, tz)}" if quiet.last else ""
        body = (
            f"[b]{name}[/b], напоминание от ведущего: {phase} заканчивается {deadline}.\n"
            f"Ваших сообщений в теме игры за эту фазу: {quiet.posts}{last}.\n"
            "Пожалуйста, отпишитесь в теме и пришлите ход, если он у вас есть."
        )
        return "Ведущий: напоминание", body
    phase = phase_words(ph.phase, "nom", "en")
    last = f"; the last at {local_time(quiet.last, tz)}" if quiet.last else ""
    body = (
        f"[b]{name}[/b], a reminder from the GM: {phase} ends {deadline}.\n"
        f"Your posts in the game thread this phase: {quiet.posts}{last}.\n"
        "Please post in the thread, and send your orders if you have any."
    )
    return "GM: a reminder", body

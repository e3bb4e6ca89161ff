"""What each dashboard page shows, read through the review functions (`engine.app.review`).

Plain data for the templates; the templates escape every value (autoescape), so a player's
nickname or text is shown as text whatever it holds.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import urlsplit

from markupsafe import Markup

from engine import i18n
from engine.app.dashboard.bbcode_html import bbcode_to_html, safe_link
from engine.app.review import (
    Review,
    cut_short,
    describe_fix,
    host_word,
    order_words,
    phase_state,
    phase_status_words,
    phase_words,
)
from engine.app.steer import Steer
from engine.clock import local_time
from engine.config import slot_label
from engine.core.orders import Channel, Source
from engine.core.ruleset import HostTable, VoteView
from engine.i18n import _, ngettext, phase_name, shown, warning_text
from engine.publish import held_by_limits, marker_line
from engine.service.driver import GameDriver
from engine.store import OutboxStatus, StoredOrder, StoredWarning
from engine.store.models import GameStatus, OutboxItem, OutboxKind, PhaseStatus

logger = logging.getLogger("forumgm.dashboard")
T = TypeVar("T")


@dataclass(frozen=True)
class SourceView:
    """Where an order or a warning came from: its text, and a link to it on the board."""

    channel: str
    label: str
    text: str
    link: str | None


@dataclass(frozen=True)
class DraftView:
    """A post or PM not on the board yet, with its preview."""

    kind: str
    status: str
    to: str
    subject: str
    html: Markup


@dataclass(frozen=True)
class Countdown:
    deadline: str
    """In the game's time zone, as a host reads it."""
    deadline_iso: str
    now_iso: str
    left: str
    """What is left (or how long ago it passed), as of the dashboard's clock."""


def board_link(driver: GameDriver, url: str | None) -> str | None:
    """`url` as a link if it is an http(s) address on the game's own board (else None)."""
    link = safe_link(url) if url else None
    if link is None:
        return None
    board = urlsplit(driver.config.url)
    here = urlsplit(link)
    same = (here.scheme.lower(), here.netloc.lower()) == (
        board.scheme.lower(),
        board.netloc.lower(),
    )
    return link if same else None


def game_title(driver: GameDriver) -> str:
    """The game's title, or its file's name when the file gives none."""
    return driver.store.get_game(driver.game_id).title or Path(driver.config.path).name


def source_view(driver: GameDriver, source: Source | None) -> SourceView | None:
    if source is None:
        return None
    where = _("post") if source.channel is Channel.THREAD else _("PM")
    label = f"{where} {source.post_id}" if source.post_id else where
    return SourceView(source.channel.value, label, source.text, board_link(driver, source.url))


def _units() -> dict[str, str]:
    """The words of a countdown in the current language (also given to dashboard.js)."""
    return {
        "d": _("d"),
        "h": _("h"),
        "min": _("min"),
        "s": _("s"),
        "left": _("{span} left"),
        "passed": _("passed {span} ago"),
    }


def left_words(seconds: float) -> str:
    """ "2 d 3 h left", "45 min left", "passed 3 h 2 min ago"."""
    u = _units()
    passed = seconds < 0
    s = int(abs(seconds))
    days, rest = divmod(s, 86400)
    hours, rest = divmod(rest, 3600)
    minutes, secs = divmod(rest, 60)
    if days:
        text = f"{days} {u['d']} {hours} {u['h']}"
    elif hours:
        text = f"{hours} {u['h']} {minutes} {u['min']}"
    elif minutes:
        text = f"{minutes} {u['min']}"
    else:
        text = f"{secs} {u['s']}"
    return (u["passed"] if passed else u["left"]).format(span=text)


def countdown_span(c: Countdown) -> Markup:
    """A countdown as the page shows it; dashboard.js keeps it going in the same words."""
    u = _units()
    return Markup(
        '<span class="countdown" data-deadline="{}" data-now="{}" data-units="{}" '
        'data-left="{}" data-passed="{}">{}</span>'
    ).format(
        c.deadline_iso,
        c.now_iso,
        " ".join(u[k] for k in ("d", "h", "min", "s")),
        u["left"],
        u["passed"],
        c.left,
    )


def _say(message: str, **fields: Any) -> str:
    """A template's `_("… {name} …", name=value)`."""
    return i18n._(message).format(**fields) if fields else i18n._(message)


def _say_markup(message: str, **fields: Any) -> Markup:
    """`_say` whose fields may be markup (`code(…)`); the rest is escaped."""
    return Markup.escape(i18n._(message)).format(**fields)


def _say_n(singular: str, plural: str, n: int, **fields: Any) -> str:
    return ngettext(singular, plural, n).format(n=n, **fields)


TEMPLATE_WORDS: dict[str, Any] = {
    "_": _say,
    "_m": _say_markup,
    "ngettext": _say_n,
    "code": lambda text: Markup("<code>{}</code>").format(text),
    "countdown": countdown_span,
    "phase_name": phase_name,
    "phase_status": phase_status_words,
    "host_word": host_word,
    "board_text": lambda text: i18n.board_text(str(text or "")),
}
"""What the dashboard's templates call to speak the host's language."""


def countdown(driver: GameDriver, deadline: datetime) -> Countdown:
    now = driver.clock()
    return Countdown(
        deadline=local_time(deadline, driver.config.schedule.tz),
        deadline_iso=deadline.isoformat(),
        now_iso=now.isoformat(),
        left=left_words((deadline - now).total_seconds()),
    )


def draft_view(item: OutboxItem) -> DraftView:
    to = _("the thread") if item.kind is OutboxKind.POST else ", ".join(item.recipients)
    # The marker line is for the GM's next run, not for readers: the preview leaves it out.
    bbcode = item.bbcode.removesuffix(marker_line(item.marker))
    return DraftView(
        item.kind.value, item.status.value, to, item.subject or "", bbcode_to_html(bbcode)
    )


@dataclass
class GamePage:
    """Everything the game page shows."""

    rv: Review

    def __post_init__(self) -> None:
        d = self.rv.driver
        self.driver = d
        self.game = d.store.get_game(d.game_id)
        self.title = game_title(d)
        self.phase = self.rv.phase
        self.open_for_fixes = self.phase is not None and self.phase.status is not (
            PhaseStatus.PUBLISHED
        )
        ended = self.game.status is GameStatus.FINISHED or d.store.ended_by_host(d.game_id)
        self.phase_state = phase_state(self.phase, ended=bool(ended)) if self.phase else ""
        self.countdown = (
            countdown(d, self.phase.deadline)
            if self.phase is not None and not cut_short(self.phase.status, bool(ended))
            else None
        )
        self.names = self.rv.names()
        living = set(self.rv.living())
        self.players = [(n, n in living) for n in self.names]
        self.problems: list[str] = []
        """What the page could not show, each on one line (the details are in the log)."""
        self.activity: list[dict[str, Any]] = self._shown(_("activity"), self._activity, [])
        """This phase's posts, words, last post, votes, orders per seat, and who is quiet."""
        self.progress: list[str] = self._shown(_("the phase's progress"), self.rv.progress, [])
        self.votes: VoteView | None = self._shown(_("the vote table"), self.rv.vote_view, None)
        self.seat = self.rv.seats()
        """A seat in the vote table: «Дима (вместо Лёши)» once it changed hands."""
        self.warnings = [self._warning(w) for w in self.rv.warnings()]
        self.held = len(self.rv.held())
        self.hold_reasons = [shown(r) for r in self.rv.hold_reasons()]
        """Why else the results wait for the host (the phase opened after its deadline)."""
        missed = self.rv.missed_deadline()
        tz = d.config.schedule.tz
        self.missed = {k: local_time(v, tz) for k, v in (missed or {}).items()}
        """The choices once the deadline the results announce passed while they waited."""
        self.orders = [self._order(o) for o in self.rv.orders()]
        self.tables: list[HostTable] = self._shown(
            _("the ruleset's tables"), self.rv.host_tables, []
        )
        self.has_picture = self._shown(_("the picture"), self.rv.host_picture, None) is not None
        self.drafts = len(self.rv.drafts())
        self.unsent = [draft_view(i) for i in self.rv.unsent()]
        items = d.store.outbox(d.game_id)
        self.outbox = {s.value: sum(1 for i in items if i.status is s) for s in OutboxStatus}
        self.failed = [i for i in items if i.status is OutboxStatus.FAILED]
        unsent = [i for i in items if i.status in (OutboxStatus.APPROVED, OutboxStatus.FAILED)]
        self.limits = [
            i18n.shown(held.line(tz))
            for held in held_by_limits(
                d.store, d.game_id, d.clock(), board_id=self.game.board_id, pending=unsent
            )
        ]
        """What waits behind a limit of the board (kept, sent when it lifts), one line each."""
        self.approved = self.outbox.get(OutboxStatus.APPROVED.value, 0)
        self.steer = self._shown(_("the host's commands"), self._steer, None)

    def places(self) -> frozenset[str]:
        """The anchors a form's message is shown at on this page (the template's `said`)."""
        places = {"drafts"} | {f"w{w['id']}" for w in self.warnings}
        if self.open_for_fixes:
            places |= {f"o{o['id']}" for o in self.orders}
        if self.steer is not None:
            places.add("steer")
        return frozenset(places)

    def _steer(self) -> dict[str, Any] | None:
        """What the "Steer the game" forms offer (None: the game is not running)."""
        d = self.driver
        state = d.store.load_state(d.game_id)
        if self.phase is None or state is None or state.finished:
            return None
        paused = d.store.paused_at(d.game_id)
        return {
            "paused": local_time(paused, d.config.schedule.tz) if paused else None,
            "living": self.rv.living(),
            "outcomes": Steer(d, by=self.rv.by, via=self.rv.via).outcomes(),
            "grants": {k: warning_text(v) for k, v in d.ruleset.host_grants.items()},
            "zone": str(d.config.schedule.tz),
        }

    def _shown(self, what: str, make: Callable[[], T], fallback: T) -> T:
        """`make()`, or `fallback` and a line in `problems` when it raises: the page shows
        whatever the store holds, whatever one view of it cannot."""
        try:
            return make()
        except Exception as exc:
            logger.warning(
                "game %s: the game page could not show %s", self.driver.game_id, what,
                exc_info=True,
            )  # fmt: skip
            reason = " ".join(f"{type(exc).__name__}: {exc}".split())[:160]
            self.problems.append(
                _("{what} could not be shown ({reason}); the log has the details").format(
                    what=what, reason=reason
                )
            )
            return fallback

    def _activity(self) -> list[dict[str, Any]]:
        d, ph = self.driver, self.phase
        if ph is None:
            return []
        now = d.clock()
        table = d.activity(now)
        quiet = {q.seat: shown(q.why) for q in d.quiet(ph, now)} if ph.deadline > now else {}
        tz = d.config.schedule.tz
        slots = d.slots()
        rows = []
        for seat in slots.keys:
            row = table.get(seat, ph.phase)
            if row is None:
                continue
            rows.append(
                {
                    "player": slot_label(slots.chain(seat)),  # «Лёша (вместо Оли)»
                    "posts": row.posts,
                    "words": row.words,
                    "last": local_time(row.last, tz) if row.last else "",
                    "votes": row.votes or 0,
                    "orders": row.orders or 0,
                    "quiet": quiet.get(seat, ""),
                }
            )
        return rows

    def _warning(self, stored: StoredWarning) -> dict[str, Any]:
        w = stored.warning
        state = "settled" if stored.resolved_by_host else ("noted" if w.accepted else "held")
        return {
            "id": stored.id,
            "code": w.code,
            "message": i18n.warning_text(w.message),
            "player": w.player,
            "choices": list(w.choices),
            "source": source_view(self.driver, w.source),
            "state": state,
            "fix": describe_fix(stored),
        }

    def _order(self, stored: StoredOrder) -> dict[str, Any]:
        o = stored.order
        return {
            "id": stored.id,
            "player": o.player,
            "what": order_words(o),
            "channel": o.channel.value,
            "source": source_view(self.driver, o.source),
            "status": stored.status.value,
        }


def games_rows(drivers: list[GameDriver]) -> list[dict[str, Any]]:
    """One row per game the dashboard serves: what it waits for."""
    rows = []
    for d in drivers:
        game = d.store.get_game(d.game_id)
        ph = d.store.current_phase(d.game_id)
        ended = game.status is GameStatus.FINISHED or d.store.ended_by_host(d.game_id) is not None
        over = ph is not None and cut_short(ph.status, ended)
        unsettled = d.store.count_waiting_warnings(d.game_id, ph.phase) if ph else 0
        items = d.store.outbox(d.game_id)
        rows.append(
            {
                "id": d.game_id,
                "title": game_title(d),
                "ruleset": game.ruleset,
                "status": game.status.value,
                "phase": phase_words(ph, ended=ended) if ph else _("not started"),
                "countdown": countdown(d, ph.deadline) if ph and not over else None,
                "warnings": unsettled,
                "drafts": sum(1 for i in items if i.status is OutboxStatus.DRAFT),
                "failed": sum(1 for i in items if i.status is OutboxStatus.FAILED),
            }
        )
    return rows

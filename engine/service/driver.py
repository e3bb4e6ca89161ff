"""One game under the service: each step reads the store, does the next thing, records it.

A phase goes open → frozen → resolved → published. Every step can be run again after a
crash: reading is incremental, resolution is a replay from stored posts, drafts have stable
markers, and publishing checks the board for each marker before sending.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timedelta
from typing import Any, ParamSpec, Protocol, TypeVar

import rulesets
from engine.activity import ActivityTable, posts_line
from engine.clock import local_time
from engine.config import GameConfig
from engine.core.events import Audience, Event
from engine.core.model import GameState
from engine.core.orders import Channel, Order
from engine.core.phases import Phase
from engine.core.ruleset import VOTED, Ruleset
from engine.core.slots import Slots
from engine.core.warnings import ParseWarning
from engine.i18n import L_, Ln_, PhaseWord, Said, WarningText, joined
from engine.publish import Markers, Publisher, pm_draft, post_draft
from engine.render import Renderer
from engine.service.activity import (
    Quiet,
    check_due,
    game_activity,
    prod_text,
    quiet_seats,
    voters,
)
from engine.service.answers import Allowed, allowed_answers
from engine.service.inbox import UNCLEAR, GameNames, Route, board_games, route
from engine.service.logins import LoginGuard
from engine.service.pool import FRESH, SharedInbox
from engine.service.posts import phase_opened_draft, renderer_for
from engine.service.reader import HostInputs, PhaseReader, started_at
from engine.service.replay import Measure, Replay, item_ref
from engine.service.seats import game_slots, handover_draft, holder_aliases
from engine.service.substitutes import check_offers, offer_seat
from engine.service.vote_count import vote_count_draft
from engine.session import GameSession
from engine.store import OutboxDraft, Store, StoreError
from engine.store.codec import order_from_json
from engine.store.models import (
    Game,
    GameStatus,
    OutboxItem,
    OutboxKind,
    OutboxStatus,
    OverrideTarget,
    PhaseRecord,
    PhaseStatus,
)
from engine.store.repo.raw import ReadRecorded, Recorded
from forums.board import Board, edits_without_notice, exact_times
from forums.records import Cursor, PrivateMessage

logger = logging.getLogger("forumgm.driver")

WORKERS = ThreadPoolExecutor(max_workers=4, thread_name_prefix="forumgm-read")
"""Where the service reads and resolves phases: parsing posts, taking them in, resolving
and drafting are CPU work (a long post may take a good part of a second), so they run here
and the event loop that drives every game's steps and deadlines keeps going meanwhile. A
game takes one step at a time, so its own reading never runs twice at once."""

P = ParamSpec("P")
R = TypeVar("R")


async def off_loop(fn: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> R:
    """`fn(*args, **kwargs)` in a worker thread (`WORKERS`), awaited."""
    loop = asyncio.get_running_loop()
    return await loop.run_in_executor(WORKERS, functools.partial(fn, *args, **kwargs))


Clock = Callable[[], datetime]
RECEIPT_TYPES = {
    "vote_accepted",
    "vote_withdrawn",
    "order_accepted",
    "order_cancelled",
    "anon_sent",
    "order_rejected",
    "proxy_replaced",
    "thread_vote_reminder",
    "turn_ack",
    "vote_count_refused",
}


class StepWatcher(Protocol):
    """Looks at a game after each of its steps (`engine.service.notify.Notifier`)."""

    async def after_step(self, status: str, failed: bool, now: datetime) -> None: ...


class GameDriver:
    """Drives one configured game on one board, one idempotent step at a time."""

    def __init__(self, store: Store, board: Board, config: GameConfig, *, clock: Clock) -> None:
        self.store = store
        self.board = board
        self.config = config
        self.clock = clock
        self.ruleset: Ruleset = rulesets.find(config.ruleset)
        self.renderer = Renderer.for_ruleset(
            self.ruleset, config.language, tz=config.schedule.tz, genders=config.genders
        )
        game = self._ensure_game()
        self.game_id = game.id
        self.board_id = game.board_id
        """The store's row of the board and GM account (a game never moves)."""
        self.thread_cursor: Cursor | None = None
        self.inbox_cursor: Cursor | None = None
        self.login_guard: LoginGuard | None = None
        """What stands before the board's logins (`engine.service.build` puts it there)."""
        self.inbox_share: SharedInbox | None = None
        """The GM account's inbox as all its games in this process read it, once a poll
        (`engine.service.pool`); None: this game reads it itself."""
        self.notifier: StepWatcher | None = None
        """What tells the hosts when the game needs them (`engine.service.notify`), if set."""
        self.newest_read: datetime | None = None
        """The board's time of the newest item the last read brought (new or changed)."""
        self.reader = PhaseReader(
            store,
            self.game_id,
            config.thread,
            config.gm_user,
            self.ruleset,
            max_post_chars=config.max_post_chars,
            silent_edits=edits_without_notice(board),
            exact_times=exact_times(board),
        )
        self.markers = Markers(game.marker_key, self.game_id)
        self._started = False
        self._warned: set[tuple[str, str]] = set()
        """(phase, seat) of the quiet seats this process warned the host of."""
        self._opening_queued: set[str] = set()
        """Phases whose opening post this process has seen queued (or not needed)."""
        self.publisher = Publisher(
            store,
            board,
            self.game_id,
            config.thread,
            config.gm_user,
            recipient=self.holder,
            ready=self._start_approved,
            tz=config.schedule.tz,
        )

    def marker(self, *parts: object) -> str:
        """The outbox marker of one of this game's posts or PMs (an HMAC under its key)."""
        return self.markers.make(*parts)

    def _ensure_game(self) -> Game:
        """The game's row, made when the store has none; what routes PMs to it (title, tag,
        accounts) brought up to the file's, written only when it changed (a process with a
        thousand games starts with a look at each, not a write)."""
        c = self.config
        board = self.store.find_board(c.url, c.gm_user)
        if board is None:
            board = self.store.create_board(
                c.engine, c.url, c.gm_user, credentials_ref=str(c.password or c.api_key)
            )
        game = self.store.find_game(board.id, c.thread)
        if game is None:
            game = self.store.create_game(
                board.id,
                c.thread,
                c.ruleset,
                seed=c.seed,
                options=c.ruleset_options(),
                title=c.title,
                language=c.language,
                time_zone=str(c.schedule.tz),
            )
        # The reserve's PMs are kept too: a substitute answers an offer of a seat by PM.
        accounts = sorted({*c.players, *c.replacements, *c.replacements.values(), *c.reserve})
        if (game.title, game.tag, game.accounts) != (c.title, c.tag, accounts):
            self.store.set_game_names(game.id, title=c.title, tag=c.tag, accounts=accounts)
        return game

    # -- start ---------------------------------------------------------------------------

    def start(self) -> bool:
        """Deal roles and queue the opening post and role PMs; False if already started."""
        if self.store.load_state(self.game_id) is not None:
            return False
        c = self.config
        session = GameSession.new(self.ruleset, c.seats(), c.ruleset_options(), c.seed, c.aliases)
        self.store.add_players(
            self.game_id, [(p.name, p.role, p.faction) for p in session.state.players]
        )
        deadline = c.schedule.deadline_after(c.start)
        if deadline is None:
            raise ValueError("the schedule has no deadline after the start")
        log = session.open_phase(c.start, deadline)
        # When the game was started: what players send from then on belongs to the game
        # (turn 1 reads it as early; see `announced`).
        started = {"started": self.clock().isoformat()}
        self.store.open_phase(self.game_id, log.phase, session.state, read_from=started)
        self.store.save_state(
            self.game_id, session.state, in_play=self.ruleset.in_play(session.state)
        )
        context = self.ruleset.render_context(session.state)
        # Approved before the start, the opening post says when the game starts (not «Ход 1
        # начался» an hour early); what players send from its publication counts for turn 1.
        later = c.start if c.start > self.clock() else None
        drafts = [
            post_draft(
                self.renderer.render_event_post(e, **context, start=later), self.marker("opening")
            )
            for e in log.events
            if e.audience is Audience.PUBLIC and e.type == "game_started" and c.opening_post
        ]
        for player in session.state.names:
            body = self.renderer.render_private(log.events, player, context=context)
            if body:
                marker = self.marker("role", player)
                drafts.append(pm_draft(player, self._subject("role"), body, marker))
        # Game-level drafts (no phase): the host approves the start unless review is auto.
        self.store.enqueue(self.game_id, None, drafts)
        if c.review == "auto":
            self.store.approve(self.game_id, None)
        self.store.set_game_status(self.game_id, GameStatus.RUNNING)
        return True

    def _subject(self, kind: str, number: int | None = None, phase: str = "turn") -> str:
        ru = self.config.language == "ru"
        # The results PM is named after its phase: «Итоги ночи 2», not «хода 2» for a night.
        of = {"night": ("ночи", "night"), "day": ("дня", "day"), "turn": ("хода", "turn")}
        word = of.get(phase.partition(" ")[0])
        results = "Итоги" if ru else "Results"
        if word is not None and number:
            results = f"Итоги {word[0]} {number}" if ru else f"Results of {word[1]} {number}"
        elif phase == "turn":  # twelve-rooms' turn 0: the placement
            results = "Начальное распределение" if ru else "Starting positions"
        words = {
            "role": "Ваша роль" if ru else "Your role",
            "results": results,
        }
        return self._tagged(words[kind])

    def _tagged(self, subject: str) -> str:
        """A PM subject with the game's tag, if it has one: on a GM account running several
        games, a player's reply «Re: …» names the game by itself (`engine.service.inbox`)."""
        return f"{subject} [{self.config.tag}]" if self.config.tag else subject

    # -- reading -------------------------------------------------------------------------

    async def read(self, *, full: bool, phase: PhaseRecord | None = None) -> set[str]:
        """Fetch posts and PMs into the store; returns the refs (`item_ref`) new or changed.

        A poll reads on from where the last recorded read ended. `full` (the deadline) reads
        `phase` again from where it began — every page of the phase, catching edits and
        deletions — or the whole thread when that is not known. Only this game's PMs are
        kept (`engine.service.inbox`); `phase` is where the question to a player whose PM
        names no game is queued.
        """
        if full:
            start = (phase.read_from if phase is not None else None) or {}
            thread_since, inbox_since = _cursor(start.get("thread")), _cursor(start.get("inbox"))
        else:
            # The store's cursors: another process may have driven the game meanwhile.
            self.thread_cursor, self.inbox_cursor = self.store.read_cursors(self.game_id)
            thread_since, inbox_since = self.thread_cursor, self.inbox_cursor
        # The inbox first: shared by the account's games, its one read of a poll wave comes
        # before their thread pages in the board's queue of requests, so each game's step
        # ends when its own page is in (not once every game's page is).
        if self.inbox_share is None:
            inbox = await self.board.inbox(since=inbox_since)
        else:
            # A page another game fetched in this poll wave serves; a deadline's read takes
            # one fetched after the deadline only.
            now = self.clock()
            fresh_after = phase.deadline if full and phase is not None else now - FRESH
            inbox = await self.inbox_share.read(self.board, inbox_since, min(fresh_after, now))
        page = await self.board.thread_posts(self.config.thread, since=thread_since)
        self.thread_cursor, self.inbox_cursor = page.cursor, inbox.cursor
        self.publisher.saw_thread(page.items, page.cursor)
        pms, routes = self._mine(inbox.items)
        recorded = self.store.record_read(
            self.game_id,
            page.items,
            pms,
            seen_at=self.clock(),
            thread_cursor=page.cursor,
            inbox_cursor=inbox.cursor,
            pm_routing={i: UNCLEAR for i, r in routes.items() if r.unclear},
        )
        if phase is not None:
            self._ask_which_game(phase, pms, routes, recorded)
        self.reader.noted(recorded)
        if full:
            gone = self.store.mark_missing(
                self.game_id,
                self.config.thread,
                [p.id for p in page.items],
                seen_at=self.clock(),
                whole=thread_since is None,
            )
            if gone:
                logger.warning(
                    L_(
                        "game {game}: posts {posts} are gone from the board",
                        game=self.game_id,
                        posts=gone,
                    )
                )
                self.reader.forget()
        fresh = {
            item_ref(Channel.THREAD, i)
            for i, r in recorded.posts.items()
            if r is not Recorded.UNCHANGED
        }
        fresh |= {
            item_ref(Channel.PM, i) for i, r in recorded.pms.items() if r is not Recorded.UNCHANGED
        }
        times = [p.posted_at for p in page.items if item_ref(Channel.THREAD, p.id) in fresh]
        times += [m.sent_at for m in inbox.items if item_ref(Channel.PM, m.id) in fresh]
        self.newest_read = max(times, default=None)
        return fresh

    def _mine(self, pms: Sequence[PrivateMessage]) -> tuple[list[PrivateMessage], dict[str, Route]]:
        """This game's PMs among the inbox's (by sender, then subject), and the route of each
        one kept; one already kept by an earlier read stays (a PM's game never changes)."""
        if not pms:
            return [], {}
        games = self._board_games()
        known = self.store.known_pms(self.game_id, [m.id for m in pms])
        kept: list[PrivateMessage] = []
        routes: dict[str, Route] = {}
        for pm in pms:
            found = route(pm, games)
            if pm.id in known or found.keeps(self.game_id):
                kept.append(pm)
                routes[pm.id] = found
        return kept, routes

    def _board_games(self) -> list[GameNames]:
        """The games of this GM account, this one among them: the running ones, and those
        that ended (a PM from one of their players stays theirs, `inbox.route`)."""
        board_id = self.board_id
        if self.inbox_share is not None:  # the account's games, looked up once a poll wave
            games = list(self.inbox_share.board_games(self.store, board_id))
        else:
            games = board_games(self.store, board_id)
        if not any(g.game_id == self.game_id for g in games):
            games.append(
                GameNames.of(self.game_id, self.config.title, self.config.tag, self._accounts())
            )
        return games

    def _accounts(self) -> list[str]:
        """Who plays or may play in this game: every seat's holders, from the file and the
        store (`game replace`)."""
        slots = self.slots()
        return [name for key in slots.keys for name in slots.holders(key)]

    def _ask_which_game(
        self,
        ph: PhaseRecord,
        pms: Sequence[PrivateMessage],
        routes: dict[str, Route],
        recorded: ReadRecorded,
    ) -> None:
        """Ask each sender of a new unclear PM, once, which game it is for: the game with the
        lowest id among theirs asks, once per sender and phase."""
        drafts = []
        for pm in pms:
            found = routes.get(pm.id)
            if found is None or found.asker != self.game_id:
                continue
            if recorded.pms.get(pm.id) is not Recorded.NEW:
                continue
            logger.warning(
                L_(
                    "game {game}: PM {pm} from {sender} names none of their games ({games}): "
                    "asked which",
                    game=self.game_id,
                    pm=pm.id,
                    sender=pm.sender,
                    games=", ".join(g.label for g in found.games),
                )
            )
            body = renderer_for(self.renderer, "which_game").render_post(
                "which_game",
                games=[g.label for g in found.games],
                subject=pm.subject,
                at=pm.sent_at,
            )
            # The games' tags in the subject too: a reply that keeps it still names them
            # all (unclear again) unless the player's answer in the body names one.
            labels = ", ".join(g.label for g in found.games)
            subject = (
                f"Для какой игры ваше сообщение? ({labels})"
                if self.config.language == "ru"
                else f"Which game is your message for? ({labels})"
            )
            marker = self.marker(ph.phase, "which-game", pm.sender.casefold())
            drafts.append(pm_draft(pm.sender, subject, body, marker))
        if drafts:
            self._enqueue_new(ph.phase, drafts)
            self.store.approve(self.game_id, ph.phase)

    def slots(self) -> Slots:
        """Who holds each seat over time (the game file's substitutions, then `game replace`)."""
        c = self.config
        return game_slots(self.store, self.game_id, c.players, c.handovers)

    def _names_now(self) -> None:
        """What is published names each seat by whoever holds it now (a substitute's name)."""
        slots = self.slots()
        held = {key: slots.current(key) for key in slots.keys}
        self.renderer.shown_as = {key: name for key, name in held.items() if name != key}

    def holder(self, name: str) -> str:
        """The account that holds `name`'s seat now (what is sent to a seat goes there)."""
        slots = self.slots()
        key = slots.slot(name)
        return slots.current(key) if key is not None else name

    def replace(
        self,
        name: str,
        substitute: str,
        *,
        history: str = "results",
        approve: bool = True,
        at: datetime | None = None,
    ) -> str:
        """`substitute` takes over the seat `name` holds or held, from now (or `at`: when
        the host asked); they get the role PM and, unless `history` is "none", the seat's
        result PMs. The seat's key. `approve=False` leaves the PMs for the host to approve
        (a substitute who took a seat offered to him, under a review mode other than auto)."""
        slots = self.slots()
        seat = slots.slot(name)
        if seat is None:
            seats = ", ".join(slots.keys)
            raise StoreError(
                L_("{name!r} holds no seat in this game (seats: {seats})", name=name, seats=seats)
            )
        if slots.slot(substitute) is not None or substitute == self.config.gm_user:
            raise StoreError(L_("{name!r} already plays in this game", name=substitute))
        from scraper.confusable import differences, lookalike_pairs

        names = [n for key in slots.keys for n in slots.holders(key)]
        for other, name in lookalike_pairs([*names, self.config.gm_user, substitute]):
            if name == substitute:
                apart = joined(map(WarningText, differences(substitute, other)))
                raise StoreError(
                    L_(
                        "{name!r} looks the same to readers as {other!r}, who is the GM "
                        "({difference}): a vote for one would count for the other unseen; "
                        "the substitute must go by another name",
                        name=substitute,
                        other=other,
                        difference=apart,
                    )
                    if other == self.config.gm_user
                    else L_(
                        "{name!r} looks the same to readers as {other!r}, who plays in this "
                        "game ({difference}): a vote for one would count for the other unseen; "
                        "the substitute must go by another name",
                        name=substitute,
                        other=other,
                        difference=apart,
                    )
                )
        previous = slots.current(seat)
        # The substitute's player row is what routes their PMs here (`store.board_games`).
        self.store.replace_player(self.game_id, seat, substitute, at=at or self.clock())
        words = "Замена: ваша роль" if self.config.language == "ru" else "Replacement: your role"
        draft = handover_draft(
            self.store,
            self.game_id,
            self.markers,
            self.renderer,
            seat=seat,
            previous=previous,
            substitute=substitute,
            history=history,
            subject=words,
        )
        self.store.enqueue(self.game_id, None, [draft])
        if approve and self._start_approved():
            self.store.approve(self.game_id, None)
        return seat

    def _start_approved(self) -> bool:
        """Whether the host let the game's start go: none of its opening post and role PMs is
        still a draft. Until then nothing of the game is published (receipts, ratings…).
        Once let go it stays so (an approved item never turns back into a draft): the
        outbox is not read again on every publish."""
        if self._started:
            return True
        self._started = not any(i.status is OutboxStatus.DRAFT for i in self._start_items())
        return self._started

    def _start_items(self) -> list[OutboxItem]:
        """The game's opening post and role PMs (read by their markers alone: the outbox
        grows with every receipt, and this is asked at every poll of the first phase)."""
        start = {self.marker("opening"), *(self.marker("role", k) for k in self.config.players)}
        return self.store.outbox(self.game_id, markers=start)

    def announced(self) -> datetime | None:
        """When the game's start went out to the players: the first of its opening post and
        role PMs on the board (None: none is yet)."""
        sent = [
            i.sending_at or i.posted_at
            for i in self._start_items()
            if i.status is OutboxStatus.POSTED
        ]
        return min((at for at in sent if at is not None), default=None)

    def _opening(self, ph: PhaseRecord) -> list[OutboxItem]:
        """What opens `ph` on the board: the game's opening post and role PMs for the first
        phase, the phase's own opening post for a later one (if its results did not open it)."""
        if self.store.previous_deadline(self.game_id, ph.deadline) is None:
            return self._start_items()
        opened = self.store.find_by_marker(self.marker(ph.phase, "opened"))
        return [opened] if opened is not None else []

    def opening_published(self, ph: PhaseRecord) -> bool:
        """Whether the players were told `ph` is open: its opening post is on the board (and
        the role PMs of the first phase are at least approved; a failed one shows in
        `forumgm status`). A phase is never resolved before."""
        return all(
            i.status is OutboxStatus.POSTED
            if i.kind is OutboxKind.POST
            else i.status is not OutboxStatus.DRAFT
            for i in self._opening(ph)
        )

    def hold_reasons(self, ph: PhaseRecord) -> list[str]:
        """Why the results of `ph` wait for the host whatever the review mode says."""
        sent = [
            i.sending_at or i.posted_at
            for i in self._opening(ph)
            if i.kind is OutboxKind.POST and i.status is OutboxStatus.POSTED
        ]
        late = max((at for at in sent if at is not None), default=None)
        if late is not None and late >= ph.deadline:
            tz = self.config.schedule.tz
            return [
                L_(
                    "{phase} was opened on the board at {at}, after its deadline {deadline}: the "
                    "players had no time to act",
                    phase=PhaseWord(ph.phase),
                    at=local_time(late, tz),
                    deadline=local_time(ph.deadline, tz),
                )
            ]
        return []

    def _approved(self, ph: PhaseRecord) -> bool:
        results = self.store.find_by_marker(self.marker(ph.phase, "results"))
        return results is not None and results.status is not OutboxStatus.DRAFT

    def say(self, message: str) -> None:
        """One line of what the service did, for the operator (`forumgm run` prints it)."""
        logger.info(L_("game {game}: {what}", game=self.game_id, what=message))

    def aliases(self) -> dict[str, list[str]]:
        return holder_aliases(self.slots(), self.config.aliases)

    def order_overrides(self, ph: PhaseRecord) -> dict[str, Order | None]:
        """The host's latest decision for each overridden order (None: dropped)."""
        latest: dict[str, Order | None] = {}
        for ov in self.store.overrides(self.game_id, ph.phase):
            if ov.target is OverrideTarget.ORDER:
                latest[ov.ref] = order_from_json(ov.order) if ov.order else None
        return latest

    def replay(self, ph: PhaseRecord, until: datetime) -> Replay:
        """The phase as of `until`, from the stored posts and PMs and the host's decisions
        (a poll takes only its new items on top of the last replay; see `PhaseReader`)."""
        slots = self.slots()
        aliases = holder_aliases(slots, self.config.aliases)
        announced = self.announced() if started_at(ph) is not None else None
        measures = self.measures(ph.phase)
        version = (
            announced,
            self.store.overrides_version(self.game_id, ph.phase),
            tuple(slots.keys),
            tuple(slots.handovers),
            tuple(sorted((k, tuple(v)) for k, v in aliases.items())),
            tuple(m.id for m in measures),
        )

        def host() -> HostInputs:
            fixes = {
                (
                    item_ref(w.warning.source.channel, w.warning.source.post_id),
                    w.warning.source.line,
                ): (
                    w.warning,
                    w.fix,
                )
                for w in self.store.parse_warnings(self.game_id, ph.phase)
                if w.resolved_by_host and w.warning.source and w.warning.source.post_id
            }
            return HostInputs(aliases, slots, fixes, self.order_overrides(ph), announced, measures)

        return self.reader.replay(ph, until, version=version, host=host)

    def measures(self, phase: str) -> list[Measure]:
        """The host's removals and grants the phase is read with (`forumgm steer`)."""
        return [
            Measure(m.id, m.at, m.kind, m.player, dict(m.detail))
            for m in self.store.measures(self.game_id, phase)
        ]

    async def poll(self, ph: PhaseRecord, now: datetime) -> int:
        """Read what is new, take it, and answer: ratings in the thread, one receipt PM per player."""
        fresh = await self.read(full=False, phase=ph)
        if not fresh:
            return 0
        # The board's clock may run ahead of ours: a post it dates a little after `now` is
        # answered now, or it would never be (the next poll does not bring it again).
        newest = self.newest_read
        until = min(ph.deadline, max(now, newest)) if newest is not None else now
        replay = await off_loop(self.replay, ph, until)  # parsing: off the event loop
        drafts: list[OutboxDraft] = []
        per_player: dict[str, list[Event]] = defaultdict(list)

        def sent(event: Event) -> bool:
            return self.config.receipts or event.type not in RECEIPT_TYPES

        # The game's ceilings per hour and repeated messages (engine.service.answers).
        allowed = allowed_answers(
            replay.taken,
            replay.answers,
            self.config.answers,
            sent_privately=sent,
            refusal=lambda event: event.type in REFUSALS or event.type == "vote_count_refused",
        )
        held: Counter[str] = Counter()
        for item_id in sorted(fresh):
            events, _ = replay.answers.get(item_id, ([], []))
            allow = allowed.get(item_id, Allowed())
            held.update(allow.held_public)
            held[REPEATED] += allow.repeated
            held[PRIVATE] += allow.held_private
            posted: set[str] = set()  # one answer of a kind per message, whatever it asks
            for n, event in enumerate(events):
                if event.audience is Audience.PUBLIC:
                    if event.type in posted or event.type not in allow.public:
                        continue
                    posted.add(event.type)
                    marker = self.marker(ph.phase, "answer", item_id, n)
                    drafts.append(post_draft(self.renderer.render_event_post(event), marker))
                elif event.audience is Audience.PRIVATE and allow.private and sent(event):
                    for to in event.to:
                        per_player[to].append(event)
        if +held:
            ceilings = self.config.answers
            logger.warning(
                L_(
                    "game {game}: {phase}: not answered: {held} (the game's [answers] ceilings "
                    "per hour: {posts}, {receipts}, {refusals}; a repeated message is answered "
                    "once)",
                    game=self.game_id,
                    phase=PhaseWord(ph.phase),
                    held=joined((_held(kind, n) for kind, n in sorted((+held).items())), ", "),
                    posts=Ln_(
                        "{n} post(s) of each kind",
                        "{n} post(s) of each kind",
                        ceilings.posts_per_hour,
                    ),
                    receipts=Ln_("{n} receipt(s)", "{n} receipt(s)", ceilings.receipts_per_hour),
                    refusals=Ln_("{n} refusal(s)", "{n} refusal(s)", ceilings.refusals_per_hour),
                )
            )
        batch = ",".join(sorted(fresh))
        context = self.ruleset.render_context(replay.session.state)
        for player, mine in sorted(per_player.items()):
            body = self.renderer.render_private(mine, player, context=context)
            if body:
                marker = self.marker(ph.phase, "receipt", player, batch)
                subject = self._tagged(receipt_subject(mine, self.config.language))
                drafts.append(pm_draft(player, subject, body, marker))
        self._enqueue_new(ph.phase, drafts)
        self.store.approve(self.game_id, ph.phase)
        posts = sum(1 for ref in fresh if ref.startswith(f"{Channel.THREAD.value}:"))
        self.say(
            L_(
                "{phase}: polled: {posts}, {pms}; {receipts}",
                phase=PhaseWord(ph.phase),
                posts=Ln_("{n} new post(s)", "{n} new post(s)", posts),
                pms=Ln_("{n} new PM(s)", "{n} new PM(s)", len(fresh) - posts),
                receipts=Ln_("{n} receipt(s) queued", "{n} receipt(s) queued", len(per_player)),
            )
        )
        return len(fresh)

    def queue_vote_count(self, ph: PhaseRecord, now: datetime) -> bool:
        """Queue the scheduled vote count post due now (`[game] vote_count`), if any."""
        draft = vote_count_draft(
            self.markers,
            ph,
            now,
            every=self.config.vote_count,
            ruleset=self.ruleset,
            renderer=self.renderer,
            taken=lambda marker: self.store.find_by_marker(marker) is not None,
            replay=self.replay,
            footer=self._posts_footer(ph, now),
        )
        if draft is None:
            return False
        self._enqueue_new(ph.phase, [draft])
        self.store.approve(self.game_id, ph.phase)
        return True

    def _posts_footer(self, ph: PhaseRecord, now: datetime) -> Callable[[], str] | None:
        """With `[activity] in_vote_count`: the vote count post's line of each seat's posts."""
        settings = self.config.activity
        if settings is None or not settings.in_vote_count:
            return None

        def line() -> str:
            table = self.activity(now)
            state = self.store.load_state(self.game_id)
            playing = self.ruleset.in_play(state) if state is not None else self.config.players
            counts = []
            for seat in playing:
                row = table.get(seat, ph.phase)
                counts.append((self.holder(seat), row.posts if row is not None else 0))
            return posts_line(counts, self.config.language)

        return line

    def activity(self, now: datetime | None = None) -> ActivityTable:
        """Posts, words, last post, votes and orders per seat and phase (`engine.activity`)."""
        c = self.config
        return game_activity(
            self.store,
            self.game_id,
            c.thread,
            c.gm_user,
            self.slots(),
            now or self.clock(),
            missed_votes=self.ruleset.missed_votes,
        )

    def quiet(self, ph: PhaseRecord, now: datetime) -> list[Quiet]:
        """The seats in play the `[activity]` thresholds call quiet in `ph` as of `now`."""
        settings = self.config.activity
        if settings is None:
            return []
        state = self.store.load_state(self.game_id)
        seats = [n for n in self.slots().keys if state is None or n in self.ruleset.in_play(state)]
        return quiet_seats(self.activity(now), ph, settings, now, seats)

    def check_activity(self, ph: PhaseRecord, now: datetime) -> list[Quiet]:
        """Once the deadline is `check_before` away: warn the host of each quiet seat and,
        with `prod = true`, send its holder a reminder PM — once per phase and seat."""
        settings = self.config.activity
        if settings is None or not check_due(ph, settings, now):
            return []
        found = self.quiet(ph, now)
        drafts = []
        for q in found:
            marker = self.marker(ph.phase, "prod", q.seat)
            if (ph.phase, q.seat) in self._warned or self.store.find_by_marker(marker):
                continue
            self._warned.add((ph.phase, q.seat))
            holder = self.holder(q.seat)
            logger.warning(
                L_(
                    "game {game}: {phase}: {player} is quiet: {why}",
                    game=self.game_id,
                    phase=PhaseWord(ph.phase),
                    player=holder,
                    why=q.why,
                )
            )
            if settings.prod:
                subject, body = prod_text(
                    holder, q, ph, self.config.language, self.config.schedule.tz
                )
                drafts.append(pm_draft(holder, self._tagged(subject), body, marker))
        if drafts:
            self._enqueue_new(ph.phase, drafts)
            self.store.approve(self.game_id, ph.phase, markers=[d.marker for d in drafts])
        if settings.substitute and self.config.reserve:
            for q in found:
                if self.prods(q.seat) >= 2:
                    try:
                        offer_seat(
                            self, q.seat, reason="prodded", now=now, hours=settings.offer_hours
                        )
                    except StoreError as exc:
                        logger.warning(L_("game {game}: {what}", game=self.game_id, what=exc))
        return found

    def prods(self, seat: str) -> int:
        """In how many phases the seat's holder of now was prodded (reminder PMs queued
        since he took the seat)."""
        since = max(
            (
                o.answered_at
                for o in self.store.offers(self.game_id, seat=seat, status="accepted")
                if o.answered_at is not None
            ),
            default=None,
        )
        phases = [p for p in self.store.phases(self.game_id) if since is None or p.deadline > since]
        markers = {self.marker(p.phase, "prod", seat) for p in phases}
        items = self.store.outbox(self.game_id, markers=markers)
        return sum(1 for i in items if since is None or i.created_at >= since)

    def _enqueue_new(self, phase: str | None, drafts: list[OutboxDraft]) -> None:
        """Queue drafts whose markers are not yet taken (a re-run queues nothing twice)."""
        keep = []
        for draft in drafts:
            existing = self.store.find_by_marker(draft.marker)
            if existing is None or existing.status is OutboxStatus.DRAFT:
                keep.append(draft)
        if keep:
            self.store.enqueue(self.game_id, phase, keep)

    # -- the deadline --------------------------------------------------------------------

    async def freeze(self, ph: PhaseRecord, now: datetime) -> None:
        """Read every page again (edits and deletions), then take no more commands."""
        await self.read(full=True, phase=ph)
        self.store.freeze_phase(self.game_id, ph.phase, at=now)

    def resolve(self, ph: PhaseRecord) -> list[ParseWarning]:
        """Resolve from the posts as they were at the deadline; queue the drafts."""
        self._names_now()
        replay = self.replay(ph, ph.deadline)
        session = replay.session
        assert session.inputs is not None
        nxt = self.next_deadline(ph)
        if nxt is not None:
            # What the results announce is what the next phase gets (`open_next`).
            self.store.set_next_deadline(self.game_id, ph.phase, nxt)
            session.inputs.data["next_deadline"] = nxt
        if self.ruleset.missed_votes:
            # Who voted, as `forumgm activity` counts it: one count for the host and the rules.
            voted = voters(self.store, self.game_id, ph.phase, self.slots())
            session.inputs.data[VOTED] = sorted(voted)
        log = session.resolve()
        state = session.state
        self.store.resolve_phase(
            self.game_id, ph.phase, log.events, state, in_play=log.in_play_after
        )
        number = log.phase.id.number
        public = [e for e in log.resolution if e.audience is Audience.PUBLIC]
        # The turn number comes from the phase itself: "turn 0" is written "turn".
        context = self.ruleset.render_context(state)
        ctx: dict[str, Any] = {**context, "players": state.names, "turn": number}
        drafts = [
            post_draft(
                self.renderer.render_public(public, phase=ph.phase, context=ctx),
                self.marker(ph.phase, "results"),
            )
        ]
        for player in state.names:
            body = self.renderer.render_private(log.resolution, player, context=context)
            if body:
                marker = self.marker(ph.phase, "results-pm", player)
                subject = self._subject("results", number, ph.phase)
                drafts.append(pm_draft(player, subject, body, marker))
        self.store.enqueue(self.game_id, ph.phase, drafts)
        # A resolution again (a host's fix) may leave a player without a results PM the
        # last one gave: its draft goes, or approving the phase would send it.
        fresh = {d.marker for d in drafts}
        stale = {self.marker(ph.phase, "results-pm", p) for p in state.names} - fresh
        self.store.discard_drafts(self.game_id, stale)
        return self.approve_if_allowed(ph)

    def approve_if_allowed(self, ph: PhaseRecord) -> list[ParseWarning]:
        """Approve the phase's drafts when the review mode lets them go without the host."""
        held = self.held_warnings(ph)
        if self.hold_reasons(ph):
            return held
        if self.config.review == "auto" or (self.config.review == "warnings" and not held):
            self.store.approve(self.game_id, ph.phase)
        return held

    # -- the next deadline -------------------------------------------------------------

    def deadline_after(self, moment: datetime) -> datetime | None:
        """The schedule's first deadline after `moment`, moved as far as the host shifted it.

        A repeating rule counts its periods from the game's first deadline, so "every 2 days
        21:30" keeps every other day and "every 12 hours" keeps its grid however late a
        phase was resolved."""
        shift = timedelta(seconds=self.store.get_game(self.game_id).deadline_shift or 0)
        schedule, start = self.config.schedule, self.config.start
        anchor = schedule.deadline_after(start)
        found = schedule.deadline_after(moment - shift, anchor=anchor)
        return found + shift if found is not None else None

    def next_deadline(self, ph: PhaseRecord) -> datetime | None:
        """The deadline the phase's results announce for the next phase: the one chosen when
        it was resolved (or by the host since), else the schedule's next one from now."""
        if ph.next_deadline is not None:
            return ph.next_deadline
        return self.deadline_after(max(ph.deadline, self.clock()))

    def results_markers(self, ph: PhaseRecord) -> set[str]:
        return results_markers(self.store, self.markers, ph.phase)

    def deadline_missed(self, ph: PhaseRecord, now: datetime) -> bool:
        return next_deadline_missed(self.store, self.markers, ph, now)

    def deadline_choices(self, ph: PhaseRecord, now: datetime) -> dict[str, datetime]:
        """What each choice makes the next deadline, once the announced one has passed:
        "shift" gives the next phase its whole planned length from now (every later deadline
        moves as much); "shorten" keeps the schedule (the next phase ends at its next
        deadline)."""
        announced = ph.next_deadline
        assert announced is not None
        length = announced - ph.deadline
        shifted = _whole_minute(now + length)
        choices = {"shift": shifted}
        shorter = self.deadline_after(now)
        if shorter is not None:
            choices["shorten"] = shorter
        return choices

    def choose_deadline(self, ph: PhaseRecord, choice: str, now: datetime) -> datetime:
        """The host's choice after the announced deadline passed: the results are drafted
        again with the new deadline (and approved where the review mode lets them go)."""
        choices = self.deadline_choices(ph, now)
        if choice not in choices:
            raise StoreError(f"{choice!r}: one of {', '.join(choices)}")
        new = choices[choice]
        if choice == "shift":
            assert ph.next_deadline is not None
            self.store.shift_schedule(self.game_id, new - ph.next_deadline)
        self.store.unapprove(self.game_id, self.results_markers(ph))
        self.store.set_next_deadline(self.game_id, ph.phase, new)
        self.resolve(self.store.get_phase(self.game_id, ph.phase))
        return new

    def _results_queued(self, ph: PhaseRecord) -> bool:
        return self.store.find_by_marker(self.marker(ph.phase, "results")) is not None

    def held_warnings(self, ph: PhaseRecord) -> list[ParseWarning]:
        return [
            w.warning
            for w in self.store.parse_warnings(self.game_id, ph.phase, unresolved_only=True)
            if not w.warning.accepted
        ]

    # -- publishing and the next phase ---------------------------------------------------

    def _missed(self, ph: PhaseRecord, now: datetime) -> str:
        """What `run` says while the host has to choose what the next deadline is."""
        tz = self.config.schedule.tz
        assert ph.next_deadline is not None
        choices = joined(
            (
                L_("--deadline {choice} (it ends {at})", choice=choice, at=local_time(at, tz))
                for choice, at in self.deadline_choices(ph, now).items()
            ),
            ", ",
        )
        return L_(
            "{phase}: results wait for the host, and the next deadline they announce ({at}) "
            "passed meanwhile: choose with forumgm review {path} {choices}",
            phase=PhaseWord(ph.phase),
            at=local_time(ph.next_deadline, tz),
            path=self.config.path,
            choices=choices,
        )

    def _phase_done(self, ph: PhaseRecord) -> bool:
        """Whether the phase's results are out: each item on the board, or a PM approved
        and waiting behind a limit of the board (a day's PMs spent on Discourse): those go
        out when it lifts, and the next phase opens meanwhile at the deadline the results
        post announced — whatever one message holds, the game goes on. That post itself
        must be on the board: the players learn of the next phase from it."""
        items = self.store.outbox(self.game_id, ph.phase)
        pms_wait = any(h.kind is OutboxKind.PM for h in self.publisher.held)
        return bool(items) and all(
            i.status is OutboxStatus.POSTED
            or (
                pms_wait
                and i.kind is OutboxKind.PM
                and i.status in (OutboxStatus.APPROVED, OutboxStatus.FAILED)
            )
            for i in items
        )

    def open_next(self, ph: PhaseRecord, now: datetime) -> PhaseRecord | None:
        state = self.store.load_state(self.game_id)
        assert state is not None
        if state.finished:
            self.store.set_game_status(self.game_id, GameStatus.FINISHED)
            return None
        deadline = ph.next_deadline
        if deadline is None or deadline <= now:
            if deadline is not None:  # published after what it announced (the board was slow)
                logger.warning(
                    L_(
                        "game {game}: {phase} was published after the deadline it announced "
                        "({deadline})",
                        game=self.game_id,
                        phase=PhaseWord(ph.phase),
                        deadline=deadline.isoformat(),
                    )
                )
            deadline = self.deadline_after(max(now, ph.deadline))
        if deadline is None:
            return None  # the host's list of deadlines has run out: nothing to schedule
        state.phase = self.ruleset.next_phase(GameState.from_json(ph.state_before))
        # The next phase's posts come after what this one read last: its deadline re-read
        # starts there.
        thread, inbox = self.store.read_cursors(self.game_id)
        read_from = {
            "thread": thread.data if thread is not None else None,
            "inbox": inbox.data if inbox is not None else None,
        }
        opened = self.store.open_phase(
            self.game_id, Phase(state.phase, now, deadline), state, read_from=read_from
        )
        self.queue_opening(opened, ph.phase)
        return opened

    async def _paused_step(self, ph: PhaseRecord, paused: datetime, now: datetime) -> str:
        """A paused game: no deadline passes and nothing is resolved or opened; the thread
        and the inbox are still read and answered, and what is approved goes out."""
        if ph.status is PhaseStatus.OPEN:
            self.queue_opening(ph)
            # The deadline waits with the game: what comes meanwhile counts for the phase
            # (its deadline moves by the pause's length at `resume`).
            if ph.deadline <= now:
                ph.deadline = now + timedelta(seconds=1)
            await self.poll(ph, now)
            await self.publisher.publish(now)
        since = local_time(paused, self.config.schedule.tz)
        return L_("{phase}: paused by the host since {at}", phase=PhaseWord(ph.phase), at=since)

    def queue_opening(self, ph: PhaseRecord, previous: str | None = None) -> None:
        """Queue and approve the post that opens `ph` (not the first phase: `game start`
        queues that one), unless the previous phase's results opened it. Called again at
        every step of an open phase, so a process killed between opening the phase and
        queueing (or approving) its post leaves nothing the players miss."""
        if started_at(ph) is not None or ph.phase in self._opening_queued:
            return
        item = self.store.find_by_marker(self.marker(ph.phase, "opened"))
        previous = previous or self.store.phase_before(self.game_id, ph)
        if (item is None or item.status is OutboxStatus.DRAFT) and previous is not None:
            events = self.store.events(self.game_id, previous)
            removed = {m.player for m in self.measures(ph.phase) if m.kind == "remove"}
            draft = phase_opened_draft(
                self.markers, self.ruleset, self.renderer, ph, events, removed
            )
            if draft is not None:
                self._enqueue_new(ph.phase, [draft])
                self.store.approve(self.game_id, ph.phase, markers=[draft.marker])
        self._opening_queued.add(ph.phase)  # this process checks each phase once

    async def step(self, now: datetime | None = None) -> str:
        """Do everything that is due now; returns what the game is waiting for, and what
        waits behind a limit of the board (kept, sent when it lifts)."""
        now = now or self.clock()
        status = await self._step(now)
        held = [h.line(self.config.schedule.tz) for h in self.publisher.held]
        return joined([status, *held]) if held else status

    async def _step(self, now: datetime) -> str:
        self._names_now()
        current = self.store.current_phase(self.game_id)
        if current is not None and self.deadline_missed(current, now):
            # Nothing goes out announcing a deadline already past: back to the host.
            self.store.unapprove(self.game_id, self.results_markers(current))
        await self.publisher.publish(now)
        game = self.store.get_game(self.game_id)
        if game.status is GameStatus.FINISHED:
            return L_("finished")
        ended = self.store.ended_by_host(self.game_id)
        if ended is not None:
            final = self.store.find_by_marker(ended)
            if final is None or final.status is OutboxStatus.POSTED:
                self.store.set_game_status(self.game_id, GameStatus.FINISHED)
                return L_("finished (ended by the host)")
            return L_(
                "ended by the host: the final post waits to go out (approve it: forumgm review "
                "{path} --approve)",
                path=self.config.path,
            )
        paused = game.paused_at  # the row just read: no second query for it
        if paused is not None and current is not None:
            return await self._paused_step(current, paused, now)
        known = current  # nothing above moves the phase on: the first turn reads it no more
        while True:
            ph = known if known is not None else self.store.current_phase(self.game_id)
            known = None
            if ph is None:
                return L_("not started")
            if ph.status is PhaseStatus.OPEN:
                self.queue_opening(ph)
                if now < ph.deadline:
                    await self.poll(ph, now)
                    if self.config.vote_count is not None:  # else no hand-off to a thread
                        await off_loop(self.queue_vote_count, ph, now)
                    self.check_activity(ph, now)
                    check_offers(self, now)
                    await self.publisher.publish(now)
                    until = local_time(ph.deadline, self.config.schedule.tz)
                    return L_("{phase}: open until {at}", phase=PhaseWord(ph.phase), at=until)
                if not self.opening_published(ph):
                    return L_(
                        "{phase}: not resolved: its opening post is not on the board yet (the "
                        "host approves it: forumgm review {path} --approve)",
                        phase=PhaseWord(ph.phase),
                        path=self.config.path,
                    )
                await self.freeze(ph, now)
                self.say(
                    L_(
                        "{phase}: the deadline passed; read again and frozen",
                        phase=PhaseWord(ph.phase),
                    )
                )
                continue
            if ph.status is PhaseStatus.FROZEN:
                held_now = await off_loop(self.resolve, ph)
                waits = not self._approved(ph)
                self.say(
                    L_(
                        "{phase}: resolved; {then}",
                        phase=PhaseWord(ph.phase),
                        then=Ln_(
                            "waiting for review ({n} warning(s))",
                            "waiting for review ({n} warning(s))",
                            len(held_now),
                        )
                        if waits
                        else L_("approved"),
                    )
                )
                continue
            if ph.status is PhaseStatus.RESOLVED:
                if self.deadline_missed(ph, now):
                    return self._missed(ph, now)
                # A crash may have come between resolving and queueing or approving.
                if not self._results_queued(ph):
                    await off_loop(self.resolve, ph)
                else:
                    self.approve_if_allowed(ph)
                await self.publisher.publish(now)
                if not self._phase_done(ph):
                    if self._approved(ph) and self.publisher.held:
                        # Nothing for the host to do: the board's limit holds what is left
                        # (the step's answer goes on to say until when), and it goes out then.
                        return L_(
                            "{phase}: results approved; they wait for the board",
                            phase=PhaseWord(ph.phase),
                        )
                    held = len(self.held_warnings(ph))
                    warnings = Ln_("{n} warnings", "{n} warnings", held)
                    why = joined([warnings, *self.hold_reasons(ph)])
                    return L_(
                        "{phase}: results wait for the host ({why})",
                        phase=PhaseWord(ph.phase),
                        why=why,
                    )
                self.store.publish_phase(self.game_id, ph.phase)
                self.say(L_("{phase}: results published", phase=PhaseWord(ph.phase)))
                continue
            opened = self.open_next(ph, now)
            if opened is not None:
                until = local_time(opened.deadline, self.config.schedule.tz)
                self.say(
                    L_("{phase} opened, deadline {at}", phase=PhaseWord(opened.phase), at=until)
                )
            if opened is None:
                if self.store.get_game(self.game_id).status is GameStatus.FINISHED:
                    return L_("finished")
                return L_(
                    "{phase} is published and the list of deadlines has run out: add deadlines "
                    "to [schedule] in {path} and restart forumgm run",
                    phase=PhaseWord(ph.phase),
                    path=self.config.path,
                )


REPEATED, PRIVATE = "repeated message(s)", "PM answer(s)"
"""The kinds of `poll`'s held answers that are not an event's type."""


def _held(kind: str, n: int) -> Said:
    """One kind of answer the ceilings held back, counted: an event's type as it is."""
    if kind == REPEATED:
        return Ln_("{n} repeated message(s)", "{n} repeated message(s)", n)
    if kind == PRIVATE:
        return Ln_("{n} PM answer(s)", "{n} PM answer(s)", n)
    return Said(f"{n} {kind}")


ENDED_BY_HOST = "ended_by_host"
"""`GameState.data` key: the host ended the game; the marker of its final post."""


REFUSALS = frozenset({"order_rejected", "thread_vote_reminder"})
"""Receipt events that say a command did not count."""


def results_markers(store: Store, markers: Markers, phase: str) -> set[str]:
    """The markers of a phase's results: the post and a PM for each seat."""
    state = store.load_state(markers.game_id)
    seats = state.names if state is not None else []
    return {markers.make(phase, "results")} | {
        markers.make(phase, "results-pm", name) for name in seats
    }


def next_deadline_missed(store: Store, markers: Markers, ph: PhaseRecord, now: datetime) -> bool:
    """Whether the deadline the phase's results announce passed while they waited for the
    host (none of them is out yet): they may not go out saying it until the host chooses
    (`review --deadline shift|shorten`). The driver and `forumgm status` ask it alike."""
    if ph.status is not PhaseStatus.RESOLVED or ph.next_deadline is None:
        return False
    if now < ph.next_deadline:
        return False
    wanted = results_markers(store, markers, ph.phase)
    items = store.outbox(markers.game_id, ph.phase, markers=wanted)
    return bool(items) and not any(
        i.status is OutboxStatus.POSTED or i.sending_at is not None for i in items
    )


def receipt_subject(events: list[Event], language: str) -> str:
    """A receipt's subject says what happened: all taken, none, or some."""
    refused = sum(1 for e in events if e.type in REFUSALS)
    taken = sum(1 for e in events if e.type in RECEIPT_TYPES and e.type not in REFUSALS)
    ru = language == "ru"
    if refused and not taken:
        return "Ведущий: не принято" if ru else "GM: not accepted"
    if refused:
        return "Ведущий: принято не всё" if ru else "GM: partly accepted"
    if not taken:
        return "Ведущий: сообщение" if ru else "GM: a message"
    return "Ведущий: принято" if ru else "GM: accepted"


def _whole_minute(moment: datetime) -> datetime:
    """`moment` to the nearest whole minute (a deadline players read)."""
    return (moment + timedelta(seconds=30)).replace(second=0, microsecond=0)


def _cursor(data: object) -> Cursor | None:
    return Cursor(data) if isinstance(data, dict) else None

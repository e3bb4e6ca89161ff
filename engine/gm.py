"""The game master's loop for one game on one board: read, parse, resolve, publish.

`poll` reads new thread posts and PMs into the store and through the ruleset's intake;
`close_phase` resolves at the deadline and queues the results; `publish` sends what the
outbox holds, checking for each item's marker first so nothing is ever posted twice.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime

from engine.core.events import Audience, Event
from engine.core.orders import Channel
from engine.core.warnings import ParseWarning
from engine.publish import Publisher, make_marker, pm_draft, post_draft
from engine.render import Renderer
from engine.session import GameSession, PhaseLog
from engine.store import OutboxDraft, Store
from forums.board import Board
from forums.records import Cursor, PostBody

# During-turn answers that are posts or PMs of their own, not acknowledgements.
_OWN_PM = {"anonymous_message", "target_list"}


@dataclass(frozen=True)
class _Incoming:
    """A thread post or a PM, as the GM takes it in arrival order."""

    at: datetime
    channel: Channel
    author: str
    body: PostBody
    id: str
    url: str | None


@dataclass
class PollResult:
    posts: int = 0
    pms: int = 0
    events: list[Event] = field(default_factory=list)
    warnings: list[ParseWarning] = field(default_factory=list)


class GameMaster:
    """Drives one game's phases between a board, the store and the ruleset."""

    def __init__(
        self,
        store: Store,
        board: Board,
        game_id: int,
        session: GameSession,
        renderer: Renderer,
        thread_id: str,
        *,
        gm_name: str,
    ) -> None:
        self.store = store
        self.board = board
        self.game_id = game_id
        self.session = session
        self.renderer = renderer
        self.thread_id = thread_id
        self.gm_name = gm_name
        self.thread_cursor: Cursor | None = None
        self.inbox_cursor: Cursor | None = None
        self._seq = 0

    def _marker(self, kind: str, *parts: str) -> str:
        self._seq += 1
        return make_marker(self.game_id, kind, self.session.state.phase, self._seq, *parts)

    # -- reading -----------------------------------------------------------------------

    async def poll(self) -> PollResult:
        """Read what is new since the last poll and take every command in it."""
        result = PollResult()
        page = await self.board.thread_posts(self.thread_id, since=self.thread_cursor)
        self.thread_cursor = page.cursor
        inbox = await self.board.inbox(since=self.inbox_cursor)
        self.inbox_cursor = inbox.cursor
        items: list[_Incoming] = []
        for post in page.items:
            self.store.record_post(self.game_id, post)
            if post.author != self.gm_name and not post.deleted:
                items.append(
                    _Incoming(
                        post.posted_at, Channel.THREAD, post.author, post.body, post.id, post.url
                    )
                )
                result.posts += 1
        for pm in inbox.items:
            self.store.record_pm(self.game_id, pm)
            items.append(_Incoming(pm.sent_at, Channel.PM, pm.sender, pm.body, pm.id, pm.url))
            result.pms += 1
        items.sort(key=lambda item: item.at)
        for item in items:
            events, warnings = self.session.submit_post(
                self._player_name(item.author),
                item.body,
                item.channel,
                at=item.at,
                post_id=item.id,
                url=item.url,
            )
            result.events.extend(events)
            result.warnings.extend(warnings)
        self._queue_answers(result.events)
        return result

    def _player_name(self, author: str) -> str:
        wanted = author.casefold()
        return next((n for n in self.session.state.names if n.casefold() == wanted), author)

    def _queue_answers(self, events: Sequence[Event]) -> None:
        """Public answers (vote ratings) as posts; acks batched into one PM per player."""
        drafts: list[OutboxDraft] = []
        for event in events:
            if event.audience is Audience.PUBLIC:
                body = self.renderer.render_event_post(event)
                drafts.append(self._post(body, event.type))
        per_player: dict[str, list[Event]] = defaultdict(list)
        for event in events:
            if event.audience is Audience.PRIVATE:
                for to in event.to:
                    per_player[to].append(event)
        for player, mine in per_player.items():
            text = self.renderer.render_private(mine, player)
            if text:
                subject = (
                    "Анонимное сообщение" if any(e.type in _OWN_PM for e in mine) else "Ведущий"
                )
                drafts.append(self._pm(player, subject, text))
        if drafts:
            self.store.enqueue(self.game_id, self._phase_key(), drafts)
            self.store.approve(self.game_id, self._phase_key())

    def _phase_key(self) -> str | None:
        return str(self.session.state.phase) if self.session.state.phase else None

    def _post(self, body: str, kind: str) -> OutboxDraft:
        return post_draft(body, self._marker("post", kind))

    def _pm(self, player: str, subject: str, body: str) -> OutboxDraft:
        return pm_draft(player, subject, body, self._marker("pm", player))

    # -- the deadline ------------------------------------------------------------------

    def close_phase(self, *, lang_context: dict[str, object] | None = None) -> PhaseLog:
        """Resolve the open phase and queue the results post and the private results."""
        phase_key = self._phase_key()
        inputs = self.session.inputs
        warnings = list(self.session.log.warnings) if self.session.log else []
        if inputs is not None and phase_key:
            self.store.save_parse(self.game_id, phase_key, inputs.log, warnings)
        log = self.session.resolve()
        state = self.session.state
        self.store.resolve_phase(
            self.game_id, str(log.phase.id), log.events, state, in_play=log.in_play_after
        )
        results = [e for e in log.resolution if e.audience is Audience.PUBLIC]
        ctx = {"players": state.names, **(lang_context or {})}
        drafts = [
            self._post(
                self.renderer.render_public(results, phase=str(log.phase.id), context=ctx),
                "results",
            )
        ]
        for player in state.names:
            body = self.renderer.render_private(log.resolution, player)
            if body:
                drafts.append(self._pm(player, f"Итоги хода {log.phase.id.number}", body))
        self.store.enqueue(self.game_id, str(log.phase.id), drafts)
        self.store.approve(self.game_id, str(log.phase.id))
        return log

    def queue_opening(self, setup_events: Sequence[Event]) -> None:
        """The opening post and each player's role PM."""
        drafts = []
        for event in setup_events:
            if event.audience is Audience.PUBLIC and event.type == "game_started":
                drafts.append(self._post(self.renderer.render_event_post(event), "opening"))
        for player in self.session.state.names:
            body = self.renderer.render_private(setup_events, player)
            if body:
                drafts.append(self._pm(player, "Ваша роль", body))
        self.store.enqueue(self.game_id, self._phase_key(), drafts)
        self.store.approve(self.game_id, self._phase_key())

    # -- publishing --------------------------------------------------------------------

    async def publish(self) -> int:
        """Send every approved outbox item not yet posted; returns how many went out."""
        return await Publisher(self.store, self.board, self.game_id, self.thread_id).publish()

"""`WebBoard`: what every adapter of a board on the web shares, whatever its engine.

An engine subclasses it (through `forums.formboard.FormLoginBoard` when it logs in with a
form) and fills a few hooks; the public verbs stay here:

- the session (`forums.session.Session`): the polite pinned client (`forums.client`), whom
  the board serves us as, and the login guard: each public operation calls `begin()`, logs
  in when not yet logged in (`ensure_login`) and, when a page shows the session gone, logs
  in again once (`relogin`; a read through `as_gm`); gone again right after is
  `SessionExpired`;
- the GM's password or key as a `forums.secret.Secret`;
- a submission through the board's refusals (`submit`): flood control waited out
  `flood_retries` times then `FloodControl` (at once when it asks for longer than
  `longest_flood_wait`), a stale form token fetched fresh once, a lost
  session logged in again once, anything else the board says a one-line `BoardError`;
- the thread read from its cursor (`thread_posts`, with `forums.cursor`).

Hooks: `login` (or `FormLoginBoard`'s), `topic_id`, `thread_view(thread, number)`,
`_messages(since, mine)` for `inbox` and `sent`, and where the engine's cursor differs
`_resume` and `_thread_cursor`.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, tzinfo
from email.utils import parsedate_to_datetime
from enum import Enum
from typing import Any, ClassVar, Generic, TypeVar

import httpx

from forums.board import PMPage, ThreadPage
from forums.client import DEADLINE, MAX_BYTES, BoardClient, Sleep
from forums.cursor import Resume, ThreadView, read_thread, seen_posts
from forums.errors import (
    N_,
    BoardError,
    FloodControl,
    NoPrivateMessages,
    NotFound,
    SessionExpired,
)
from forums.guard import redact
from forums.records import Cursor, Post, User
from forums.secret import Secret
from forums.session import Session

log = logging.getLogger("forums.board")

Clock = Callable[[], datetime]

__all__ = ["NO_PMS", "Answer", "Clock", "Gone", "Said", "WebBoard"]

NO_PMS = N_(
    "{url}: {product} has no private messages; a game there is played in the open thread "
    "(rulesets that send roles or take orders by PM cannot run on it)"
)
"""A PM refused on a board without them (`WebBoard.private_messages`), for the host."""


def _now() -> datetime:
    return datetime.now(UTC)


class Answer(Enum):
    """What the board made of a submission, as the engine reads its answer."""

    ACCEPTED = "accepted"
    LOGGED_OUT = "logged out"
    """The session was gone: log in again (once) and send a fresh form."""
    FLOOD = "flood control"
    """Too soon after the last post: wait (`Said.wait`) and send again."""
    STALE_FORM = "stale form"
    """The form token was refused: send a fresh form (once)."""
    FORM_AGAIN = "form again"
    """The form came back to be sent again as it is now (phpBB: new posts since it was
    served; at most three times)."""
    REFUSED = "refused"
    """The board said no, for a reason of its own (`Said.text`)."""


F = TypeVar("F")
R = TypeVar("R")


@dataclass(frozen=True)
class Said(Generic[F, R]):
    """The engine's reading of one answer to a submission."""

    answer: Answer
    result: R | None = None
    """What an accepted submission gives the caller (a response, a JSON answer)."""
    text: str = ""
    """The board's own words."""
    wait: float | None = None
    """Flood control: seconds the board asked for (None: `flood_wait`)."""
    form: F | None = None
    """A form served with the answer, to send next (else a fresh one is fetched)."""


@dataclass(frozen=True)
class Gone:
    """What a read found instead of its answer: the session gone (a guest's page, a login
    form, "not logged in"); `why` in the board's words, `at` where it showed (else the URL
    asked for)."""

    why: str
    at: str = ""


class WebBoard:
    """A board on the web seen through the GM's account; an engine fills the hooks."""

    engine: str
    client_class: ClassVar[type[BoardClient]] = BoardClient
    only_new_posts: ClassVar[bool] = False
    """`thread_posts` returns only posts after the cursor (not the seen posts on the pages
    it read again)."""
    cursor_key: ClassVar[str] = "thread"
    default_flood_wait: ClassVar[float] = 15.0
    """Seconds waited when flood control names none: the engine's stock setting."""

    def __init__(
        self,
        base_url: str,
        username: str,
        secret: str,
        *,
        client: httpx.AsyncClient | None = None,
        session: Session | None = None,
        tz: tzinfo | None = None,
        min_delay: float = 1.0,
        clock: Clock | None = None,
        sleep: Sleep | None = None,
        max_tries: int = 4,
        deadline: float = DEADLINE,
        max_response_bytes: int = MAX_BYTES,
        flood_wait: float | None = None,
        flood_retries: int = 2,
        allow_insecure_http: bool = False,
    ) -> None:
        self.base_url = base_url.rstrip("/") + "/"
        self.username = username
        self._secret = Secret(secret)
        self.tz = tz
        self._clock: Clock = clock or _now
        self._owns_session = session is None
        if session is None:
            http = self.client_class(
                self.base_url,
                client=client,
                min_delay=min_delay,
                max_tries=max_tries,
                deadline=deadline,
                max_bytes=max_response_bytes,
                sleep=sleep,
                monotonic=(lambda: self._clock().timestamp()) if clock is not None else None,
                allow_insecure_http=allow_insecure_http,
            )
            session = Session(http, username)
        elif not session.http.origin.owns(self.base_url):
            raise ValueError(f"a session of {session.http.base_url} cannot serve {base_url}")
        self.session = session
        self._allow_insecure_http = allow_insecure_http
        self.flood_wait = self.default_flood_wait if flood_wait is None else flood_wait
        self.flood_retries = flood_retries
        self._relogins_left = 1

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.base_url!r}, {self.username!r})"

    @property
    def http(self) -> BoardClient:
        return self.session.http

    @property
    def _me(self) -> User | None:
        return self.session.me

    # -- the session and the login guard ---------------------------------------------

    async def login(self) -> User:
        """Log in (or check the key) and return the GM's `User`."""
        raise NotImplementedError

    def _logged_in(self, user: User) -> User:
        """Record the GM as logged in (the engine's login ends here)."""
        log.info("logged in to %s as %s (id %s)", self.base_url, user.name, user.id or "?")
        return self.session.logged_in(user)

    def served_at(self, response: httpx.Response) -> datetime:
        """When the board served `response`, by its `Date` header (else our clock): what
        «Today» and «5 minutes ago» on that page count from."""
        stamp = response.headers.get("Date")
        if stamp:
            with contextlib.suppress(TypeError, ValueError):
                return parsedate_to_datetime(stamp)
        return self._clock()

    async def whoami(self) -> User | None:
        return self.session.me

    async def close(self) -> None:
        if self._owns_session:
            await self.session.aclose()

    def begin(self) -> None:
        """A public operation starts: it may log in again once if the session expired."""
        self._relogins_left = 1

    async def ensure_login(self) -> None:
        await self.session.ensure(self.login)

    async def as_gm(
        self, where: str | Callable[[], str], read: Callable[[str], Awaitable[R | Gone]]
    ) -> R:
        """`read(url)` in the GM's session: when it finds the session gone (`Gone`), log in
        again (`relogin`: once per operation, and not when another board sharing the
        session has logged in since the read began) and read again. `where` is the URL, or
        a function giving it anew for each try (a session id in it may change with a login).
        """
        while True:
            url = where() if callable(where) else where
            seen = self.session.logins
            got = await read(url)
            if not isinstance(got, Gone):
                return got
            await self.relogin(got.at or url, got.why, seen)

    async def relogin(self, url: str, why: str, seen: int | None = None) -> None:
        """The board showed the session gone at `url`: log in again, once per operation.
        `seen`: the session's login count when that page was asked for (a board sharing the
        session may have logged in again since: then that login serves)."""
        if self._relogins_left <= 0:
            raise SessionExpired(
                N_(
                    "{url}: the board dropped the session of {user!r} again right after a "
                    "fresh login ({why}; cookies refused? banned? IP-bound sessions?)"
                ).format(url=redact(url), user=self.username, why=why)
            )
        self._relogins_left -= 1
        log.info("session expired at %s (%s): logging in again", redact(url), why)
        await self.session.renew(self.session.logins if seen is None else seen, self.login)

    # -- users -------------------------------------------------------------------------

    async def find_user(self, name: str) -> User | None:
        """Hook: a user by name (case-insensitive), or None."""
        raise NotImplementedError

    async def recipients(self, names: Sequence[str]) -> list[User]:
        """The users a PM goes to; a name the board does not know is `NotFound`."""
        if not names:
            raise ValueError("a private message needs at least one recipient")
        users = []
        for name in names:
            user = await self.find_user(name)
            if user is None:
                raise NotFound(
                    N_("{url}: no user named {name!r}").format(url=self.base_url, name=name)
                )
            users.append(user)
        return users

    # -- private messages --------------------------------------------------------------

    private_messages: ClassVar[bool] = True
    """False where the board has no private messages (FluxBB, PunBB 1.4): `inbox` and
    `sent` are always empty (a board without messages has none to read) and `send_pm` is
    refused with `NoPrivateMessages` in one line (`NO_PMS`, naming `product`)."""
    product: ClassVar[str] = ""
    """The board software as the host knows it ("FluxBB", "PunBB 1.4"), for that line."""

    async def send_pm(self, recipients: Sequence[str], subject: str, bbcode: str) -> str:
        """Hook: send a PM; on a board without private messages, refused in one line."""
        if not self.private_messages:
            raise NoPrivateMessages(NO_PMS.format(url=self.base_url, product=self.product))
        raise NotImplementedError

    async def inbox(self, since: Cursor | None = None) -> PMPage:
        """Private messages to the GM after the cursor, oldest first."""
        if not self.private_messages:
            return PMPage(items=[], cursor=since or Cursor({"last_id": 0}))
        return await self._messages(since, mine=False)

    async def sent(self, since: Cursor | None = None) -> PMPage:
        """The GM's own messages (as the board keeps them) after the cursor, oldest first."""
        if not self.private_messages:
            return PMPage(items=[], cursor=since or Cursor({"last_id": 0}))
        return await self._messages(since, mine=True)

    async def _messages(self, since: Cursor | None, mine: bool) -> PMPage:
        """Hook: the GM's messages after the cursor (`mine`: those he sent), oldest first."""
        raise NotImplementedError

    def posted(self, posts: Sequence[Post], post_id: str, url: str, thread: str) -> str:
        """The new post's id, once the thread page read after the reply (`posts`, served at
        `url`) shows it: a reply the board took but does not show is a `BoardError`."""
        if not any(p.id == post_id for p in posts):
            raise BoardError(
                N_("{url}: the reply was accepted but post {post} is not there").format(
                    url=redact(url), post=post_id
                )
            )
        log.info("posted %s in thread %s", post_id, thread)
        return post_id

    # -- submissions -------------------------------------------------------------------

    async def submit(
        self,
        url: str,
        fresh: Callable[[], Awaitable[F]],
        send: Callable[[F], Awaitable[Said[F, R]]],
        form: F | None = None,
    ) -> R:
        """Send a form (`form`, else `fresh()`) with `send` through the board's refusals;
        what the accepted answer gives. `url` names the submission in errors."""
        if form is None:
            form = await fresh()
        floods = fresh_forms = again = 0
        while True:
            seen = self.session.logins
            said = await send(form)
            if said.answer is Answer.ACCEPTED:
                assert said.result is not None
                return said.result
            if said.answer is Answer.LOGGED_OUT:
                await self.relogin(url, said.text or "a logged-out answer", seen)
                form = await fresh()
            elif said.answer is Answer.FLOOD:
                wait = said.wait or self.flood_wait
                if floods >= self.flood_retries or wait > self.longest_flood_wait:
                    raise FloodControl(f"{self.base_url}: {said.text}", retry_after=wait)
                floods += 1
                log.info("flood control at %s: waiting %.0f s", redact(url), wait)
                await self.http.sleep(wait + self.flood_margin)
                form = said.form if said.form is not None else await fresh()
            elif said.answer is Answer.STALE_FORM:
                if fresh_forms:
                    raise BoardError(
                        N_("{url}: the board rejected a fresh {form}: {said}").format(
                            url=redact(url), form=self.form_word, said=said.text
                        )
                    )
                fresh_forms += 1
                form = await fresh()
            elif said.answer is Answer.FORM_AGAIN and again < 3 and said.form is not None:
                again += 1
                form = said.form
            else:
                raise BoardError(
                    N_("{url}: the board refused the submission: {said}").format(
                        url=redact(url), said=said.text
                    )
                )

    flood_margin: ClassVar[float] = 0.0
    """Seconds waited beyond what flood control asked (MyBB counts whole seconds)."""
    longest_flood_wait: ClassVar[float] = 120.0
    """The longest flood wait sat out here: a board asking for longer (an administrator's
    hour between PMs on MyBB) hands it back at once as `FloodControl`, and the publisher
    keeps that kind of send for later while the step goes on (reading the thread)."""
    form_word: ClassVar[str] = "form"
    """What a stale submission needs anew, for the host: a form, or XenForo's token."""

    # -- the thread --------------------------------------------------------------------

    @staticmethod
    def topic_id(thread: str) -> str:
        """The thread's id from what the host wrote (an id, a URL)."""
        raise NotImplementedError

    async def thread_view(self, thread: str, number: int) -> Any:
        """Hook: page `number` (from 1) of the thread, parsed (a `forums.cursor.ThreadView`)."""
        raise NotImplementedError

    def _resume(self, state: Mapping[str, Any], thread: str) -> Resume | None:
        """Hook: where the cursor `state` says a poll of `thread` goes on."""
        return Resume.of(state, thread, self.cursor_key)

    def _thread_cursor(self, thread: str, last_id: int, views: Mapping[int, ThreadView]) -> Cursor:
        """Hook: the cursor after reading `views`."""
        last = views[max(views)]
        full = [v.per_page for v in views.values() if v.page < v.pages]
        return Cursor(
            {
                self.cursor_key: thread,
                "last_id": last_id,
                "page": last.page,
                "per_page": full[0] if full else last.per_page,
            }
        )

    async def thread_posts(self, thread: str, since: Cursor | None = None) -> ThreadPage:
        """Posts of a thread: all of them (since=None), or those of the pages a poll reads —
        every post after the cursor and (unless `only_new_posts`) the seen posts those pages
        show again, as they are now (an edit or a deletion there is seen at once)."""
        self.begin()
        topic = self.topic_id(thread)
        await self.ensure_login()
        resume = self._resume(since.data, topic) if since is not None else None
        if since is not None and resume is None:
            log.warning(
                "thread cursor %s does not fit thread %s: reading it all", since.data, topic
            )
        after = resume.last_id if resume is not None else 0

        async def view(number: int) -> ThreadView:
            found: ThreadView = await self.thread_view(topic, number)
            return found

        views = await read_thread(view, resume)
        posts: list[Post] = seen_posts(views)
        last_id = max([after, *(int(p.id) for p in posts)])
        if self.only_new_posts:
            posts = [p for p in posts if int(p.id) > after]
        return ThreadPage(items=posts, cursor=self._thread_cursor(topic, last_id, views))

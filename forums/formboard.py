"""`FormLoginBoard`: a board the GM logs in to with its login form, read over its pages.

phpBB, MyBB and XenForo's pages are this; a new engine of the kind (vBulletin, SMF, FluxBB)
is its selectors, its date and page readers and these hooks:

- `login_path`: the login page (the browser login opens it too);
- `_form_login()`: fetch the form, fill it, `post_login` it, say whom the board now shows
  (`greeted(user, after)`, or `_logged_in`), translating the board's refusals
  (`refuse(kind)`, `captcha()`, `two_step()`);
- `_after_browser_login()`: whom the board shows once Chromium handed its cookies over;
- `_served(html, url, expect)`: what a page is (`Served`) — the kind of page the engine's
  reader sees, whether it shows the session gone — and `_said(html)`, the board's message;
- for PMs kept in folders listed newest first (phpBB, MyBB, SMF, vBulletin):
  `inbox_folders` and `sent_folders`, `pm_listing(folder, number, offset)` and
  `read_pm(item)`, and `read_pms` does the rest.

With these, `page()` fetches a members' page through a lost session (log in again once,
`forums.webboard`), a missing thread or message is `NotFound` and any other page
`LayoutChanged`, never an empty result.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from datetime import tzinfo
from enum import Enum
from typing import Any, ClassVar, TypeVar

import httpx

from forums.board import PMPage
from forums.browser import BrowserLogin, hand_over_session
from forums.cursor import ListPage, Resume, newer_items
from forums.errors import (
    N_,
    BoardError,
    CaptchaRequired,
    LayoutChanged,
    LoginFailed,
    NotFound,
)
from forums.guard import redact
from forums.pages import MemberList, PageKind, TopicPage
from forums.records import Cursor, PrivateMessage, User
from forums.webboard import Answer, Gone, Said, WebBoard, log

__all__ = ["CAPTCHA_HELP", "Fetched", "FormLoginBoard", "PagedBoard", "Served", "answer_to"]

CAPTCHA_HELP = N_(
    "The board at {url} wants a CAPTCHA before {user!r} may log in (usually after several "
    "failed logins). Log in once by hand in a browser as {user!r}, solving the CAPTCHA, or "
    "ask the board's administrator to reset the login attempts or exempt the GM account; "
    "then run `forumgm board check` again."
)
TWO_STEP_HELP = N_(
    "{url}: the account {user!r} asks for a one-time code after its password (two-step "
    "verification), which forumgm cannot give. Switch it off for the GM account, or ask "
    "the board's administrator to exempt that account."
)


ANSWERS = {
    PageKind.LOGIN_FORM: Answer.LOGGED_OUT,
    PageKind.NOT_LOGGED_IN: Answer.LOGGED_OUT,
    PageKind.SESSION_EXPIRED: Answer.LOGGED_OUT,
    PageKind.FLOOD: Answer.FLOOD,
    PageKind.NEW_POSTS: Answer.FORM_AGAIN,
    PageKind.FORM_INVALID: Answer.STALE_FORM,
    PageKind.FORM_ERROR: Answer.REFUSED,
    PageKind.MESSAGE: Answer.REFUSED,
}
"""What a page served in answer to a submission says of it (`forums.pages.PageKind`)."""

F = TypeVar("F")
R = TypeVar("R")


def answer_to(
    kind: PageKind, said: str, url: str, *, form: F | None = None, wait: float | None = None
) -> Said[F, R]:
    """The answer of a page of `kind` to a submission that was not accepted: `said` is the
    board's message, `form` the form it served again (to send next), `wait` what flood
    control asked for. A page of any other kind is `LayoutChanged`."""
    answer = ANSWERS.get(kind)
    if answer is None:
        raise LayoutChanged(
            redact(url), N_("unexpected answer to a submission: {kind}").format(kind=kind.value)
        )
    return Said(answer, text=said or kind.value, wait=wait, form=form)


@dataclass(frozen=True)
class Served:
    """What a fetched page is, as the engine reads it."""

    kind: Enum
    gone: bool = False
    """The page shows the session gone (a login form, a guest's page): log in again."""
    missing: bool = False
    """The board says what was asked for does not exist (or the GM may not see it)."""


@dataclass(frozen=True)
class Fetched:
    """A members' page as served: its HTML, final URL, the response and its kind."""

    html: str
    url: str
    response: httpx.Response
    kind: Enum


class FormLoginBoard(WebBoard):
    """A board with a login form, read over its HTML pages; an engine fills the hooks."""

    login_path: ClassVar[str]
    captcha_help: ClassVar[str] = CAPTCHA_HELP
    two_step_help: ClassVar[str] = TWO_STEP_HELP

    def __init__(
        self,
        base_url: str,
        username: str,
        password: str,
        *,
        browser: bool = False,
        browser_login: BrowserLogin | None = None,
        **options: Any,
    ) -> None:
        super().__init__(base_url, username, password, **options)
        self.browser = browser
        """Log in through Chromium (`forums.browser`): boards that only let a browser in."""
        self._browser_login = browser_login
        self._members: dict[str, User] = {}
        """Users a member list showed, by their name's casefold (`find_member`)."""

    # -- logging in --------------------------------------------------------------------

    def login_url(self) -> str:
        return self.http.url(self.login_path)

    async def login(self) -> User:
        """Log in with the board's form (or through Chromium); the GM's `User`."""
        self.session.me = None
        if not self.browser:
            return await self._form_login()
        await hand_over_session(
            self.http.http,
            self.login_url(),
            self.username,
            self._secret.reveal(),
            login=self._browser_login,
            allow_insecure_http=self._allow_insecure_http,
        )
        return await self._after_browser_login()

    async def _form_login(self) -> User:
        """Hook: log in with the board's own form."""
        raise NotImplementedError

    async def _after_browser_login(self) -> User:
        """Hook: whom the board serves now that the browser's cookies are in the client."""
        raise NotImplementedError

    async def post_login(
        self, action: str, fill: Callable[[str], dict[str, str]]
    ) -> httpx.Response:
        """POST the login form to `action` — only on the board: the password goes nowhere
        else. `fill(password)` gives the form's fields."""
        self.http.origin.check(action, "the login form (it would get the GM's password)")
        return await self.http.post(action, fill(self._secret.reveal()))

    def captcha(self) -> CaptchaRequired:
        return CaptchaRequired(self.captcha_help.format(url=self.base_url, user=self.username))

    def two_step(self) -> LoginFailed:
        """The account wants a one-time code after its password, which forumgm cannot give."""
        return LoginFailed(self.two_step_help.format(url=self.base_url, user=self.username))

    def refuse(self, kind: Enum) -> None:
        """A page that wants a CAPTCHA or a one-time code (`PageKind.CAPTCHA`, `TWO_STEP`):
        what forumgm cannot do, said to the host."""
        if kind is PageKind.CAPTCHA:
            raise self.captcha()
        if kind is PageKind.TWO_STEP:
            raise self.two_step()

    def is_gm(self, shown: str | None) -> bool:
        """Whether a page's greeting names the GM (any case)."""
        return shown is not None and shown.casefold() == self.username.casefold()

    def not_the_gm(self, shown: str | None, after: str) -> LoginFailed | None:
        """LoginFailed unless the board shows the GM (by name, any case) after `after`."""
        if self.is_gm(shown):
            return None
        if shown is None:
            said = N_("{url}: after {after} the board shows a guest")
        else:
            said = N_("{url}: after {after} the board shows {shown}")
        return LoginFailed(said.format(url=self.base_url, after=after, shown=shown))

    def greeted(self, user: User | None, after: str) -> User:
        """The GM logged in, when the page read `after` a login greets him as `user`; else
        `LoginFailed` (a login the board took but kept no session of: cookies refused?)."""
        shown = user.name if user is not None else None
        if not self.is_gm(shown):
            if shown is None:
                said = N_("{url}: after {after} the board shows a guest (cookies refused?)")
            else:
                said = N_("{url}: after {after} the board shows {shown} (cookies refused?)")
            raise LoginFailed(said.format(url=self.base_url, after=after, shown=shown))
        assert user is not None
        return self._logged_in(user)

    # -- members' pages ----------------------------------------------------------------

    def _served(self, html: str, url: str, expect: Collection[Enum]) -> Served:
        """Hook: what the page is; raise `captcha()`/`two_step()` where the board wants one."""
        raise NotImplementedError

    def _said(self, html: str) -> str:
        """Hook: the board's message on a page (an error box), or ""."""
        return ""

    async def page(
        self,
        where: str | Callable[[], str],
        expect: Collection[Enum],
        params: Mapping[str, str | int] | None = None,
    ) -> Fetched:
        """GET a page that needs the GM's session, of a kind in `expect`. `where` is a path
        on the board (with `params`), or a function giving the URL anew for each try (a
        session id in it may change with a new login)."""
        await self.ensure_login()

        async def read(url: str) -> Fetched | Gone:
            response = await self.http.get(url)
            html, final = response.text, str(response.url)
            served = self._served(html, final, expect)
            if served.gone:
                return Gone(f"a {served.kind.value} page", at=final)
            if served.kind in expect:
                return Fetched(html, final, response, served.kind)
            said = self._said(html)
            if response.status_code == 404 or served.missing:
                raise NotFound(f"{redact(final)}: {said or f'HTTP {response.status_code}'}")
            wanted = " or ".join(sorted(str(k.value) for k in expect))
            got = (
                N_("expected a {wanted} page, got {kind} ({said})")
                if said
                else N_("expected a {wanted} page, got {kind}")
            )
            raise LayoutChanged(
                redact(final), got.format(wanted=wanted, kind=served.kind.value, said=said)
            )

        return await self.as_gm(where if callable(where) else self.http.url(where, params), read)

    # -- users -------------------------------------------------------------------------

    def known_member(self, name: str) -> User | None:
        """A user a member list showed before, by name (any case)."""
        return self._members.get(name.strip().casefold())

    member_pages: ClassVar[int] = 100
    """How many pages of one member-list search `find_member` reads at most (a listing
    that never ends must not hold a game's start)."""

    async def find_member(
        self, name: str, listing: Callable[[int, int], Awaitable[MemberList | None]]
    ) -> User | None:
        """A user by name (any case) from the member-list pages `listing(number, offset)`
        gives (None: the board found no one), read on until one shows him or the last one
        is read. Each user a page shows is kept (`known_member`): one search finds the
        players a game names together. A page numbered below the one asked for ends the
        list (FluxBB serves page 1 for a page past the end); after `member_pages` pages
        the search gives up with a `BoardError`, not a "no such user" it cannot know."""
        key = name.strip().casefold()
        number, offset = 1, 0
        while True:
            page = await listing(number, offset)
            if page is None:
                return None
            for user in page.users:
                self._members.setdefault(user.name.casefold(), user)
            if key in self._members:
                return self._members[key]
            if page.page >= page.pages or page.page < number or not page.users:
                return None
            if number >= self.member_pages:
                raise BoardError(
                    N_(
                        "{url}: {name!r} is not on the first {pages} pages of the member list "
                        "(of {total}); look the name up on the board"
                    ).format(url=self.base_url, name=name.strip(), pages=number, total=page.pages)
                )
            number, offset = number + 1, offset + len(page.users)

    # -- private messages in folders ---------------------------------------------------

    inbox_folders: ClassVar[Sequence[str]] = ()
    """The folders `inbox` reads (`pm_listing`'s folder ids)."""
    sent_folders: ClassVar[Sequence[str]] = ()
    """The folders `sent` reads: where the board keeps the GM's own messages."""

    async def _messages(self, since: Cursor | None, mine: bool) -> PMPage:
        return await self.read_pms(self.sent_folders if mine else self.inbox_folders, since)

    async def newest_sent(self) -> int:
        """The highest message id in Sent Items (the first of `sent_folders`) before a PM is
        sent, so that the GM's copy of it is found after."""
        listing = await self.pm_listing(self.sent_folders[0], 1, 0)
        return max((int(i.id) for i in listing.items), default=0)

    async def sent_copy(
        self, before: int, subject: str, names: Collection[str] | None, why_not: str
    ) -> str:
        """The id of the GM's copy of the PM just sent, which confirms it: the first message
        in Sent Items above `before` with its subject, to (some of) `names` where the folder
        names the recipients (None: it does not). None there is a `BoardError` saying
        `why_not` it may be missing."""
        listing = await self.pm_listing(self.sent_folders[0], 1, 0)
        wanted = {n.casefold() for n in names} if names is not None else None
        new = [
            item
            for item in listing.items
            if int(item.id) > before
            and item.subject == subject.strip()
            and (wanted is None or {r.casefold() for r in item.recipients} <= wanted)
        ]
        if not new:
            raise BoardError(
                N_("{url}: the PM {subject!r} was sent but is not in Sent Items ({why})").format(
                    url=self.base_url, subject=subject, why=why_not
                )
            )
        pm_id: str = min(new, key=lambda i: int(i.id)).id
        log.info("sent PM %s to %s", pm_id, ", ".join(names or ()))
        return pm_id

    async def pm_listing(self, folder: str, number: int, offset: int) -> ListPage:
        """Hook: page `number` of a PM folder (`offset` items listed before it)."""
        raise NotImplementedError

    async def read_pm(self, item: Any) -> PrivateMessage:
        """Hook: the message a folder row lists."""
        raise NotImplementedError

    async def read_pms(self, folders: Sequence[str], since: Cursor | None) -> PMPage:
        """The messages of `folders` with an id above the cursor's `last_id`, oldest first
        (message ids grow with time whichever folder a message sits in)."""
        self.begin()
        after = since.data.get("last_id", 0) if since is not None else 0
        after = after if isinstance(after, int) else 0
        found: dict[str, Any] = {}
        for folder in folders:

            async def listing(number: int, offset: int, folder: str = folder) -> ListPage:
                return await self.pm_listing(folder, number, offset)

            for item in await newer_items(listing, after):
                found.setdefault(item.id, item)
        messages = [await self.read_pm(found[k]) for k in sorted(found, key=int)]
        newest = max([after, *(int(k) for k in found)])
        return PMPage(items=messages, cursor=Cursor({"last_id": newest}))


class PagedBoard(FormLoginBoard):
    """A board whose thread pages are asked for by number (MyBB's `page=`, FluxBB's `p=`):
    the engine gives `thread_page(thread, number)`, its page as read going through
    `noted` (the page size a full page shows, `_per_page`); the size is kept in the
    cursor, so a restarted poll finds its page, and `board check`'s offsets are turned into
    page numbers with it."""

    default_per_page: ClassVar[int] = 10
    """The engine's stock page size, until a full page shows the board's."""
    _per_page: int | None = None
    default_date_order: ClassVar[str | None] = None
    """How the engine's dates order day, month and year ("mdy", "ymd") until the board
    shows its own; None where the pages say it (no `date_order` option then)."""
    default_selectors: ClassVar[Any] = None
    """The engine's selectors for its stock style (a `selectors=` option replaces them)."""

    def __init__(
        self,
        base_url: str,
        username: str,
        password: str,
        *,
        tz: tzinfo | None = None,
        date_order: str | None = None,
        selectors: Any = None,
        **options: Any,
    ) -> None:
        super().__init__(base_url, username, password, tz=tz, **options)
        self._tz = tz
        """The zone the host configured (None: the engine reads the board's)."""
        if date_order is not None and self.default_date_order is None:
            raise ValueError(f"{self.engine} reads the order of its dates from the board")
        self.date_order = date_order or self.default_date_order or "ymd"
        self._order_known = date_order is not None
        """Whether the host gave the order (else the engine may read it from the board)."""
        self.selectors = selectors if selectors is not None else self.default_selectors

    async def thread_page(self, thread: str, number: int = 1) -> Any:
        """Hook: page `number` (from 1) of the thread, parsed."""
        raise NotImplementedError

    def noted(self, view: TopicPage) -> TopicPage:
        """A thread page as read: one before the last shows the board's page size, kept
        for the cursor."""
        if view.page < view.pages:
            self._per_page = view.per_page
        return view

    async def topic_page(self, topic: str, start: int = 0) -> Any:
        """The page holding the post at offset `start` (as `board check` asks for pages)."""
        size = self._per_page or self.default_per_page
        return await self.thread_page(self.topic_id(topic), start // size + 1)

    async def thread_view(self, thread: str, number: int) -> Any:
        return await self.thread_page(thread, number)

    def _resume(self, state: Mapping[str, Any], thread: str) -> Resume | None:
        resume = Resume.of(state, thread)
        if resume is not None and isinstance(state.get("per_page"), int) and not self._per_page:
            self._per_page = state["per_page"]
        return resume

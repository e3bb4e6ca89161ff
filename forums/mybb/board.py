"""`MybbBoard`: the `Board` protocol over a MyBB 1.8 board, as the GM's account.

Fetching and the board's moods live here; what a page says is read by the pure parsers
(`forums.mybb.thread`, `forums.mybb.pms`, `forums.mybb.forms`); replying and sending PMs
are in `forums.mybb.posting`.

Cursors. A thread cursor is `{"thread", "last_id", "page", "per_page"}`: the highest post
id seen and the page that held it. A poll starts at that page (stepping back while the page
holds only unseen posts: deletions move posts to earlier pages) and reads on to the last
page; it returns every post on the pages it read, so an edit there — or MyBB merging a
player's second post into the first — is seen at once, not only at the deadline. `since=None`
reads every page (the deadline freeze). A PM cursor is `{"last_id"}`: MyBB's `pmid`s grow
with time in every folder.

Time. MyBB pages print times in the GM's zone and name none: each page's zone (and the
m-d/d-m order) comes from its footer clock against the server's `Date` header, unless `tz`
(and `date_order`) are given.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, datetime, tzinfo
from email.utils import parsedate_to_datetime
from urllib.parse import parse_qs, urlsplit

import httpx

from forums.board import PMPage, ThreadPage
from forums.browser import BrowserLogin, hand_over_session
from forums.errors import CaptchaRequired, LayoutChanged, LoginFailed, NotFound, SessionExpired
from forums.guard import redact
from forums.mybb import forms, posting
from forums.mybb.dates import read_clock
from forums.mybb.forms import PageKind
from forums.mybb.pms import SENT, PMFolder, PMListItem, parse_pm_folder, parse_pm_view
from forums.mybb.selectors import DEFAULT, MybbSelectors
from forums.mybb.thread import parse_thread_page
from forums.pages import TopicPage
from forums.phpbb.board import CAPTCHA_HELP, _Secret
from forums.phpbb.client import PhpbbClient, Sleep
from forums.records import Cursor, Post, PrivateMessage, User

log = logging.getLogger("forums.mybb")

Clock = Callable[[], datetime]

TWO_STEP_HELP = (
    "{url}: the account {user!r} asks for a one-time code after its password (two-step "
    "verification), which forumgm cannot give. Switch it off for the GM account (User CP), "
    "or ask the board's administrator to exempt that account."
)
LOGIN_KINDS = frozenset({PageKind.LOGIN_FORM, PageKind.NOT_LOGGED_IN, PageKind.SESSION_EXPIRED})
INBOX = "0"


class MybbBoard:
    """A MyBB 1.8 board (default theme and themes that keep its classes), as the GM."""

    engine = "mybb"

    def __init__(
        self,
        base_url: str,
        username: str,
        password: str,
        *,
        client: httpx.AsyncClient | None = None,
        tz: tzinfo | None = None,
        date_order: str | None = None,
        min_delay: float = 1.0,
        clock: Clock | None = None,
        sleep: Sleep | None = None,
        max_tries: int = 4,
        flood_wait: float = 30.0,
        flood_retries: int = 2,
        selectors: MybbSelectors = DEFAULT,
        allow_insecure_http: bool = False,
        browser: bool = False,
        browser_login: BrowserLogin | None = None,
    ) -> None:
        self.base_url = base_url.rstrip("/") + "/"
        self.username = username
        self._password = _Secret(password)
        self._tz = tz
        self.tz: tzinfo | None = tz
        """The zone the last page was printed in (what `board check` shows)."""
        self.date_order = date_order or "mdy"
        self._order_known = date_order is not None
        self._clock: Clock = clock or (lambda: datetime.now(UTC))
        # phpBB's polite client: spacing, bounded retries with backoff, never a POST twice,
        # and every request pinned to this board (forums.guard).
        self.http = PhpbbClient(
            self.base_url,
            client=client,
            allow_insecure_http=allow_insecure_http,
            min_delay=min_delay,
            max_tries=max_tries,
            sleep=sleep,
            monotonic=(lambda: self._clock().timestamp()) if clock is not None else None,
        )
        self.flood_wait = flood_wait
        self.flood_retries = flood_retries
        self.selectors = selectors
        self._me: User | None = None
        self._relogins_left = 1
        self._members: dict[str, User] = {}
        self._per_page: int | None = None
        self._times: dict[str, datetime] = {}
        """When each post was made, as last seen: a deleted-post stub shows no time."""
        self.highest_post = 0
        """The highest post id seen on this board (a reply below it was merged)."""
        self.browser = browser
        """Log in through Chromium (`forums.browser`): boards that only let a browser in."""
        self._browser_login = browser_login
        self._allow_insecure_http = allow_insecure_http

    def __repr__(self) -> str:
        return f"MybbBoard({self.base_url!r}, {self.username!r})"

    # -- session ----------------------------------------------------------------------

    async def login(self) -> User:
        """Log in with the board's form (`my_post_key`, "remember me"); the GM's `User`."""
        self._me = None
        if self.browser:
            return await self._login_with_browser()
        response = await self.http.get(self.http.url("member.php", {"action": "login"}))
        html, url = response.text, str(response.url)
        kind = forms.classify(html, url, self.selectors)
        self._refuse(kind)
        if kind not in (PageKind.LOGIN_FORM, PageKind.LOGIN_FAILED):
            user = forms.logged_in_user(html, self.selectors)
            if user is not None and user.name.casefold() == self.username.casefold():
                return self._logged_in(user)  # the cookies of an earlier login still work
            raise LayoutChanged(redact(url), f"expected the login form, got a {kind.value} page")
        form = forms.login_form(html, url)
        self.http.origin.check(form.action, "the login form (it would get the GM's password)")
        data = form.data(username=self.username, password=self._password.reveal())
        data.setdefault("remember", "yes")
        response = await self.http.post(form.action, data)
        if response.is_redirect:
            response = await self.http.get(forms.absolute(url, response.headers["Location"]))
        html, url = response.text, str(response.url)
        kind = forms.classify(html, url, self.selectors)
        self._refuse(kind)
        if kind in LOGIN_KINDS | {PageKind.LOGIN_FAILED, PageKind.MESSAGE}:
            said = forms.message(html, self.selectors) or "the login form came back"
            raise LoginFailed(f"{self.base_url}: login as {self.username!r} failed: {said}")
        # The answer is a "you are now logged in" redirect page without the header.
        return await self._session_user(f"logging in as {self.username!r}")

    async def _login_with_browser(self) -> User:
        """Chromium logs in (JS challenge, login widget); httpx goes on with its cookies."""
        await hand_over_session(
            self.http.http,
            self.http.url("member.php", {"action": "login"}),
            self.username,
            self._password.reveal(),
            login=self._browser_login,
            allow_insecure_http=self._allow_insecure_http,
        )
        return await self._session_user("the browser login")

    async def _session_user(self, after: str) -> User:
        """Whom the board's index now shows: the GM, or the login failed."""
        response = await self.http.get(self.http.url("index.php"))
        self._refuse(forms.classify(response.text, str(response.url), self.selectors))
        user = forms.logged_in_user(response.text, self.selectors)
        if user is None or user.name.casefold() != self.username.casefold():
            raise LoginFailed(
                f"{self.base_url}: after {after} the board shows "
                f"{user.name if user else 'a guest'} (cookies refused?)"
            )
        return self._logged_in(user)

    def _refuse(self, kind: PageKind) -> None:
        """A CAPTCHA or a one-time code: what forumgm cannot do, said to the host."""
        if kind is PageKind.CAPTCHA:
            raise CaptchaRequired(CAPTCHA_HELP.format(url=self.base_url, user=self.username))
        if kind is PageKind.TWO_STEP:
            raise LoginFailed(TWO_STEP_HELP.format(url=self.base_url, user=self.username))

    def _logged_in(self, user: User) -> User:
        self._me = user
        log.info("logged in to %s as %s (id %s)", self.base_url, user.name, user.id)
        return user

    async def whoami(self) -> User | None:
        return self._me

    async def close(self) -> None:
        await self.http.aclose()

    def begin(self) -> None:
        """A public operation starts: it may log in again once if the session expired."""
        self._relogins_left = 1

    async def ensure_login(self) -> None:
        if self._me is None:
            await self.login()

    async def relogin(self, url: str, kind: PageKind) -> None:
        self._refuse(kind)
        if self._relogins_left <= 0:
            raise SessionExpired(
                f"{redact(url)}: the board dropped the session of {self.username!r} again "
                "right after a fresh login (cookies refused? banned? IP-bound sessions?)"
            )
        self._relogins_left -= 1
        log.info("session expired at %s (%s): logging in again", redact(url), kind.value)
        await self.login()

    async def page(
        self, path: str, params: Mapping[str, str | int], expect: set[PageKind]
    ) -> tuple[str, str, httpx.Response]:
        """GET a page that needs the GM's session: (html, final url, response).

        A login form, a not-logged-in page or a page served to a guest means the session
        is gone: log in again (once per operation) and ask again."""
        await self.ensure_login()
        while True:
            response = await self.http.get(self.http.url(path, params))
            html, url = response.text, str(response.url)
            kind = forms.classify(html, url, self.selectors)
            if kind in LOGIN_KINDS or kind in (PageKind.CAPTCHA, PageKind.TWO_STEP):
                await self.relogin(url, kind)
                continue
            if forms.is_guest(html, self.selectors):
                # A page guests may read, served as to a guest: the session is gone.
                await self.relogin(url, PageKind.SESSION_EXPIRED)
                continue
            if kind in expect:
                return html, url, response
            said = forms.message(html, self.selectors)
            if response.status_code == 404 or kind is PageKind.MESSAGE:
                raise NotFound(f"{redact(url)}: {said or f'HTTP {response.status_code}'}")
            wanted = " or ".join(sorted(k.value for k in expect))
            raise LayoutChanged(
                redact(url),
                f"expected a {wanted} page, got {kind.value}" + (f" ({said})" if said else ""),
            )

    def reading(self, html: str, response: httpx.Response) -> tuple[tzinfo, str, datetime]:
        """(zone, date order, now) to read this page's times with."""
        now = self._clock()
        stamp = response.headers.get("Date")
        if stamp:
            with contextlib.suppress(TypeError, ValueError):
                now = parsedate_to_datetime(stamp)
        shown = forms.footer_clock(html, self.selectors)
        clock = read_clock(shown, now) if shown else None
        if clock is not None and clock.order is not None and not self._order_known:
            self.date_order = clock.order
        tz = self._tz or (clock.tz if clock is not None else self.tz)
        if tz is None:
            raise LayoutChanged(
                redact(str(response.url)),
                "the page shows no clock to read the time zone from and none is configured",
            )
        self.tz = tz
        return tz, self.date_order, now

    # -- thread ------------------------------------------------------------------------

    @staticmethod
    def topic_id(thread: str) -> str:
        """ "1", "tid=1", a showthread URL or an SEO URL (`thread-1.html`) → "1"."""
        thread = thread.strip()
        if thread.isdigit():
            return thread
        tid = forms.query_param(thread, "tid") or next(iter(parse_qs(thread).get("tid", [])), None)
        if tid and tid.isdigit():
            return tid
        found = forms.seo_thread_id(urlsplit(thread).path)
        if found:
            return found
        raise NotFound(f"not a MyBB thread: {thread!r}")

    async def thread_page(self, thread: str, number: int = 1) -> TopicPage:
        """One page of a thread in linear mode, parsed; a page without posts is a layout change."""
        params: dict[str, str | int] = {"tid": thread, "mode": "linear"}
        if number > 1:
            params["page"] = number
        html, url, response = await self.page("showthread.php", params, {PageKind.TOPIC})
        tz, order, now = self.reading(html, response)
        view = parse_thread_page(
            html,
            url,
            tz=tz,
            now=now,
            order=order,
            per_page=self._per_page,
            known_times=self._times,
            selectors=self.selectors,
        )
        self._note(view)
        return view

    def _note(self, view: TopicPage) -> None:
        if view.page < view.pages:
            self._per_page = view.per_page
        for post in view.posts:
            if post.body.runs or not post.deleted:
                self._times[post.id] = post.posted_at
            self.highest_post = max(self.highest_post, int(post.id))

    async def topic_page(self, topic: str, start: int = 0) -> TopicPage:
        """The page holding the post at offset `start` (as `board check` asks for pages)."""
        size = self._per_page or 10
        return await self.thread_page(self.topic_id(topic), start // size + 1)

    async def thread_posts(self, thread: str, since: Cursor | None = None) -> ThreadPage:
        """Posts of a thread: all of them (since=None), or those on the pages from the
        cursor's to the last."""
        self.begin()
        tid = self.topic_id(thread)
        state = since.data if since is not None else {}
        incremental = (
            state.get("thread") == tid
            and isinstance(state.get("last_id"), int)
            and isinstance(state.get("page"), int)
            and state["page"] >= 1
        )
        if since is not None and not incremental:
            log.warning("thread cursor %s does not fit thread %s: reading it all", since.data, tid)
        if incremental and isinstance(state.get("per_page"), int) and self._per_page is None:
            self._per_page = state["per_page"]
        last_id: int = state["last_id"] if incremental else 0
        views: dict[int, TopicPage] = {}

        async def fetch(number: int) -> TopicPage:
            if number in views:  # never read one page twice in one sync
                return views[number]
            view = await self.thread_page(tid, number)
            views[view.page] = view
            if view.page != number and view.pages not in views:
                # Past the end MyBB serves page 1: the thread has fewer pages now.
                return await fetch(view.pages)
            return view

        if incremental:
            view = await fetch(state["page"])
            while view.page > 1 and min(int(p.id) for p in view.posts) > last_id:
                view = await fetch(view.page - 1)
        view = await fetch(max(views) if views else 1)
        while view.page < view.pages:
            view = await fetch(view.page + 1)

        seen: dict[str, Post] = {}
        for number in sorted(views):
            for post in views[number].posts:
                seen.setdefault(post.id, post)
        last = views[max(views)]
        cursor = Cursor(
            {
                "thread": tid,
                "last_id": max([last_id, *(int(p) for p in seen)]),
                "page": last.page,
                "per_page": self._per_page or last.per_page,
            }
        )
        return ThreadPage(items=list(seen.values()), cursor=cursor)

    # -- private messages --------------------------------------------------------------

    async def pm_folder(self, folder: str = INBOX, number: int = 1) -> PMFolder:
        params: dict[str, str | int] = {"fid": folder}
        if number > 1:
            params["page"] = number
        html, url, response = await self.page("private.php", params, {PageKind.PM_FOLDER})
        tz, order, now = self.reading(html, response)
        return parse_pm_folder(html, url, tz=tz, now=now, order=order, selectors=self.selectors)

    async def _folder_items(self, folder: str, after: int) -> list[PMListItem]:
        """The folder's items with an id above `after`, reading pages until older ones show."""
        items: list[PMListItem] = []
        number = 1
        while True:
            listing = await self.pm_folder(folder, number)
            items.extend(listing.items)
            if not listing.items or listing.page >= listing.pages:
                break
            if any(int(item.id) <= after for item in listing.items):
                break
            number += 1
        return [item for item in items if int(item.id) > after]

    async def read_pm(self, item: PMListItem) -> PrivateMessage:
        params = {"action": "read", "pmid": item.id}
        html, url, response = await self.page("private.php", params, {PageKind.PM_VIEW})
        tz, order, now = self.reading(html, response)
        pm = parse_pm_view(html, url, tz=tz, now=now, order=order, selectors=self.selectors)
        if pm.id != item.id:
            raise LayoutChanged(redact(url), f"asked for PM {item.id}, the page shows PM {pm.id}")
        return pm

    async def _pms(self, folder: str, since: Cursor | None) -> PMPage:
        self.begin()
        after = since.data.get("last_id", 0) if since is not None else 0
        after = after if isinstance(after, int) else 0
        found = {item.id: item for item in await self._folder_items(folder, after)}
        messages = [await self.read_pm(found[k]) for k in sorted(found, key=int)]
        newest = max([after, *(int(k) for k in found)])
        return PMPage(items=messages, cursor=Cursor({"last_id": newest}))

    async def inbox(self, since: Cursor | None = None) -> PMPage:
        """PMs to the GM, oldest first, with an id above the cursor's."""
        return await self._pms(INBOX, since)

    async def sent(self, since: Cursor | None = None) -> PMPage:
        """The GM's copies in "Sent Items" (MyBB keeps one when "Save a Copy" is ticked)."""
        return await self._pms(SENT, since)

    # -- users -------------------------------------------------------------------------

    async def find_user(self, name: str) -> User | None:
        """A user by name (case-insensitive), through the member list's search."""
        self.begin()
        key = name.strip().casefold()
        if key in self._members:
            return self._members[key]
        number = 1
        while True:
            params: dict[str, str | int] = {"username": name.strip()}
            if number > 1:
                params["page"] = number
            html, url, _ = await self.page(
                "memberlist.php", params, {PageKind.MEMBERLIST, PageKind.MESSAGE}
            )
            if forms.classify(html, url, self.selectors) is PageKind.MESSAGE:
                return None  # "no members found"
            listing = forms.parse_memberlist(html, url, self.selectors)
            for user in listing.users:
                self._members.setdefault(user.name.casefold(), user)
            if key in self._members:
                return self._members[key]
            if listing.page >= listing.pages or not listing.users:
                return None
            number += 1

    # -- posting -------------------------------------------------------------------------

    async def reply(self, thread: str, bbcode: str) -> str:
        """Post to the thread; the new post's id once it is seen on the thread page."""
        return await posting.reply(self, thread, bbcode)

    async def send_pm(self, recipients: Sequence[str], subject: str, bbcode: str) -> str:
        """Send a PM; its id (of the GM's copy) once it is listed in Sent Items."""
        return await posting.send_pm(self, recipients, subject, bbcode)

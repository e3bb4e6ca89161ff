"""`PhpbbBoard`: the `Board` protocol over a phpBB 3.x board, as the GM's account.

Fetching and the board's moods live here; what a page says is read by the pure parsers
(`forums.phpbb.topic`, `forums.phpbb.pms`, `forums.phpbb.forms`).

Cursors. A thread cursor is `{"topic", "last_id", "count", "per_page"}`: the highest post
id seen, how many posts the thread had and its page size. A poll starts at the page that
held the last seen post and reads on to the last page; `since=None` re-reads every page (the
deadline freeze, which catches edits and deletions). A PM cursor is `{"last_id"}`; PM ids
grow with time on phpBB, whichever folder a message sits in.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, datetime, tzinfo
from urllib.parse import parse_qs, urljoin, urlsplit

import httpx

from forums.board import PMPage, ThreadPage
from forums.browser import BrowserLogin, hand_over_session
from forums.errors import (
    BoardError,
    CaptchaRequired,
    FloodControl,
    LayoutChanged,
    LoginFailed,
    NotFound,
    SessionExpired,
)
from forums.phpbb import forms
from forums.phpbb.client import PhpbbClient, Sleep, redact
from forums.phpbb.dates import detect_timezone, server_date
from forums.phpbb.forms import Form, PageKind, Selectors
from forums.phpbb.pms import PMFolder, PMListItem, parse_pm_folder, parse_pm_view
from forums.phpbb.topic import TopicPage, parse_topic_page
from forums.records import Cursor, Post, PrivateMessage, User

log = logging.getLogger("forums.phpbb")

Clock = Callable[[], datetime]

_LOGIN_KINDS = {PageKind.LOGIN_FORM, PageKind.NOT_LOGGED_IN, PageKind.SESSION_EXPIRED}

CAPTCHA_HELP = (
    "The board at {url} wants a CAPTCHA before {user!r} may log in (usually after several "
    "failed logins). Log in once by hand in a browser as {user!r}, solving the CAPTCHA, or "
    "ask the board's administrator to reset the login attempts or exempt the GM account; "
    "then run `forumgm board check` again."
)


class _Secret:
    """A password that never shows itself in a repr, a log line or a traceback's locals."""

    __slots__ = ("_value",)

    def __init__(self, value: str) -> None:
        self._value = value

    def reveal(self) -> str:
        return self._value

    def __repr__(self) -> str:
        return "<secret>"

    __str__ = __repr__


class PhpbbBoard:
    """A phpBB 3.x board (prosilver and derived styles) seen through the GM's account."""

    engine = "phpbb"
    selectors = Selectors
    folders: Mapping[str, str] = {"inbox": "inbox", "outbox": "outbox", "sentbox": "sentbox"}

    def __init__(
        self,
        base_url: str,
        username: str,
        password: str,
        *,
        client: httpx.AsyncClient | None = None,
        tz: tzinfo | None = None,
        min_delay: float = 1.0,
        clock: Clock | None = None,
        sleep: Sleep | None = None,
        max_tries: int = 4,
        form_min_age: float = 2.0,
        flood_wait: float = 15.0,
        flood_retries: int = 2,
        allow_insecure_http: bool = False,
        browser: bool = False,
        browser_login: BrowserLogin | None = None,
    ) -> None:
        self.base_url = base_url.rstrip("/") + "/"
        self.username = username
        self._password = _Secret(password)
        self.tz = tz
        self._clock: Clock = clock or (lambda: datetime.now(UTC))
        self.http = PhpbbClient(
            self.base_url,
            client=client,
            min_delay=min_delay,
            max_tries=max_tries,
            sleep=sleep,
            monotonic=(lambda: self._clock().timestamp()) if clock is not None else None,
            allow_insecure_http=allow_insecure_http,
        )
        self.form_min_age = form_min_age
        self.flood_wait = flood_wait
        self.flood_retries = flood_retries
        self._me: User | None = None
        self._relogins_left = 1
        self._members: dict[str, User] = {}
        self.browser = browser
        """Log in through Chromium (`forums.browser`): boards that only let a browser in."""
        self._browser_login = browser_login
        self._allow_insecure_http = allow_insecure_http

    def __repr__(self) -> str:
        return f"PhpbbBoard({self.base_url!r}, {self.username!r})"

    # -- session ----------------------------------------------------------------------

    async def login(self) -> User:
        """Log in with the board's form (form token, "remember me"); the GM's `User`."""
        self._me = None
        if self.browser:
            return await self._login_with_browser()
        url = self.http.url("ucp.php", {"mode": "login"})
        response = await self.http.get(url)
        html, url = response.text, str(response.url)
        fetched = self.http.now()
        kind = forms.classify(html, url)
        if kind is PageKind.CAPTCHA:
            raise CaptchaRequired(CAPTCHA_HELP.format(url=self.base_url, user=self.username))
        if kind not in _LOGIN_KINDS | {PageKind.LOGIN_FAILED}:
            if forms.logged_in_as(html) == self.username:
                return self._logged_in(html, url)
            raise LayoutChanged(url, f"expected the login form, got a {kind.value} page")
        form = forms.parse_form(html, url, Selectors.login_form)
        self.http.origin.check(form.action, "the login form (it would get the GM's password)")
        await self._age(fetched)
        data = form.data(
            username=self.username,
            password=self._password.reveal(),
            autologin="on",
            login="Login",
        )
        response = await self.http.post(form.action, data)
        if response.is_redirect:
            response = await self.http.get(urljoin(url, response.headers["Location"]))
        html, url = response.text, str(response.url)
        kind = forms.classify(html, url)
        if kind is PageKind.CAPTCHA:
            raise CaptchaRequired(CAPTCHA_HELP.format(url=self.base_url, user=self.username))
        if kind in _LOGIN_KINDS | {PageKind.LOGIN_FAILED}:
            said = forms.message_box(html) or "the login form came back"
            raise LoginFailed(f"{self.base_url}: login as {self.username!r} failed: {said}")
        if forms.logged_in_as(html) is None:
            # A "you have been logged in" box without the header: look at the index.
            response = await self.http.get(self.http.url("index.php"))
            html, url = response.text, str(response.url)
        name = forms.logged_in_as(html)
        if name is None or name.casefold() != self.username.casefold():
            raise LoginFailed(
                f"{self.base_url}: after logging in as {self.username!r} the board shows "
                f"{name or 'a guest'}"
            )
        return self._logged_in(html, url)

    async def _login_with_browser(self) -> User:
        """Chromium logs in (JS challenge, login widget); httpx goes on with its cookies."""
        await hand_over_session(
            self.http.http,
            self.http.url("ucp.php", {"mode": "login"}),
            self.username,
            self._password.reveal(),
            login=self._browser_login,
            allow_insecure_http=self._allow_insecure_http,
        )
        response = await self.http.get(self.http.url("index.php"))
        html, url = response.text, str(response.url)
        name = forms.logged_in_as(html)
        if name is None or name.casefold() != self.username.casefold():
            raise LoginFailed(
                f"{self.base_url}: after the browser login the board shows {name or 'a guest'}"
            )
        return self._logged_in(html, url)

    def _logged_in(self, html: str, url: str) -> User:
        if self.http.sid is None:
            self.http.sid = forms.sid_from_html(html)
        self.http.sid_in_urls = forms.links_carry_sid(html)
        name = forms.logged_in_as(html) or self.username
        user_id = forms.logged_in_user_id(html, url) or ""
        self._me = User(id=user_id, name=name)
        log.info("logged in to %s as %s (id %s)", self.base_url, name, user_id or "?")
        return self._me

    async def whoami(self) -> User | None:
        return self._me

    async def close(self) -> None:
        await self.http.aclose()

    def _begin(self) -> None:
        """A public operation starts: it may re-login once if the session expired."""
        self._relogins_left = 1

    async def _ensure_login(self) -> None:
        if self._me is None:
            await self.login()

    async def _age(self, fetched: float) -> None:
        """phpBB rejects a form posted less than ~1 s after it was served: wait as needed."""
        await self.http.sleep(fetched + self.form_min_age - self.http.now())

    async def _relogin(self, url: str, kind: PageKind) -> None:
        if kind is PageKind.CAPTCHA:
            raise CaptchaRequired(CAPTCHA_HELP.format(url=self.base_url, user=self.username))
        if self._relogins_left <= 0:
            raise SessionExpired(
                f"{redact(url)}: the board dropped the session of {self.username!r} again "
                "right after a fresh login (cookies refused? banned? IP-bound sessions?)"
            )
        self._relogins_left -= 1
        log.info("session expired at %s (%s): logging in again", redact(url), kind.value)
        await self.login()

    async def _page(
        self, path: str, params: Mapping[str, str | int], expect: set[PageKind]
    ) -> tuple[str, str]:
        """GET a page that needs the GM's session; (html, final url). Re-logs in once."""
        await self._ensure_login()
        while True:
            url = self.http.url(path, params)
            response = await self.http.get(url)
            html, final = response.text, str(response.url)
            self._server_date = response.headers.get("date")
            kind = forms.classify(html, final)
            if kind in _LOGIN_KINDS or kind is PageKind.CAPTCHA:
                await self._relogin(final, kind)
                continue
            if kind in expect and forms.logged_in_as(html) is None:
                # A guest-readable page served to a guest: our session is gone.
                await self._relogin(final, PageKind.SESSION_EXPIRED)
                continue
            if kind in expect:
                return html, final
            said = forms.message_box(html)
            if response.status_code == 404 or kind is PageKind.MESSAGE:
                raise NotFound(f"{redact(final)}: {said or f'HTTP {response.status_code}'}")
            wanted = " or ".join(sorted(k.value for k in expect))
            raise LayoutChanged(
                redact(final),
                f"expected a {wanted} page, got {kind.value}" + (f" ({said})" if said else ""),
            )

    def _tz(self, html: str, url: str) -> tzinfo:
        if self.tz is None:
            found = detect_timezone(html, server_date(getattr(self, "_server_date", None)))
            if found is None:
                raise LayoutChanged(url, "the page names no time zone and none is configured")
            self.tz = found
        return self.tz

    # -- thread ------------------------------------------------------------------------

    @staticmethod
    def topic_id(thread: str) -> str:
        """ "2", "t=2" or a viewtopic URL → "2"."""
        if thread.isdigit():
            return thread
        query = parse_qs(urlsplit(thread).query or thread)
        values = query.get("t")
        if values and values[0].isdigit():
            return values[0]
        raise NotFound(f"not a phpBB topic: {thread!r}")

    async def topic_page(self, topic: str, start: int = 0) -> TopicPage:
        """One page of a topic, parsed; a page without posts is a layout change."""
        params: dict[str, str | int] = {"t": topic}
        if start:
            params["start"] = start
        html, url = await self._page("viewtopic.php", params, {PageKind.TOPIC})
        page = parse_topic_page(html, url, tz=self._tz(html, url), now=self._clock())
        if not page.posts:
            raise LayoutChanged(redact(url), "a topic page with no posts")
        return page

    async def thread_posts(self, thread: str, since: Cursor | None = None) -> ThreadPage:
        """Posts of a thread: all of them (since=None), or those of the pages a poll reads —
        every post after the cursor, and the seen posts those pages show again, as they are
        now: an edit notice (or an edit, a deletion) is taken from every page view."""
        self._begin()
        topic = self.topic_id(thread)
        state = since.data if since is not None else {}
        incremental = (
            state.get("topic") == topic
            and isinstance(state.get("last_id"), int)
            and isinstance(state.get("count"), int)
            and isinstance(state.get("per_page"), int)
            and state["per_page"] > 0
        )
        if since is not None and not incremental:
            log.warning("thread cursor %s does not fit topic %s: reading it all", since.data, topic)
        last_id: int = state["last_id"] if incremental else 0
        pages: dict[int, TopicPage] = {}

        async def fetch(start: int) -> TopicPage:
            if start in pages:  # never read one page twice in one sync
                return pages[start]
            pages[start] = await self.topic_page(topic, start)
            return pages[start]

        if incremental:
            per_page = state["per_page"]
            start = max(0, (state["count"] - 1) // per_page * per_page)
            page = await fetch(start)
            # Deletions move posts to earlier pages: step back until the page starts
            # with a post already seen.
            while start > 0 and min(int(p.id) for p in page.posts) > last_id:
                start = max(0, start - page.per_page)
                page = await fetch(start)
        else:
            page = await fetch(0)
        # Read on to the last page (the thread may grow while we read).
        start = max(pages)
        page = pages[start]
        while page.page < page.pages:
            start = page.start + page.per_page
            page = await fetch(start)

        seen: dict[str, Post] = {}
        for key in sorted(pages):
            for post in pages[key].posts:
                seen.setdefault(post.id, post)
        posts = list(seen.values())
        last = pages[max(pages)]
        cursor = Cursor(
            {
                "topic": topic,
                "last_id": max([last_id, *(int(p) for p in seen)]),
                "count": last.total_posts or max(p.number for p in last.posts),
                "per_page": last.per_page,
            }
        )
        return ThreadPage(items=posts, cursor=cursor)

    # -- private messages --------------------------------------------------------------

    async def pm_folder(self, folder: str, start: int = 0) -> PMFolder:
        params: dict[str, str | int] = {"i": "pm", "folder": self.folders.get(folder, folder)}
        if start:
            params["start"] = start
        html, url = await self._page("ucp.php", params, {PageKind.PM_FOLDER})
        return parse_pm_folder(html, url, tz=self._tz(html, url), now=self._clock())

    async def _folder_items(self, folder: str, after: int) -> list[PMListItem]:
        """The folder's items with an id above `after`, reading pages until older ones show."""
        items: list[PMListItem] = []
        start = 0
        while True:
            page = await self.pm_folder(folder, start)
            items.extend(page.items)
            if not page.items or page.page >= page.pages:
                break
            if any(int(item.id) <= after for item in page.items):
                break
            start += len(page.items)
        return [item for item in items if int(item.id) > after]

    async def read_pm(self, item: PMListItem) -> PrivateMessage:
        path = item.url or f"ucp.php?i=pm&mode=view&p={item.id}"
        params = dict(parse_qs(urlsplit(urljoin(self.base_url, path)).query))
        flat = {k: v[0] for k, v in params.items() if k != "sid"}
        html, url = await self._page("ucp.php", flat, {PageKind.PM_VIEW})
        return parse_pm_view(html, url, tz=self._tz(html, url), now=self._clock())

    async def _pms(self, folders: Sequence[str], since: Cursor | None) -> PMPage:
        self._begin()
        after = since.data.get("last_id", 0) if since is not None else 0
        after = after if isinstance(after, int) else 0
        found: dict[str, PMListItem] = {}
        for folder in folders:
            for item in await self._folder_items(folder, after):
                found.setdefault(item.id, item)
        messages = [await self.read_pm(found[k]) for k in sorted(found, key=int)]
        newest = max([after, *(int(k) for k in found)])
        return PMPage(items=messages, cursor=Cursor({"last_id": newest}))

    async def inbox(self, since: Cursor | None = None) -> PMPage:
        """PMs to the GM, oldest first, with an id above the cursor's."""
        return await self._pms(["inbox"], since)

    async def sent(self, since: Cursor | None = None) -> PMPage:
        """PMs the GM sent: the outbox (unread by recipients) and the sentbox (read)."""
        return await self._pms(["outbox", "sentbox"], since)

    # -- users -------------------------------------------------------------------------

    async def find_user(self, name: str) -> User | None:
        """A user by name (case-insensitive), through the memberlist."""
        self._begin()
        key = name.strip().casefold()
        if key in self._members:
            return self._members[key]
        searched = await self._members_page({"mode": "searchuser", "username": name.strip()})
        if searched is not None and key in self._members:
            return self._members[key]
        # The search may be disabled for the GM: walk the whole list.
        start = 0
        while True:
            listing = await self._members_page({"start": start} if start else {})
            if listing is None:
                raise LayoutChanged(self.http.url("memberlist.php"), "no member list")
            if key in self._members:
                return self._members[key]
            if listing.page >= listing.pages or not listing.users:
                return None
            start += len(listing.users)

    async def _members_page(self, params: Mapping[str, str | int]) -> forms.MemberList | None:
        html, url = await self._page(
            "memberlist.php", params, {PageKind.MEMBERLIST, PageKind.MESSAGE}
        )
        if forms.classify(html, url) is not PageKind.MEMBERLIST:
            return None
        listing = forms.parse_memberlist(html, url)
        for user in listing.users:
            self._members.setdefault(user.name.casefold(), user)
        return listing

    # -- posting -----------------------------------------------------------------------

    async def _form(self, path: str, params: Mapping[str, str | int]) -> tuple[Form, float]:
        html, url = await self._page(path, params, {PageKind.POSTING_FORM})
        return forms.parse_form(html, url, Selectors.post_form), self.http.now()

    async def _submit(
        self, path: str, params: Mapping[str, str | int], fields: Callable[[Form], dict[str, str]]
    ) -> httpx.Response:
        """Fetch a posting form, fill it and post it, through phpBB's refusals.

        Flood control: wait and post again (`flood_retries` times), then `FloodControl`.
        An invalid form token: fetch a fresh form once. New posts in the topic since the
        form was served: post again with the re-displayed form. An expired session:
        re-login once and start over. Returns the board's answer to the accepted POST."""
        form, fetched = await self._form(path, params)
        floods = refetched = new_posts = 0
        while True:
            self.http.origin.check(form.action, "the posting form")
            await self._age(fetched)
            response = await self.http.post(form.action, fields(form))
            if response.is_redirect:
                return response
            html, url = response.text, str(response.url)
            kind = forms.classify(html, url)
            said = forms.message_box(html)
            if kind is PageKind.POSTED:
                return response
            if kind in _LOGIN_KINDS or kind is PageKind.CAPTCHA:
                await self._relogin(url, kind)
                form, fetched = await self._form(path, params)
            elif kind is PageKind.FLOOD:
                if floods >= self.flood_retries:
                    raise FloodControl(f"{self.base_url}: {said}", retry_after=self.flood_wait)
                floods += 1
                log.info("flood control at %s: waiting %.0f s", redact(url), self.flood_wait)
                await self.http.sleep(self.flood_wait)
                form, fetched = forms.parse_form(html, url, Selectors.post_form), self.http.now()
            elif kind is PageKind.FORM_INVALID:
                if refetched:
                    raise BoardError(f"{redact(url)}: the board rejected a fresh form: {said}")
                refetched += 1
                form, fetched = await self._form(path, params)
            elif kind is PageKind.NEW_POSTS and new_posts < 3:
                new_posts += 1
                form, fetched = forms.parse_form(html, url, Selectors.post_form), self.http.now()
            elif kind in (PageKind.FORM_ERROR, PageKind.MESSAGE, PageKind.NEW_POSTS):
                raise BoardError(f"{redact(url)}: the board refused the submission: {said}")
            else:
                raise LayoutChanged(redact(url), f"unexpected answer to a submission: {kind.value}")

    async def reply(self, thread: str, bbcode: str) -> str:
        """Post to the topic; the new post's id once it is seen on the topic page."""
        self._begin()
        await self._ensure_login()
        topic = self.topic_id(thread)

        def fields(form: Form) -> dict[str, str]:
            return form.data(subject=form.texts.get("subject", ""), message=bbcode, post="Submit")

        response = await self._submit("posting.php", {"mode": "reply", "t": topic}, fields)
        location = response.headers.get("Location", "") if response.is_redirect else ""
        post_id = forms.post_id_from_location(location) if location else None
        if post_id is None:
            raise LayoutChanged(
                redact(str(response.url)), "the reply was accepted without naming the new post"
            )
        html, url = await self._page("viewtopic.php", {"p": post_id}, {PageKind.TOPIC})
        page = parse_topic_page(html, url, tz=self._tz(html, url), now=self._clock())
        if not any(p.id == post_id for p in page.posts):
            raise BoardError(
                f"{redact(url)}: the reply was accepted but post {post_id} is not there"
            )
        log.info("posted %s in topic %s", post_id, topic)
        return post_id

    async def send_pm(self, recipients: Sequence[str], subject: str, bbcode: str) -> str:
        """Send a PM; its id once it is listed in the GM's outbox or sentbox."""
        if not recipients:
            raise ValueError("a private message needs at least one recipient")
        users = []
        for name in recipients:
            user = await self.find_user(name)
            if user is None:
                raise NotFound(f"{self.base_url}: no user named {name!r}")
            users.append(user)
        self._begin()

        def fields(form: Form) -> dict[str, str]:
            data = form.data(subject=subject, message=bbcode, post="Submit")
            for key in [k for k in data if k.startswith("address_list[")]:
                del data[key]
            data.update({f"address_list[u][{u.id}]": "to" for u in users})
            return data

        response = await self._submit("ucp.php", {"i": "pm", "mode": "compose"}, fields)
        if response.is_redirect:
            response = await self.http.get(urljoin(str(response.url), response.headers["Location"]))
        pm_id = forms.pm_id_from_confirmation(response.text, str(response.url))
        for folder in ("outbox", "sentbox"):
            page = await self.pm_folder(folder)
            if any(item.id == pm_id for item in page.items):
                log.info("sent PM %s to %s", pm_id, ", ".join(u.name for u in users))
                return pm_id
        raise BoardError(
            f"{self.base_url}: PM {pm_id} was sent but is in neither outbox nor sentbox"
        )

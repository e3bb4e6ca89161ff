"""`XenforoBoard`: the `Board` protocol over a XenForo 2.x (or 1.x) board's HTML pages.

Fetching and the board's moods live here; what a page says is read by the pure parsers
(`forums.xenforo.thread`, `conversations`, `pages`).

Cursors. A thread cursor is `{"thread", "last_id", "page", "per_page"}`: the highest post id
seen and the page it was on. A poll starts at that page (stepping back while a page starts
with an unseen post: deletions move posts up) and reads on to the last page; `since=None`
reads every page (the deadline freeze). A PM cursor is `{"last_id", "latest", "pages"}`:
the highest message id seen, the newest conversation activity seen (Unix time) and, per
conversation, the page read last; a poll opens only conversations active since then.

Form posts ask for XenForo's JSON answer (`_xfResponseType=json`): a redirect names the new
post or conversation, an error names its reason (flood control, a stale token, a logout).
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, datetime, tzinfo
from typing import Any
from urllib.parse import quote, urljoin

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
from forums.phpbb.board import _Secret
from forums.phpbb.client import PhpbbClient, Sleep
from forums.records import Cursor, Post, User
from forums.xenforo import pages
from forums.xenforo.conversations import (
    ConversationRow,
    ConversationView,
    PMState,
    conversation_id_of,
    parse_conversation_list,
    parse_conversation_view,
)
from forums.xenforo.pages import PageKind
from forums.xenforo.thread import ThreadView, parse_thread_page, thread_id_of

log = logging.getLogger("forums.xenforo")

Clock = Callable[[], datetime]

CAPTCHA = (
    ".g-recaptcha, .h-captcha, .cf-turnstile, [data-xf-init~='re-captcha'], "
    "[data-xf-init~='h-captcha'], [data-xf-init~='turnstile'], input[name='captcha_question_answer']"
)
CAPTCHA_HELP = (
    "The board at {url} wants a CAPTCHA before {user!r} may log in. Log in once by hand in a "
    "browser as {user!r}, or ask the board's administrator to lift it for the GM account; "
    "then run `forumgm board check` again."
)
TWO_STEP_HELP = (
    "{url}: the account {user!r} has two-step verification switched on, so forumgm cannot log "
    "in with the password alone. Switch it off for the GM account (Account → Password and "
    "security), or ask the board's administrator for an API key and set [board] api_key."
)
CSRF_PHRASES = ("security error occurred", "ошибка безопасности")
LOGGED_OUT_PHRASES = ("must be logged-in", "must be logged in", "необходимо авторизоваться")


def _now() -> datetime:
    return datetime.now(UTC)


class XenforoBoard:
    """A XenForo board seen through the GM's account, over its HTML pages."""

    engine = "xenforo"

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
        flood_wait: float = 15.0,
        flood_retries: int = 2,
        browser: bool = False,
        browser_login: BrowserLogin | None = None,
        allow_insecure_http: bool = False,
    ) -> None:
        self.base_url = base_url.rstrip("/") + "/"
        self.username = username
        self._password = _Secret(password)
        self.tz = tz
        self._clock: Clock = clock or _now
        self.http = PhpbbClient(
            self.base_url,
            client=client,
            min_delay=min_delay,
            max_tries=max_tries,
            sleep=sleep,
            monotonic=(lambda: self._clock().timestamp()) if clock is not None else None,
            allow_insecure_http=allow_insecure_http,
        )
        self.flood_wait = flood_wait
        self.flood_retries = flood_retries
        self.browser = browser
        self._browser_login = browser_login
        self._allow_insecure_http = allow_insecure_http
        self._me: User | None = None
        self._csrf: str | None = None
        self._relogins_left = 1
        self._rows: dict[str, ConversationRow] = {}

    def __repr__(self) -> str:
        return f"XenforoBoard({self.base_url!r}, {self.username!r})"

    def url(self, path: str) -> str:
        return urljoin(self.base_url, path)

    # -- session ----------------------------------------------------------------------

    async def login(self) -> User:
        """Log in with the board's form (`/login/login`, `_xfToken`, "stay logged in")."""
        self._me = None
        if self.browser:
            return await self._login_with_browser()
        response = await self.http.get(self.url("login/"))
        html, url = response.text, str(response.url)
        me = pages.visitor(html)
        if me is not None and me.name.casefold() == self.username.casefold():
            return self._logged_in(me, html)
        tree = pages.tree_of(html)
        if tree.css_first(CAPTCHA) is not None:
            raise CaptchaRequired(CAPTCHA_HELP.format(url=self.base_url, user=self.username))
        form = pages.parse_form(tree, url, "form[action*='login/login'], form[action*='login']")
        data = form.data(
            login=self.username,
            password=self._password.reveal(),
            remember="1",
            _xfToken=form.fields.get("_xfToken") or pages.csrf_token(tree) or "",
        )
        data.setdefault("_xfRedirect", self.base_url)
        self.http.origin.check(form.action, "the login form (it would get the GM's password)")
        response = await self.http.post(form.action, data)
        if response.is_redirect:
            location = urljoin(form.action, response.headers.get("Location", ""))
            if "two-step" in location:
                raise self._two_step()
            response = await self.http.get(location)
        html = response.text
        return self._check_login(html, str(response.url))

    def _two_step(self) -> LoginFailed:
        """The account wants a one-time code after its password, which forumgm cannot give:
        at login, after it, or on a page mid-session."""
        return LoginFailed(TWO_STEP_HELP.format(url=self.base_url, user=self.username))

    def _check_login(self, html: str, url: str) -> User:
        kind = pages.classify(html)
        if kind is PageKind.TWO_STEP:
            raise self._two_step()
        if pages.tree_of(html).css_first(CAPTCHA) is not None:
            raise CaptchaRequired(CAPTCHA_HELP.format(url=self.base_url, user=self.username))
        me = pages.visitor(html)
        if me is None or me.name.casefold() != self.username.casefold():
            said = pages.board_message(html) if kind is PageKind.LOGIN else ""
            raise LoginFailed(
                f"{self.base_url}: login as {self.username!r} failed: "
                + (said or f"the board shows {me.name if me else 'a guest'} after logging in")
            )
        return self._logged_in(me, html)

    def _logged_in(self, me: pages.Visitor, html: str) -> User:
        self._csrf = pages.csrf_token(html)
        self._me = User(id=me.id or "", name=me.name)
        log.info("logged in to %s as %s (id %s)", self.base_url, me.name, me.id or "?")
        return self._me

    async def _login_with_browser(self) -> User:
        """A real browser logs in (JS challenges, login widgets) and hands over its cookies."""
        await hand_over_session(
            self.http.http,
            self.url("login/"),
            self.username,
            self._password.reveal(),
            login=self._browser_login,
            allow_insecure_http=self._allow_insecure_http,
        )
        response = await self.http.get(self.base_url)
        return self._check_login(response.text, str(response.url))

    async def whoami(self) -> User | None:
        return self._me

    async def close(self) -> None:
        await self.http.aclose()

    def _begin(self) -> None:
        self._relogins_left = 1

    async def _ensure_login(self) -> None:
        if self._me is None:
            await self.login()

    async def _relogin(self, url: str, why: str) -> None:
        if self._relogins_left <= 0:
            raise SessionExpired(
                f"{url}: the board dropped the session of {self.username!r} again right after "
                f"a fresh login ({why}; cookies refused? banned?)"
            )
        self._relogins_left -= 1
        log.info("session expired at %s (%s): logging in again", url, why)
        await self.login()

    async def _page(self, path: str, expect: set[PageKind]) -> tuple[str, str]:
        """GET a page that needs the GM's session; (html, final url). Re-logs in once."""
        await self._ensure_login()
        while True:
            response = await self.http.get(self.url(path))
            html, url = response.text, str(response.url)
            kind = pages.classify(html)
            if kind is PageKind.TWO_STEP:
                raise self._two_step()
            if kind in (PageKind.LOGIN, PageKind.NO_PERMISSION) or (
                kind in expect and pages.visitor(html) is None
            ):
                await self._relogin(url, f"a {kind.value} page served to a guest")
                continue
            if kind in expect:
                self._csrf = pages.csrf_token(html) or self._csrf
                return html, url
            said = pages.board_message(html)
            if response.status_code == 404 or kind is PageKind.ERROR:
                raise NotFound(f"{url}: {said or f'HTTP {response.status_code}'}")
            wanted = " or ".join(sorted(k.value for k in expect))
            raise LayoutChanged(
                url, f"expected a {wanted} page, got {kind.value}" + (f" ({said})" if said else "")
            )

    # -- thread ------------------------------------------------------------------------

    @staticmethod
    def topic_id(thread: str) -> str:
        """ "8276", "a-dark-theme-option.8276" or a thread URL → "8276"."""
        thread = thread.strip()
        if thread.isdigit():
            return thread
        found = thread_id_of(thread if "threads/" in thread else f"threads/{thread}/")
        if found is None:
            raise NotFound(f"not a XenForo thread: {thread!r}")
        return found

    async def thread_page(self, thread: str, page: int = 1) -> ThreadView:
        path = f"threads/{thread}/" + (f"page-{page}" if page > 1 else "")
        html, url = await self._page(path, {PageKind.THREAD})
        view = parse_thread_page(html, url, tz=self.tz, now=self._clock())
        if self.tz is None:
            # XenForo 2 stamps times in UTC; 1.x shows the offset it printed dates in.
            self.tz = view.tz if view.version == 1 else UTC
        return view

    async def topic_page(self, thread: str, start: int = 0) -> ThreadView:
        """The page holding post number `start + 1` (for `board check`)."""
        first = await self.thread_page(thread, 1)
        if start <= 0:
            return first
        return await self.thread_page(thread, start // first.per_page + 1)

    async def thread_posts(self, thread: str, since: Cursor | None = None) -> ThreadPage:
        """Posts of a thread: all of them (since=None) or those after the cursor."""
        self._begin()
        topic = self.topic_id(thread)
        state = since.data if since is not None else {}
        incremental = (
            state.get("thread") == topic
            and isinstance(state.get("last_id"), int)
            and isinstance(state.get("page"), int)
            and state["page"] >= 1
        )
        if since is not None and not incremental:
            log.warning(
                "thread cursor %s does not fit thread %s: reading it all", since.data, topic
            )
        last_id: int = state["last_id"] if incremental else 0
        views: dict[int, ThreadView] = {}

        async def fetch(number: int) -> ThreadView:
            if number not in views:  # never read one page twice in one sync
                view = await self.thread_page(topic, number)
                views[view.page] = view
                views.setdefault(number, view)
            return views[number]

        view = await fetch(state["page"] if incremental else 1)
        while incremental and view.page > 1 and min(int(p.id) for p in view.posts) > last_id:
            view = await fetch(view.page - 1)
        view = views[max(v.page for v in views.values())]
        while view.page < view.pages:
            view = await fetch(view.page + 1)
        seen: dict[str, Post] = {}
        for number in sorted({v.page for v in views.values()}):
            page_view = next(v for v in views.values() if v.page == number)
            for post in page_view.posts:
                seen.setdefault(post.id, post)
        posts = [p for p in seen.values() if int(p.id) > last_id]
        last = views[max(v.page for v in views.values())]
        full = [v.per_page for v in views.values() if v.page < v.pages]
        cursor = Cursor(
            {
                "thread": topic,
                "last_id": max([last_id, *(int(p) for p in seen)]),
                "page": last.page,
                "per_page": full[0] if full else last.per_page,
            }
        )
        return ThreadPage(items=posts, cursor=cursor)

    # -- conversations -----------------------------------------------------------------

    async def _active_rows(self, state: PMState) -> list[ConversationRow]:
        """Conversations that may hold unread messages (`PMState.fresh`), reading list pages
        only as far as rows that new go."""
        rows: list[ConversationRow] = []
        page = 1
        while True:
            path = "conversations/" + (f"page-{page}" if page > 1 else "")
            html, url = await self._page(path, {PageKind.CONVERSATION_LIST})
            listing = parse_conversation_list(html, url, tz=self.tz, now=self._clock())
            for row in listing.rows:
                self._rows[row.id] = row
            fresh = [r for r in listing.rows if state.fresh(r.id, _unix(r.latest_at), r.replies)]
            rows.extend(fresh)
            if len(fresh) < len(listing.rows) or listing.page >= listing.pages:
                return rows
            page += 1

    async def conversation_page(self, row: ConversationRow, page: int = 1) -> ConversationView:
        path = row.url + (f"page-{page}" if page > 1 else "")
        html, url = await self._page(path, {PageKind.CONVERSATION_VIEW})
        return parse_conversation_view(
            html, url, participants=row.participants, tz=self.tz, now=self._clock()
        )

    async def _messages(self, since: Cursor | None, mine: bool) -> PMPage:
        self._begin()
        await self._ensure_login()
        state = PMState.of(since)
        for row in await self._active_rows(state):
            page = state.page(row.id)
            while True:
                view = await self.conversation_page(row, page)
                for message in view.messages:
                    state.add(message)
                if view.page >= view.pages:
                    break
                page = view.page + 1
            state.read(row.id, view.page, _unix(row.latest_at), row.replies)
        return state.result(self._me.name if self._me else self.username, mine)

    async def inbox(self, since: Cursor | None = None) -> PMPage:
        """Conversation messages to the GM (first messages and replies), oldest first."""
        return await self._messages(since, mine=False)

    async def sent(self, since: Cursor | None = None) -> PMPage:
        """The GM's own conversation messages, oldest first."""
        return await self._messages(since, mine=True)

    # -- users -------------------------------------------------------------------------

    async def find_user(self, name: str) -> User | None:
        """A user by exact name: the member search redirects to their profile."""
        self._begin()
        await self._ensure_login()
        response = await self.http.get(self.url(f"members/?username={quote(name.strip())}"))
        user_id = pages.member_id(str(response.url))
        if response.status_code == 404 or user_id is None:
            return None
        shown = pages.tree_of(response.text).css_first(".memberHeader-name .username, h1 .username")
        display = " ".join(shown.text(deep=True).split()) if shown is not None else name.strip()
        return User(id=user_id, name=display or name.strip())

    # -- posting -----------------------------------------------------------------------

    async def _json_post(
        self, action: str, fields: Callable[[], dict[str, str]], refresh: Callable[[], Any]
    ) -> dict[str, Any]:
        """POST a form in JSON mode through XenForo's refusals; the accepted answer.

        Flood control: wait what the board says and post again (`flood_retries` times),
        then `FloodControl`. A stale token: fetch a fresh one once. A logout: re-login once
        and post again (the board did not take the message)."""
        floods = refreshed = 0
        while True:
            data = {**fields(), "_xfToken": self._csrf or "", "_xfResponseType": "json"}
            response = await self.http.post(action, data)
            if response.is_redirect:
                return {"redirect": urljoin(action, response.headers.get("Location", ""))}
            answer = _json(response)
            if answer is None:
                kind = pages.classify(response.text)
                if kind in (PageKind.LOGIN, PageKind.NO_PERMISSION):
                    await self._relogin(action, kind.value)
                    await refresh()
                    continue
                raise LayoutChanged(action, f"HTTP {response.status_code}: not a JSON answer")
            errors = _errors(answer)
            if not errors:
                return answer
            said = " ".join(errors)
            low = said.lower()
            wait = pages.flood_seconds(said)
            if wait is not None:
                if floods >= self.flood_retries:
                    raise FloodControl(
                        f"{self.base_url}: {said}", retry_after=wait or self.flood_wait
                    )
                floods += 1
                log.info("flood control at %s: waiting %.0f s", action, wait or self.flood_wait)
                await self.http.sleep(wait or self.flood_wait)
            elif any(p in low for p in LOGGED_OUT_PHRASES) or response.status_code == 403:
                await self._relogin(action, said)
                await refresh()
            elif any(p in low for p in CSRF_PHRASES):
                if refreshed:
                    raise BoardError(f"{action}: the board rejected a fresh token: {said}")
                refreshed += 1
                await refresh()
            elif "could not be found" in low or "не найден" in low:
                raise NotFound(f"{self.base_url}: {said}")
            else:
                raise BoardError(f"{action}: the board refused the submission: {said}")

    async def reply(self, thread: str, bbcode: str) -> str:
        """Post to the thread; the new post's id once it is seen on its thread page."""
        self._begin()
        await self._ensure_login()
        topic = self.topic_id(thread)

        async def refresh() -> None:
            await self.thread_page(topic, 1)

        if self._csrf is None:
            await refresh()
        answer = await self._json_post(
            self.url(f"threads/{topic}/add-reply"), lambda: {"message": bbcode}, refresh
        )
        target = str(answer.get("redirect") or answer.get("_redirectTarget") or "")
        post_id = _post_id(target)
        if post_id is None:
            raise LayoutChanged(
                self.base_url, f"the reply was accepted without naming the post ({target!r})"
            )
        html, url = await self._page(f"posts/{post_id}/", {PageKind.THREAD})
        view = parse_thread_page(html, url, tz=self.tz, now=self._clock())
        if not any(p.id == post_id for p in view.posts):
            raise BoardError(f"{url}: the reply was accepted but post {post_id} is not there")
        log.info("posted %s in thread %s", post_id, topic)
        return post_id

    async def send_pm(self, recipients: Sequence[str], subject: str, bbcode: str) -> str:
        """Start a conversation with one or several users; the id of its first message
        once the conversation shows it."""
        if not recipients:
            raise ValueError("a private message needs at least one recipient")
        self._begin()
        await self._ensure_login()
        names = ", ".join(r.strip() for r in recipients)

        async def refresh() -> None:
            await self._page("conversations/add", {PageKind.CONVERSATION_ADD})

        if self._csrf is None:
            await refresh()
        answer = await self._json_post(
            self.url("conversations/add"),
            lambda: {"recipients": names, "title": subject, "message": bbcode},
            refresh,
        )
        target = str(answer.get("redirect") or answer.get("_redirectTarget") or "")
        conversation = conversation_id_of(target)
        if conversation is None:
            raise LayoutChanged(
                self.base_url, f"the conversation was started without naming it ({target!r})"
            )
        me = self._me.name if self._me else self.username
        row = ConversationRow(
            id=conversation,
            title=subject,
            url=self.url(f"conversations/{conversation}/"),
            starter=me,
            starter_id=self._me.id if self._me else None,
            recipients=tuple((r, None) for r in recipients),
            latest_at=None,
            unread=False,
        )
        view = await self.conversation_page(row)
        mine = [m for m in view.messages if m.sender.casefold() == me.casefold()]
        if not mine:
            raise BoardError(f"{view.url}: conversation {conversation} shows no message by {me}")
        message_id = max(mine, key=lambda m: int(m.id)).id
        log.info("started conversation %s (message %s) with %s", conversation, message_id, names)
        return message_id


def _unix(moment: datetime | None) -> int | None:
    """A list row's time as the PM cursor keeps it (Unix seconds; api.py's `_epoch` reads one)."""
    return int(moment.timestamp()) if moment is not None else None


def _json(response: httpx.Response) -> dict[str, Any] | None:
    if "json" not in response.headers.get("Content-Type", ""):
        return None
    try:
        value = json.loads(response.text)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


def _errors(answer: Mapping[str, Any]) -> list[str]:
    """Error texts of a XenForo JSON answer: 2.x `{"status":"error","errors":[…]}`, 1.x
    `{"error":[…]}` or `{"error":{"0":…}}`."""
    raw = answer.get("errors") if answer.get("status") == "error" else answer.get("error")
    if raw is None and answer.get("status") == "error":
        raw = answer.get("message") or "error"
    if raw is None:
        return []
    values = raw.values() if isinstance(raw, dict) else raw if isinstance(raw, list) else [raw]
    return [" ".join(str(v).split()) for v in values if str(v).strip()]


def _post_id(target: str) -> str | None:
    """`…/posts/123/`, `…/threads/x.1/post-123` or `#post-123` → "123"."""
    found = re.search(r"(?:posts/|post-)(\d+)", target)
    return found.group(1) if found else None

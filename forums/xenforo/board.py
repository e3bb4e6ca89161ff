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
from collections.abc import Callable, Collection, Mapping, Sequence
from datetime import UTC, datetime
from enum import Enum
from typing import Any
from urllib.parse import quote, urljoin

import httpx

from forums.board import PMPage
from forums.errors import N_, BoardError, LayoutChanged, LoginFailed, NotFound
from forums.formboard import FormLoginBoard, Served
from forums.records import Cursor, User
from forums.webboard import Answer, Said
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

CAPTCHA = (
    ".g-recaptcha, .h-captcha, .cf-turnstile, [data-xf-init~='re-captcha'], "
    "[data-xf-init~='h-captcha'], [data-xf-init~='turnstile'], input[name='captcha_question_answer']"
)
CAPTCHA_HELP = N_(
    "The board at {url} wants a CAPTCHA before {user!r} may log in. Log in once by hand in a "
    "browser as {user!r}, or ask the board's administrator to lift it for the GM account; "
    "then run `forumgm board check` again."
)
TWO_STEP_HELP = N_(
    "{url}: the account {user!r} has two-step verification switched on, so forumgm cannot log "
    "in with the password alone. Switch it off for the GM account (Account → Password and "
    "security), or ask the board's administrator for an API key and set [board] api_key."
)
CSRF_PHRASES = ("security error occurred", "ошибка безопасности")
LOGGED_OUT_PHRASES = ("must be logged-in", "must be logged in", "необходимо авторизоваться")


class XenforoBoard(FormLoginBoard):
    """A XenForo board seen through the GM's account, over its HTML pages."""

    engine = "xenforo"
    login_path = "login/"
    captcha_help = CAPTCHA_HELP
    two_step_help = TWO_STEP_HELP
    only_new_posts = True
    form_word = "token"

    def __init__(self, base_url: str, username: str, password: str, **options: Any) -> None:
        super().__init__(base_url, username, password, **options)
        self._csrf: str | None = None
        self._rows: dict[str, ConversationRow] = {}
        self._thread_urls: dict[str, str] = {}
        """A thread's own address (`threads/{id}/` redirects there), by its id."""

    def url(self, path: str) -> str:
        return urljoin(self.base_url, path)

    # -- session ----------------------------------------------------------------------

    async def _form_login(self) -> User:
        """The board's form (`/login/login`, `_xfToken`, "stay logged in")."""
        response = await self.http.get(self.login_url())
        html, url = response.text, str(response.url)
        me = pages.visitor(html)
        if me is not None and me.name.casefold() == self.username.casefold():
            return self._xf_logged_in(me, html)
        tree = pages.tree_of(html)
        if tree.css_first(CAPTCHA) is not None:
            raise self.captcha()
        form = pages.parse_form(tree, url, "form[action*='login/login'], form[action*='login']")

        def fill(password: str) -> dict[str, str]:
            data = form.data(
                login=self.username,
                password=password,
                remember="1",
                _xfToken=form.fields.get("_xfToken") or pages.csrf_token(tree) or "",
            )
            data.setdefault("_xfRedirect", self.base_url)
            return data

        response = await self.post_login(form.action, fill)
        if response.is_redirect:
            location = urljoin(form.action, response.headers.get("Location", ""))
            if "two-step" in location:
                raise self.two_step()
            response = await self.http.get(location)
        return self._check_login(response.text)

    async def _after_browser_login(self) -> User:
        response = await self.http.get(self.base_url)
        return self._check_login(response.text)

    def _check_login(self, html: str) -> User:
        kind = pages.classify(html)
        if kind is PageKind.TWO_STEP:
            raise self.two_step()
        if pages.tree_of(html).css_first(CAPTCHA) is not None:
            raise self.captcha()
        me = pages.visitor(html)
        if me is None or me.name.casefold() != self.username.casefold():
            said = pages.board_message(html) if kind is PageKind.LOGIN else ""
            if not said:
                said = (
                    N_("the board shows {name} after logging in").format(name=me.name)
                    if me
                    else N_("the board shows a guest after logging in")
                )
            raise LoginFailed(
                N_("{url}: login as {user!r} failed: {said}").format(
                    url=self.base_url, user=self.username, said=said
                )
            )
        return self._xf_logged_in(me, html)

    def _xf_logged_in(self, me: pages.Visitor, html: str) -> User:
        self._csrf = pages.csrf_token(html)
        return self._logged_in(User(id=me.id or "", name=me.name))

    def _served(self, html: str, url: str, expect: Collection[Enum]) -> Served:
        kind = pages.classify(html)
        if kind is PageKind.TWO_STEP:
            raise self.two_step()
        gone = kind in (PageKind.LOGIN, PageKind.NO_PERMISSION) or (
            kind in expect and pages.visitor(html) is None
        )
        return Served(kind, gone=gone, missing=kind is PageKind.ERROR)

    def _said(self, html: str) -> str:
        return pages.board_message(html)

    async def _page(self, path: str, expect: set[PageKind]) -> tuple[str, str]:
        """GET a page that needs the GM's session; (html, final url). Re-logs in once."""
        fetched = await self.page(lambda: self.url(path), expect)
        self._csrf = pages.csrf_token(fetched.html) or self._csrf
        return fetched.html, fetched.url

    # -- thread ------------------------------------------------------------------------

    @staticmethod
    def topic_id(thread: str) -> str:
        """ "8276", "a-dark-theme-option.8276" or a thread URL → "8276"."""
        thread = thread.strip()
        if thread.isdigit():
            return thread
        found = thread_id_of(thread if "threads/" in thread else f"threads/{thread}/")
        if found is None:
            raise NotFound(
                N_("not a {engine} thread: {thread!r}").format(engine="XenForo", thread=thread)
            )
        return found

    async def thread_page(self, thread: str, page: int = 1) -> ThreadView:
        """Page `page` of the thread. `threads/8276/page-2` answers with a redirect to the
        thread's own address (`threads/its-title.8276/page-2`): that address, once seen, is
        asked for directly, so a poll costs one request a page, not two. An address the
        board no longer serves as this thread (a new title, a move) is forgotten and the
        page asked for by the thread's id again."""
        suffix = f"page-{page}" if page > 1 else ""
        known = self._thread_urls.get(thread)
        if known is not None:
            try:
                html, url = await self._page(known + suffix, {PageKind.THREAD})
                view = parse_thread_page(html, url, tz=self.tz, now=self._clock())
            except (NotFound, LayoutChanged):
                view = None
            if view is None or view.thread_id != thread:
                del self._thread_urls[thread]
                log.info("thread %s is no longer at %s: asking by its id", thread, known)
                return await self.thread_page(thread, page)
        else:
            html, url = await self._page(f"threads/{thread}/{suffix}", {PageKind.THREAD})
            view = parse_thread_page(html, url, tz=self.tz, now=self._clock())
            own = re.sub(r"page-\d+/?$", "", url.split("#")[0].split("?")[0])
            if view.thread_id == thread and own.endswith(f".{thread}/"):
                self._thread_urls[thread] = own
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

    async def thread_view(self, thread: str, number: int) -> ThreadView:
        return await self.thread_page(thread, number)

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
        self.begin()
        await self.ensure_login()
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

    # -- users -------------------------------------------------------------------------

    async def find_user(self, name: str) -> User | None:
        """A user by exact name: the member search redirects to their profile."""
        self.begin()
        await self.ensure_login()
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
        """POST a form in JSON mode through XenForo's refusals (`WebBoard.submit`); the
        accepted answer. Flood control: wait what the board says and post again. A stale
        token: fetch a fresh one (`refresh`) once. A logout: log in again once and post
        again (the board did not take the message)."""

        async def fresh() -> str:
            await refresh()
            return self._csrf or ""

        async def send(token: str) -> Said[str, dict[str, Any]]:
            data = {**fields(), "_xfToken": self._csrf or token, "_xfResponseType": "json"}
            response = await self.http.post(action, data)
            if response.is_redirect:
                location = urljoin(action, response.headers.get("Location", ""))
                return Said(Answer.ACCEPTED, {"redirect": location})
            answer = _json(response)
            if answer is None:
                kind = pages.classify(response.text)
                if kind in (PageKind.LOGIN, PageKind.NO_PERMISSION):
                    return Said(Answer.LOGGED_OUT, text=kind.value)
                raise LayoutChanged(
                    action,
                    N_("HTTP {response_status_code}: not a JSON answer").format(
                        response_status_code=response.status_code
                    ),
                )
            errors = _errors(answer)
            if not errors:
                return Said(Answer.ACCEPTED, answer)
            said = " ".join(errors)
            low = said.lower()
            wait = pages.flood_seconds(said)
            if wait is not None:
                return Said(Answer.FLOOD, text=said, wait=wait, form=token)
            if any(p in low for p in LOGGED_OUT_PHRASES) or response.status_code == 403:
                return Said(Answer.LOGGED_OUT, text=said)
            if any(p in low for p in CSRF_PHRASES):
                return Said(Answer.STALE_FORM, text=said)
            if "could not be found" in low or "не найден" in low:
                raise NotFound(f"{self.base_url}: {said}")
            return Said(Answer.REFUSED, text=said)

        return await self.submit(action, fresh, send, form=self._csrf or "")

    async def reply(self, thread: str, bbcode: str) -> str:
        """Post to the thread; the new post's id once it is seen on its thread page."""
        self.begin()
        await self.ensure_login()
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
                self.base_url,
                N_("the reply was accepted without naming the post ({target!r})").format(
                    target=target
                ),
            )
        html, url = await self._page(f"posts/{post_id}/", {PageKind.THREAD})
        view = parse_thread_page(html, url, tz=self.tz, now=self._clock())
        return self.posted(view.posts, post_id, url, topic)

    async def send_pm(self, recipients: Sequence[str], subject: str, bbcode: str) -> str:
        """Start a conversation with one or several users; the id of its first message
        once the conversation shows it."""
        if not recipients:
            raise ValueError("a private message needs at least one recipient")
        self.begin()
        await self.ensure_login()
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
                self.base_url,
                N_("the conversation was started without naming it ({target!r})").format(
                    target=target
                ),
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
            raise BoardError(
                N_("{view_url}: conversation {conversation} shows no message by {me}").format(
                    view_url=view.url, conversation=conversation, me=me
                )
            )
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

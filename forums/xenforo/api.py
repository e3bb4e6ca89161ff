"""`XenforoApiBoard`: the same `Board` over XenForo's REST API (`/api/`, `XF-Api-Key`).

For boards whose administrator gives the GM a user key (or a super-user key: the GM is
then named in `XF-Api-User`). No page is parsed: posts and conversation messages come as
JSON with their BB code (`message`), read by `forums.bbcode.parse_bbcode` exactly as the
local board's posts are. Errors are XenForo's `{"errors": [{"code", "message", "params"}]}`.

Cursors have the HTML board's shapes: a thread cursor `{"thread", "last_id", "page",
"per_page"}` (API pages), a PM cursor `{"last_id", "latest", "pages"}`.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, tzinfo
from typing import Any, cast
from urllib.parse import quote, urljoin

import httpx

from forums.bbcode import parse_bbcode
from forums.board import Board, PMPage, ThreadPage
from forums.errors import (
    BoardError,
    FloodControl,
    LayoutChanged,
    LoginFailed,
    NotFound,
)
from forums.phpbb.board import _Secret
from forums.phpbb.client import PhpbbClient, Sleep
from forums.records import Cursor, EditInfo, Post, PrivateMessage, User
from forums.xenforo.board import XenforoBoard
from forums.xenforo.conversations import PMState
from forums.xenforo.pages import flood_seconds

log = logging.getLogger("forums.xenforo")

Clock = Callable[[], datetime]
KEY_ERRORS = ("api_key_not_found", "api_key_invalid", "api_key_inactive", "api_key_expired")


class ApiError(BoardError):
    def __init__(self, status: int, errors: list[dict[str, Any]], url: str) -> None:
        self.status = status
        self.codes = [str(e.get("code") or "") for e in errors]
        self.text = "; ".join(str(e.get("message") or e.get("code") or "") for e in errors)
        super().__init__(f"{url}: HTTP {status}: {self.text or 'no error text'}")


@dataclass(frozen=True)
class ApiThreadPage:
    """One API page of a thread, as `board check` shows a page."""

    title: str
    posts: list[Post]
    page: int
    pages: int
    per_page: int
    total_posts: int | None


def _obj(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _epoch(value: Any) -> datetime:
    if not isinstance(value, int) or isinstance(value, bool):
        raise ValueError(f"not a Unix time: {value!r}")
    return datetime.fromtimestamp(value, UTC)


class XenforoApiBoard:
    """A XenForo 2.1+ board through its REST API, as the GM."""

    engine = "xenforo"

    def __init__(
        self,
        base_url: str,
        username: str,
        api_key: str,
        *,
        client: httpx.AsyncClient | None = None,
        tz: tzinfo | None = None,
        min_delay: float = 1.0,
        clock: Clock | None = None,
        sleep: Sleep | None = None,
        max_tries: int = 4,
        flood_retries: int = 2,
        flood_wait: float = 15.0,
        allow_insecure_http: bool = False,
    ) -> None:
        self.base_url = base_url.rstrip("/") + "/"
        self.api_url = urljoin(self.base_url, "api/")
        self.username = username
        self._key = _Secret(api_key)
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
        self.http.http.headers["XF-Api-Key"] = api_key
        self.flood_retries = flood_retries
        self.flood_wait = flood_wait
        self._me: User | None = None
        self._per_page: int | None = None

    def __repr__(self) -> str:
        return f"XenforoApiBoard({self.base_url!r}, {self.username!r})"

    # -- requests ----------------------------------------------------------------------

    async def _call(
        self, method: str, path: str, data: Mapping[str, Any] | None = None
    ) -> dict[str, Any]:
        url = urljoin(self.api_url, path)
        if method == "GET":
            response = await self.http.get(url)
        else:
            response = await self.http.post(url, cast(Mapping[str, str], data or {}))
        try:
            body = json.loads(response.text) if response.text else {}
        except ValueError:
            raise LayoutChanged(url, f"HTTP {response.status_code}: not a JSON answer") from None
        if not isinstance(body, dict):
            raise LayoutChanged(url, "a JSON answer that is not an object")
        if response.status_code >= 400 or body.get("errors"):
            errors = body.get("errors")
            entries = [e for e in errors if isinstance(e, dict)] if isinstance(errors, list) else []
            error = ApiError(response.status_code, entries, url)
            missing = response.status_code == 404 or any(
                c.endswith("not_found") for c in error.codes
            )
            if missing and not any(c in KEY_ERRORS for c in error.codes):
                raise NotFound(str(error))
            raise error
        return body

    async def _post(self, path: str, data: Mapping[str, Any]) -> dict[str, Any]:
        floods = 0
        while True:
            try:
                return await self._call("POST", path, data)
            except ApiError as error:
                wait = flood_seconds(error.text)
                if wait is None:
                    raise
                if floods >= self.flood_retries:
                    raise FloodControl(
                        f"{self.base_url}: {error.text}", retry_after=wait or self.flood_wait
                    ) from None
                floods += 1
                await self.http.sleep(wait or self.flood_wait)

    # -- session ----------------------------------------------------------------------

    async def login(self) -> User:
        """Check the key: the API's `me` must be the GM (a super-user key is pointed at the
        GM with `XF-Api-User`)."""
        self._me = None
        try:
            me = (await self._call("GET", "me/")).get("me") or {}
            if not me.get("user_id"):
                found = await self._find(self.username)
                if found is not None:
                    self.http.http.headers["XF-Api-User"] = found.id
                    me = (await self._call("GET", "me/")).get("me") or {}
        except ApiError as error:
            if error.status in (401, 403) or any(c in KEY_ERRORS for c in error.codes):
                raise LoginFailed(
                    f"{self.base_url}: the REST API refused the key ({error.text})"
                ) from None
            raise
        name = str(me.get("username") or "")
        if not me.get("user_id") or name.casefold() != self.username.casefold():
            raise LoginFailed(
                f"{self.base_url}: the API key acts as {name or 'a guest'}, not as "
                f"{self.username!r}: ask for a user key of the GM account"
            )
        self._me = User(id=str(me["user_id"]), name=name)
        log.info("API key of %s works as %s (id %s)", self.base_url, name, self._me.id)
        return self._me

    async def whoami(self) -> User | None:
        return self._me

    async def close(self) -> None:
        await self.http.aclose()

    async def _ensure_login(self) -> None:
        if self._me is None:
            await self.login()

    # -- thread ------------------------------------------------------------------------

    topic_id = staticmethod(XenforoBoard.topic_id)

    def _post_record(self, data: Mapping[str, Any], url: str) -> Post:
        try:
            post_id = str(int(data["post_id"]))
            posted_at = _epoch(data["post_date"])
            author = str(data["username"])
        except (KeyError, TypeError, ValueError) as exc:
            raise LayoutChanged(url, f"a post without id, date or author ({exc})") from None
        message = str(data.get("message") or "")
        edited = data.get("last_edit_date")
        edit = None
        if isinstance(edited, int) and edited > 0:
            edit = EditInfo(by=None, at=_epoch(edited), count=1)
        position = data.get("position")
        return Post(
            id=post_id,
            thread_id=str(data.get("thread_id") or ""),
            number=(position + 1) if isinstance(position, int) else 0,
            author=author,
            author_id=str(data["user_id"]) if data.get("user_id") else None,
            posted_at=posted_at.astimezone(self.tz) if self.tz else posted_at,
            body=parse_bbcode(message),
            url=str(data.get("view_url") or "") or None,
            edit=edit,
            deleted=data.get("message_state") == "deleted",
            raw=message,
        )

    async def _thread_api_page(self, thread: str, page: int) -> tuple[list[Post], dict[str, int]]:
        path = f"threads/{thread}/posts" + (f"?page={page}" if page > 1 else "")
        body = await self._call("GET", path)
        posts = body.get("posts")
        if not isinstance(posts, list) or not posts:
            raise LayoutChanged(urljoin(self.api_url, path), "a page of a thread with no posts")
        pagination = _obj(body.get("pagination"))
        info = {
            "page": int(pagination.get("current_page") or page),
            "pages": int(pagination.get("last_page") or page),
            "per_page": int(pagination.get("per_page") or len(posts)),
        }
        url = urljoin(self.api_url, path)
        return [self._post_record(p, url) for p in posts if isinstance(p, dict)], info

    async def topic_page(self, thread: str, start: int = 0) -> ApiThreadPage:
        """The page holding post number `start + 1`, with the thread's title (`board check`):
        `GET /threads/{id}/?with_posts=1&page=N`."""
        await self._ensure_login()
        topic = self.topic_id(thread)
        number = start // self._per_page + 1 if self._per_page and start > 0 else 1
        path = f"threads/{topic}/?with_posts=1" + (f"&page={number}" if number > 1 else "")
        body = await self._call("GET", path)
        url = urljoin(self.api_url, path)
        posts = [self._post_record(p, url) for p in body.get("posts") or [] if isinstance(p, dict)]
        if not posts:
            raise LayoutChanged(url, "a page of a thread with no posts")
        pagination = _obj(body.get("pagination"))
        self._per_page = int(pagination.get("per_page") or len(posts))
        total = pagination.get("total")
        return ApiThreadPage(
            title=str(_obj(body.get("thread")).get("title") or ""),
            posts=posts,
            page=int(pagination.get("current_page") or number),
            pages=int(pagination.get("last_page") or number),
            per_page=self._per_page,
            total_posts=total if isinstance(total, int) else None,
        )

    async def thread_posts(self, thread: str, since: Cursor | None = None) -> ThreadPage:
        await self._ensure_login()
        topic = self.topic_id(thread)
        state = since.data if since is not None else {}
        incremental = (
            state.get("thread") == topic
            and isinstance(state.get("last_id"), int)
            and isinstance(state.get("page"), int)
        )
        last_id: int = state["last_id"] if incremental else 0
        pages: dict[int, tuple[list[Post], dict[str, int]]] = {}
        page = max(1, state["page"]) if incremental else 1
        while True:
            if page not in pages:
                pages[page] = await self._thread_api_page(topic, page)
            posts = pages[page][0]
            if incremental and page > 1 and min(int(p.id) for p in posts) > last_id:
                page -= 1
                continue
            break
        page = max(pages)
        while pages[page][1]["page"] < pages[page][1]["pages"]:
            page += 1
            pages[page] = await self._thread_api_page(topic, page)
        seen: dict[str, Post] = {}
        for number in sorted(pages):
            for post in pages[number][0]:
                seen.setdefault(post.id, post)
        items = sorted((p for p in seen.values() if int(p.id) > last_id), key=lambda p: int(p.id))
        last = pages[max(pages)][1]
        cursor = Cursor(
            {
                "thread": topic,
                "last_id": max([last_id, *(int(p) for p in seen)]),
                "page": last["page"],
                "per_page": last["per_page"],
            }
        )
        return ThreadPage(items=items, cursor=cursor)

    # -- conversations -----------------------------------------------------------------

    async def _conversations(self, state: PMState) -> list[dict[str, Any]]:
        """Conversations that may hold unread messages (`PMState.fresh`), newest first."""
        found: list[dict[str, Any]] = []
        page = 1
        while True:
            body = await self._call("GET", "conversations/" + (f"?page={page}" if page > 1 else ""))
            rows = [c for c in body.get("conversations") or [] if isinstance(c, dict)]
            fresh = [
                c
                for c in rows
                if state.fresh(
                    str(c.get("conversation_id")),
                    _int(c.get("last_message_date")),
                    _int(c.get("reply_count")),
                )
            ]
            found.extend(fresh)
            pagination = body.get("pagination") or {}
            if len(fresh) < len(rows) or page >= int(pagination.get("last_page") or 1):
                return found
            page += 1

    def _message_record(
        self, data: Mapping[str, Any], conversation: Mapping[str, Any]
    ) -> PrivateMessage:
        sender = str(data.get("username") or "")
        names = [str(conversation.get("username") or "")]
        recipients = conversation.get("recipients")
        if isinstance(recipients, dict):
            names += [str(n) for n in recipients.values()]
        participants = tuple(dict.fromkeys(n for n in names if n))
        message = str(data.get("message") or "")
        try:
            message_id = str(int(data["message_id"]))
            sent_at = _epoch(data["message_date"])
        except (KeyError, TypeError, ValueError) as exc:
            raise LayoutChanged(
                self.api_url, f"a conversation message without id or date ({exc})"
            ) from None
        return PrivateMessage(
            id=message_id,
            sender=sender,
            sender_id=str(data["user_id"]) if data.get("user_id") else None,
            recipients=tuple(p for p in participants if p.casefold() != sender.casefold()),
            sent_at=sent_at.astimezone(self.tz) if self.tz else sent_at,
            subject=str(conversation.get("title") or ""),
            body=parse_bbcode(message),
            url=str(data.get("view_url") or "") or None,
            raw=message,
        )

    async def _messages(self, since: Cursor | None, mine: bool) -> PMPage:
        await self._ensure_login()
        state = PMState.of(since)
        for conversation in await self._conversations(state):
            cid = str(conversation.get("conversation_id"))
            page = state.page(cid)
            while True:
                body = await self._call(
                    "GET", f"conversations/{cid}/messages" + (f"?page={page}" if page > 1 else "")
                )
                for item in body.get("messages") or []:
                    if isinstance(item, dict):
                        state.add(self._message_record(item, conversation))
                last = int(_obj(body.get("pagination")).get("last_page") or page)
                if page >= last:
                    break
                page += 1
            state.read(
                cid,
                page,
                _int(conversation.get("last_message_date")),
                _int(conversation.get("reply_count")),
            )
        return state.result(self._me.name if self._me else self.username, mine)

    async def inbox(self, since: Cursor | None = None) -> PMPage:
        return await self._messages(since, mine=False)

    async def sent(self, since: Cursor | None = None) -> PMPage:
        return await self._messages(since, mine=True)

    # -- users and posting -------------------------------------------------------------

    async def _find(self, name: str) -> User | None:
        body = await self._call("GET", f"users/find-name?username={quote(name.strip())}")
        exact = body.get("exact")
        if isinstance(exact, dict) and exact.get("user_id"):
            return User(id=str(exact["user_id"]), name=str(exact.get("username") or name))
        return None

    async def find_user(self, name: str) -> User | None:
        await self._ensure_login()
        return await self._find(name)

    async def reply(self, thread: str, bbcode: str) -> str:
        """POST /posts/; the new post's id once GET /posts/{id}/ shows it in the thread."""
        await self._ensure_login()
        topic = self.topic_id(thread)
        body = await self._post("posts/", {"thread_id": topic, "message": bbcode})
        post = _obj(body.get("post"))
        if not body.get("success") or not post.get("post_id"):
            raise LayoutChanged(self.api_url + "posts/", "the reply was accepted without a post id")
        post_id = str(post["post_id"])
        check = (await self._call("GET", f"posts/{post_id}/")).get("post") or {}
        if str(check.get("thread_id")) != topic:
            raise BoardError(f"{self.base_url}: post {post_id} is not in thread {topic}")
        log.info("posted %s in thread %s (API)", post_id, topic)
        return post_id

    async def send_pm(self, recipients: Sequence[str], subject: str, bbcode: str) -> str:
        """POST /conversations/; the id of its first message once the conversation lists it."""
        if not recipients:
            raise ValueError("a private message needs at least one recipient")
        await self._ensure_login()
        ids = []
        for name in recipients:
            user = await self._find(name)
            if user is None:
                raise NotFound(f"{self.base_url}: no user named {name!r}")
            ids.append(user.id)
        body = await self._post(
            "conversations/", {"recipient_ids[]": ids, "title": subject, "message": bbcode}
        )
        conversation = _obj(body.get("conversation"))
        first = conversation.get("first_message_id")
        cid = conversation.get("conversation_id")
        if not body.get("success") or not first or not cid:
            raise LayoutChanged(self.api_url + "conversations/", "a conversation without ids")
        listed = await self._call("GET", f"conversations/{cid}/messages")
        if not any(str(m.get("message_id")) == str(first) for m in listed.get("messages") or []):
            raise BoardError(f"{self.base_url}: conversation {cid} does not show message {first}")
        log.info("started conversation %s (message %s) via the API", cid, first)
        return str(first)


def xenforo_board(
    base_url: str, username: str, password: str, *, api_key: str | None = None, **options: Any
) -> Board:
    """The board for `engine = "xenforo"`: over the REST API when there is a key, else pages."""
    if api_key:
        options.pop("browser", None)
        return XenforoApiBoard(base_url, username, api_key, **options)
    return XenforoBoard(base_url, username, password, **options)

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
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any
from urllib.parse import quote, urljoin

from forums.bbcode import parse_bbcode
from forums.board import Board, PMPage, ThreadPage
from forums.cursor import Resume
from forums.errors import (
    N_,
    BoardError,
    LayoutChanged,
    LoginFailed,
    NotFound,
)
from forums.records import Cursor, EditInfo, Post, PrivateMessage, User
from forums.visibility import XENFORO
from forums.webboard import Answer, Said, WebBoard
from forums.xenforo.board import XenforoBoard
from forums.xenforo.conversations import PMState
from forums.xenforo.pages import flood_seconds

log = logging.getLogger("forums.xenforo")

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


class XenforoApiBoard(WebBoard):
    """A XenForo 2.1+ board through its REST API, as the GM."""

    engine = "xenforo"
    only_new_posts = True

    def __init__(self, base_url: str, username: str, api_key: str, **options: Any) -> None:
        super().__init__(base_url, username, api_key, **options)
        self.api_url = urljoin(self.base_url, "api/")
        self.http.http.headers["XF-Api-Key"] = api_key
        self._per_page: int | None = None

    # -- requests ----------------------------------------------------------------------

    async def _call(
        self, method: str, path: str, data: Mapping[str, Any] | None = None
    ) -> dict[str, Any]:
        url = urljoin(self.api_url, path)
        if method == "GET":
            response = await self.http.get(url)
        else:
            response = await self.http.post(url, data or {})
        try:
            body = json.loads(response.text) if response.text else {}
        except ValueError:
            raise LayoutChanged(
                url,
                N_("HTTP {response_status_code}: not a JSON answer").format(
                    response_status_code=response.status_code
                ),
            ) from None
        if not isinstance(body, dict):
            raise LayoutChanged(url, N_("a JSON answer that is not an object"))
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
        """POST to the API, waiting out flood control (`WebBoard.submit`)."""

        async def send(form: Mapping[str, Any]) -> Said[Mapping[str, Any], dict[str, Any]]:
            try:
                return Said(Answer.ACCEPTED, await self._call("POST", path, form))
            except ApiError as error:
                wait = flood_seconds(error.text)
                if wait is None:
                    raise
                return Said(Answer.FLOOD, text=error.text, wait=wait, form=form)

        async def fresh() -> Mapping[str, Any]:
            return data

        return await self.submit(urljoin(self.api_url, path), fresh, send, form=data)

    # -- session ----------------------------------------------------------------------

    async def login(self) -> User:
        """Check the key: the API's `me` must be the GM (a super-user key is pointed at the
        GM with `XF-Api-User`)."""
        self.session.me = None
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
                    N_("{url}: the REST API refused the key ({said})").format(
                        url=self.base_url, said=error.text
                    )
                ) from None
            raise
        name = str(me.get("username") or "")
        if not me.get("user_id") or name.casefold() != self.username.casefold():
            said = (
                N_(
                    "{url}: the API key acts as {name}, not as {user!r}: ask for a user key of the GM account"
                )
                if name
                else N_(
                    "{url}: the API key acts as a guest, not as {user!r}: ask for a user key of the GM account"
                )
            )
            raise LoginFailed(said.format(url=self.base_url, name=name, user=self.username))
        user = self.session.logged_in(User(id=str(me["user_id"]), name=name))
        log.info("API key of %s works as %s (id %s)", self.base_url, name, user.id)
        return user

    # -- thread ------------------------------------------------------------------------

    topic_id = staticmethod(XenforoBoard.topic_id)

    def _post_record(self, data: Mapping[str, Any], url: str) -> Post:
        try:
            post_id = str(int(data["post_id"]))
            posted_at = _epoch(data["post_date"])
            author = str(data["username"])
        except (KeyError, TypeError, ValueError) as exc:
            raise LayoutChanged(
                url, N_("a post without id, date or author ({exc})").format(exc=exc)
            ) from None
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
            body=parse_bbcode(message, XENFORO),
            url=str(data.get("view_url") or "") or None,
            edit=edit,
            deleted=data.get("message_state") == "deleted",
            raw=message,
        )

    async def thread_view(self, thread: str, number: int) -> ApiThreadPage:
        """Page `number` of a thread: `GET /threads/{id}/posts?page=N`."""
        path = f"threads/{thread}/posts" + (f"?page={number}" if number > 1 else "")
        body = await self._call("GET", path)
        posts = body.get("posts")
        url = urljoin(self.api_url, path)
        if not isinstance(posts, list) or not posts:
            raise LayoutChanged(url, N_("a page of a thread with no posts"))
        pagination = _obj(body.get("pagination"))
        return ApiThreadPage(
            title="",
            posts=[self._post_record(p, url) for p in posts if isinstance(p, dict)],
            page=int(pagination.get("current_page") or number),
            pages=int(pagination.get("last_page") or number),
            per_page=int(pagination.get("per_page") or len(posts)),
            total_posts=None,
        )

    async def topic_page(self, thread: str, start: int = 0) -> ApiThreadPage:
        """The page holding post number `start + 1`, with the thread's title (`board check`):
        `GET /threads/{id}/?with_posts=1&page=N`."""
        await self.ensure_login()
        topic = self.topic_id(thread)
        number = start // self._per_page + 1 if self._per_page and start > 0 else 1
        path = f"threads/{topic}/?with_posts=1" + (f"&page={number}" if number > 1 else "")
        body = await self._call("GET", path)
        url = urljoin(self.api_url, path)
        posts = [self._post_record(p, url) for p in body.get("posts") or [] if isinstance(p, dict)]
        if not posts:
            raise LayoutChanged(url, N_("a page of a thread with no posts"))
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

    def _resume(self, state: Mapping[str, Any], thread: str) -> Resume | None:
        page = state.get("page")
        return Resume.of(
            {**state, "page": max(1, page)} if isinstance(page, int) else state, thread
        )

    async def thread_posts(self, thread: str, since: Cursor | None = None) -> ThreadPage:
        """Posts after the cursor, in the order of their ids."""
        read = await super().thread_posts(thread, since)
        return ThreadPage(items=sorted(read.items, key=lambda p: int(p.id)), cursor=read.cursor)

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
                self.api_url,
                N_("a conversation message without id or date ({exc})").format(exc=exc),
            ) from None
        return PrivateMessage(
            id=message_id,
            sender=sender,
            sender_id=str(data["user_id"]) if data.get("user_id") else None,
            recipients=tuple(p for p in participants if p.casefold() != sender.casefold()),
            sent_at=sent_at.astimezone(self.tz) if self.tz else sent_at,
            subject=str(conversation.get("title") or ""),
            body=parse_bbcode(message, XENFORO),
            url=str(data.get("view_url") or "") or None,
            raw=message,
        )

    async def _messages(self, since: Cursor | None, mine: bool) -> PMPage:
        await self.ensure_login()
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

    # -- users and posting -------------------------------------------------------------

    async def _find(self, name: str) -> User | None:
        body = await self._call("GET", f"users/find-name?username={quote(name.strip())}")
        exact = body.get("exact")
        if isinstance(exact, dict) and exact.get("user_id"):
            return User(id=str(exact["user_id"]), name=str(exact.get("username") or name))
        return None

    async def find_user(self, name: str) -> User | None:
        await self.ensure_login()
        return await self._find(name)

    async def reply(self, thread: str, bbcode: str) -> str:
        """POST /posts/; the new post's id once GET /posts/{id}/ shows it in the thread."""
        await self.ensure_login()
        topic = self.topic_id(thread)
        body = await self._post("posts/", {"thread_id": topic, "message": bbcode})
        post = _obj(body.get("post"))
        if not body.get("success") or not post.get("post_id"):
            raise LayoutChanged(self.api_url + "posts/", "the reply was accepted without a post id")
        post_id = str(post["post_id"])
        check = (await self._call("GET", f"posts/{post_id}/")).get("post") or {}
        if str(check.get("thread_id")) != topic:
            raise BoardError(
                N_("{url}: post {post_id} is not in thread {topic}").format(
                    url=self.base_url, post_id=post_id, topic=topic
                )
            )
        log.info("posted %s in thread %s (API)", post_id, topic)
        return post_id

    async def send_pm(self, recipients: Sequence[str], subject: str, bbcode: str) -> str:
        """POST /conversations/; the id of its first message once the conversation lists it."""
        ids = [user.id for user in await self.recipients(recipients)]
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
            raise BoardError(
                N_("{url}: conversation {cid} does not show message {first}").format(
                    url=self.base_url, cid=cid, first=first
                )
            )
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

"""`DiscourseBoard`: a Discourse forum through its JSON API, as the GM.

Discourse serves its pages as a JavaScript app; its data comes from the same JSON API any
client uses, so nothing here parses a page (`forums.discourse.topic` reads the answers).

- The GM's access: an administrator's API key (`[board] api_key`; headers `Api-Key` and
  `Api-Username`, the account named by `api_user`, else the GM's), a user API key the GM
  account made for forumgm (`api_key_kind = "user"`: header `User-Api-Key` alone — the
  optional `User-Api-Client-Id` would move the key to that client, dropping the account's
  other keys of it; the key acts as its
  own account and needs the scope "write", which covers reading too;
  `forums.discourse.userkey` gets one), or the GM's password where the site allows logins by password:
  `GET /session/csrf`, then `POST /session` with the token. The key or password goes to
  the configured board only (`forums.client.BoardClient` is pinned to its origin); a
  cookie session sends the CSRF token with every POST, fetched fresh once when Discourse
  answers "BAD CSRF". To a user key Discourse answers alike (403 `invalid_access`) when
  it does not know the key, when it was revoked, when its scopes do not cover the request
  and when the account may not see or do it: the key is tried on the account's own session
  then — refused there too, `LoginFailed` (make a new key); else a one-line `BoardError`
  for this request (a read-only key's post, a topic the GM may not see).
- The thread: `GET /t/{id}.json` lists every post id; the posts not in its first chunk come
  from `GET /t/{id}/posts.json?post_ids[]=…`, `chunk_size` at a time. A poll's cursor is
  the highest post id seen (Discourse numbers posts board-wide, in the order they were
  made), so a poll fetches only the posts after it; without a cursor every post is read (the
  deadline's freeze, which sees edits and deletions).
- Private messages are personal-message topics: the GM's list
  (`GET /topics/private-messages/{user}.json`), then each topic with new posts is read as
  a thread. The PM cursor keeps each topic's highest post number and last post id.
- Replies: `POST /posts.json` with `topic_id` and `raw`; a new PM the same with `title`,
  `archetype=private_message` and `target_recipients`. Each is confirmed by reading it back.
- Rate limits: a 429 asking for a minute or less is waited out as its `Retry-After` says,
  a bounded number of times, then `BoardUnavailable` (`forums.client`). A longer one is a
  limit, not a pause (a day's personal messages, a new account's topics, a user API key's
  requests a day): it is not waited here but raised at once as `FloodControl` with the
  wait and a line naming the limit and what the site's administrator can change
  (`engine.publish` keeps what was not sent for later). Discourse's own refusals (422
  "errors") are one-line `BoardError`s.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC
from typing import Any, ClassVar
from urllib.parse import quote, urlencode

import httpx

from forums.board import PMPage, ThreadPage
from forums.client import BoardClient
from forums.discourse.topic import (
    PMTopicRow,
    Topic,
    pm_list,
    pm_record,
    post_record,
    read_posts,
    read_topic,
)
from forums.errors import N_, BoardError, FloodControl, LayoutChanged, LoginFailed, NotFound
from forums.formboard import TWO_STEP_HELP
from forums.guard import redact
from forums.pages import TopicPage
from forums.records import Cursor, Post, PrivateMessage, User
from forums.webboard import Answer, Gone, Said, WebBoard

log = logging.getLogger("forums.discourse")

__all__ = ["Account", "ApiError", "DiscourseBoard", "discourse_board"]

JSON = dict[str, Any]


class ApiError(BoardError):
    """Discourse refused a request: `{"errors": [...], "error_type": ...}`."""

    def __init__(self, status: int, body: Any, url: str) -> None:
        data = body if isinstance(body, dict) else {}
        errors = data.get("errors")
        texts = [str(e) for e in errors] if isinstance(errors, list) else []
        if not texts and data.get("error"):
            texts = [str(data["error"])]
        if not texts and isinstance(body, list):
            texts = [str(e) for e in body]
        self.status = status
        self.url = redact(url)
        self.error_type = str(data.get("error_type") or "")
        self.text = "; ".join(texts)
        super().__init__(f"{redact(url)}: HTTP {status}: {self.text or 'no error text'}")


LONG_WAIT = 60.0
"""Seconds of a 429's wait beyond which it is a limit to report, not a pause to wait out
(the client waits at most its `max_backoff`, a minute, at a time)."""

USER_KEY_SCOPES = "write"
"""The scope a user API key needs: "write" lets it GET and POST ("read" only GETs); no
other is used (`session_info` adds nothing a "write" key lacks)."""

KEY_KINDS = ("admin", "user")
"""`[board] api_key_kind`: an administrator's key (`Api-Key`, `Api-Username`) or a user API
key (`User-Api-Key`)."""


def limit_wait(response: httpx.Response) -> float:
    """Seconds a 429 asks to wait: its `Retry-After`, else Discourse's `extras.wait_seconds`
    (0 when neither says)."""
    value = response.headers.get("Retry-After", "").strip()
    if value.isdigit():
        return float(value)
    try:
        body = json.loads(response.text)
    except ValueError:
        return 0.0
    extras = body.get("extras") if isinstance(body, dict) else None
    wait = extras.get("wait_seconds") if isinstance(extras, dict) else None
    return float(wait) if isinstance(wait, int | float) and wait > 0 else 0.0


class _DiscourseClient(BoardClient):
    """The board's client, handing back a 429 that asks for more than `LONG_WAIT`."""

    def hands_back(self, response: httpx.Response) -> bool:
        return response.status_code == 429 and limit_wait(response) > LONG_WAIT


def span(seconds: float) -> str:
    """A wait as a host reads it: 45 s, 12 min, 7 h 30 min."""
    whole = round(seconds)
    if whole < 60:
        return N_("{seconds} s").format(seconds=whole)
    if whole < 3600:
        return N_("{minutes} min").format(minutes=round(whole / 60))
    hours, minutes = divmod(round(whole / 60), 60)
    if minutes:
        return N_("{hours} h {minutes} min").format(hours=hours, minutes=minutes)
    return N_("{hours} h").format(hours=hours)


def limit_help(code: str, action: str, user_key: bool) -> str:
    """What the site's administrator can change for a long 429: by Discourse's error code
    (`Discourse-Rate-Limit-Error-Code`, for the request-wide limits) or by what was sent."""
    if code.startswith("user_api_key_limiter"):
        return N_(
            "the user API key's requests (max_user_api_reqs_per_day, 2880 a day on a stock "
            "server, max_user_api_reqs_per_minute, 20): the server's administrator raises them "
            "(DISCOURSE_MAX_USER_API_REQS_PER_DAY in app.yml), or the GM uses an "
            'administrator\'s API key instead (api_key_kind = "admin")'
        )
    if code:
        return N_(
            "Discourse's request limit {code!r} (the server's settings, for its administrator)"
        ).format(code=code)
    if action == "pm":
        return N_(
            "the GM account's personal messages a day (site setting "
            "max_personal_messages_per_day, 20 on a stock forum): an administrator raises it, "
            "or makes the GM account staff (a moderator), which Discourse does not limit"
        )
    if action == "reply":
        return N_(
            "the GM account's posts (a new account's first-day limits, max_replies_in_first_day "
            "and the trust level 0 limits): an administrator raises the account's trust level "
            "or makes it staff (a moderator), which Discourse does not limit"
        )
    return N_("Discourse's limits of the GM account (its trust level; staff are not limited)")


class _LoggedOut(ApiError):
    """The request needed a logged-in user and the board saw none."""


class _KeyRefused(ApiError):
    """A user API key's request refused (403 `invalid_access`): the key is gone, lacks the
    scope, or the account may not see or do this — `DiscourseBoard._refused` tells which."""


class _BadCsrf(ApiError):
    """A POST of a cookie session with a token the board no longer takes."""


@dataclass(frozen=True)
class Account:
    """What Discourse says of the GM account at login (`/session/current.json`), for
    `board check`: its trust level, whether it is staff (Discourse's rate limits spare
    staff) and whether it may send personal messages at all. None: not said."""

    trust_level: int | None = None
    staff: bool | None = None
    can_send_pms: bool | None = None

    @classmethod
    def of(cls, user: Mapping[str, Any]) -> Account:
        level = user.get("trust_level")
        flags = [user.get(k) for k in ("staff", "admin", "moderator")]
        said = [f for f in flags if isinstance(f, bool)]
        pms = user.get("can_send_private_messages")
        return cls(
            trust_level=level if isinstance(level, int) else None,
            staff=any(said) if said else None,
            can_send_pms=pms if isinstance(pms, bool) else None,
        )


@dataclass
class _PMState:
    """The PM cursor: per topic, the highest post number and the last post id read."""

    topics: dict[str, tuple[int, int]]

    @classmethod
    def of(cls, since: Cursor | None) -> _PMState:
        raw = since.data.get("pm_topics") if since is not None else None
        topics: dict[str, tuple[int, int]] = {}
        if isinstance(raw, dict):
            for tid, value in raw.items():
                if (
                    isinstance(value, list)
                    and len(value) == 2
                    and all(isinstance(v, int) for v in value)
                ):
                    topics[str(tid)] = (value[0], value[1])
        return cls(topics)

    def fresh(self, row: PMTopicRow) -> bool:
        return row.id not in self.topics or row.highest > self.topics[row.id][0]

    def after(self, tid: str) -> int:
        return self.topics.get(tid, (0, 0))[1]

    def cursor(self) -> Cursor:
        return Cursor({"pm_topics": {t: list(v) for t, v in sorted(self.topics.items())}})


class DiscourseBoard(WebBoard):
    """A Discourse forum through its JSON API, as the GM."""

    engine = "discourse"
    only_new_posts = True
    exact_times: ClassVar[bool] = True
    """Discourse dates posts and edits to the millisecond (ISO 8601 `created_at`): a time on
    a whole minute is a time like any other, not a board that prints minutes only."""
    edits_without_notice: ClassVar[bool] = False
    """Every edit makes a revision (`version`): no post changes without it showing
    (`forums.board.edits_without_notice`)."""
    form_word = "CSRF token"
    client_class = _DiscourseClient

    def __init__(
        self,
        base_url: str,
        username: str,
        password: str,
        *,
        api_key: str | None = None,
        api_user: str | None = None,
        api_key_kind: str = "admin",
        browser: bool = False,
        set_date_format: bool = False,
        **options: Any,
    ) -> None:
        if api_key_kind not in KEY_KINDS:
            raise ValueError(f"api_key_kind: one of {', '.join(KEY_KINDS)}, got {api_key_kind!r}")
        super().__init__(base_url, username, api_key or password, **options)
        if self.tz is None:
            self.tz = UTC  # Discourse's times are UTC's, to the millisecond
        if browser:
            log.warning("Discourse is read through its API: [board] browser changes nothing")
        self.account = Account()
        """What Discourse said of the GM account at the last login."""
        self.by_key = bool(api_key)
        self.user_key = self.by_key and api_key_kind == "user"
        """A user API key: it acts as the account that made it (no `Api-Username`)."""
        self.api_user = username.strip() if self.user_key else (api_user or username).strip()
        headers = self.http.http.headers
        headers["Accept"] = "application/json"
        if api_key and self.user_key:
            headers["User-Api-Key"] = api_key
        elif api_key:
            headers["Api-Key"] = api_key
            headers["Api-Username"] = self.api_user
        else:
            # Discourse answers its session and CSRF routes only to scripts.
            headers["X-Requested-With"] = "XMLHttpRequest"

    # -- requests ----------------------------------------------------------------------

    def _url(self, path: str, query: Sequence[tuple[str, str | int]] = ()) -> str:
        url = self.base_url + path.lstrip("/")
        return url + ("?" + urlencode(query) if query else "")

    async def _call(self, method: str, url: str, data: Mapping[str, Any] | None = None) -> JSON:
        if method == "GET":
            response = await self.http.get(url)
        else:
            response = await self.http.post(url, data or {})
        try:
            body = json.loads(response.text) if response.text.strip() else None
        except ValueError:
            body = None
            if response.status_code < 400:
                raise LayoutChanged(
                    redact(url),
                    N_("HTTP {response_status_code}: not a JSON answer").format(
                        response_status_code=response.status_code
                    ),
                ) from None
        status = response.status_code
        if status == 403 and body == ["BAD CSRF"]:
            raise _BadCsrf(status, body, url)
        if status == 429:
            raise self._limited(response, body, url, method, data)
        if status >= 400:
            error_type = body.get("error_type") if isinstance(body, dict) else None
            if status in (401, 403) and error_type == "not_logged_in":
                raise _LoggedOut(status, body, url)
            if status == 403 and error_type == "invalid_access" and self.user_key:
                raise _KeyRefused(status, body, url)
            if status == 404:
                raise NotFound(N_("{url}: not found (HTTP 404)").format(url=redact(url)))
            raise ApiError(status, body, url)
        if not isinstance(body, dict):
            raise LayoutChanged(redact(url), N_("a JSON answer that is not an object"))
        return body

    def _limited(
        self,
        response: httpx.Response,
        body: Any,
        url: str,
        method: str,
        data: Mapping[str, Any] | None,
    ) -> FloodControl:
        """A 429 the client handed back (a wait longer than it waits): one line naming the
        limit, the wait, and what the site can change."""
        wait = limit_wait(response) or LONG_WAIT
        code = response.headers.get("Discourse-Rate-Limit-Error-Code", "").strip()
        if method != "POST":
            action = "read"
        elif (data or {}).get("archetype") == "private_message":
            action = "pm"
        else:
            action = "reply"
        said = ApiError(429, body, url).text or N_("too many requests")
        refuses = {
            "pm": N_(
                "{url}: Discourse refuses a personal message for {wait} (HTTP 429: {said}); the "
                "limit is {limit}"
            ),
            "reply": N_(
                "{url}: Discourse refuses a post for {wait} (HTTP 429: {said}); the limit is "
                "{limit}"
            ),
            "read": N_(
                "{url}: Discourse refuses a request for {wait} (HTTP 429: {said}); the limit is "
                "{limit}"
            ),
        }[action]
        return FloodControl(
            refuses.format(
                url=self.base_url,
                wait=span(wait),
                said=said,
                limit=limit_help(code, action, self.user_key),
            ),
            retry_after=wait,
        )

    def _key_refused(self) -> LoginFailed:
        """Discourse refuses the user API key even its own account (`session/current`)."""
        return LoginFailed(
            N_(
                "{url}: Discourse refused the user API key (HTTP 403, invalid_access): it was "
                "revoked (the account's Preferences → Security → Apps), is for another site, or "
                "lacks the scope {scopes!r}; make a new one as the GM account {user!r} (forumgm "
                "board discourse-key)"
            ).format(url=self.base_url, scopes=USER_KEY_SCOPES, user=self.username)
        )

    async def _refused(self, refused: ApiError, method: str) -> BoardError:
        """A user API key's request refused: Discourse answers alike for a revoked key, a
        key without the scope and an account that may not see or do this, so the key is
        tried where any working key may go (the account's own session): refused there too,
        the key is gone (`LoginFailed`); else it is this request."""
        try:
            await self._call("GET", self._url("session/current.json"))
        except _KeyRefused:
            return self._key_refused()
        where = refused.url
        if method == "POST":
            return BoardError(
                N_(
                    "{where}: Discourse refused the post (HTTP 403, invalid_access): the user "
                    'API key lacks the scope {scopes!r} (a key made with "read" only reads: '
                    "make a new one, forumgm board discourse-key) or the GM account may not "
                    "post there"
                ).format(where=where, scopes=USER_KEY_SCOPES)
            )
        return BoardError(
            N_(
                "{where}: Discourse does not let the GM account see this (HTTP 403, invalid_access)"
            ).format(where=where)
        )

    def _key_dead(self, gone: ApiError) -> LoginFailed:
        """A "not logged in" answer to a request made with an API key: the key no longer works (a
        key has no session to log in again)."""
        return LoginFailed(
            N_("{url}: the API key no longer works ({said})").format(
                url=self.base_url, said=gone.text
            )
        )

    async def _get(self, path: str, query: Sequence[tuple[str, str | int]] = ()) -> JSON:
        """GET a members' answer through a lost cookie session (`as_gm`: logged in again
        once)."""

        async def read(url: str) -> JSON | Gone:
            try:
                return await self._call("GET", url)
            except _KeyRefused as refused:
                raise await self._refused(refused, "GET") from None
            except _LoggedOut as gone:
                if self.by_key:
                    raise self._key_dead(gone) from None
                return Gone(gone.text or "not logged in")

        return await self.as_gm(self._url(path, query), read)

    async def _post(self, path: str, data: Mapping[str, Any]) -> JSON:
        """POST through the board's refusals (`WebBoard.submit`): a stale CSRF token is
        fetched anew once, a lost session logged in again once."""
        url = self._url(path)

        async def fresh() -> Mapping[str, Any]:
            if not self.by_key:
                await self._csrf()
            return data

        async def send(form: Mapping[str, Any]) -> Said[Mapping[str, Any], JSON]:
            try:
                return Said(Answer.ACCEPTED, await self._call("POST", url, form))
            except _BadCsrf:
                return Said(Answer.STALE_FORM, text="BAD CSRF")
            except _KeyRefused as refused:
                raise await self._refused(refused, "POST") from None
            except _LoggedOut as gone:
                if self.by_key:
                    raise self._key_dead(gone) from None
                return Said(Answer.LOGGED_OUT, text=gone.text)
            except ApiError as error:
                return Said(Answer.REFUSED, text=error.text or f"HTTP {error.status}")

        form = data if self.by_key or "X-CSRF-Token" in self.http.http.headers else None
        return await self.submit(url, fresh, send, form=form)

    async def _csrf(self) -> None:
        """A CSRF token for the cookie session, sent with every POST from now on."""
        url = self._url("session/csrf")
        token = (await self._call("GET", url)).get("csrf")
        if not isinstance(token, str) or not token:
            raise LayoutChanged(url, N_("no csrf token in Discourse's answer"))
        self.http.http.headers["X-CSRF-Token"] = token

    # -- session -----------------------------------------------------------------------

    async def login(self) -> User:
        """With a key: check that it acts as the GM. Else log in with the password."""
        self.session.me = None
        if not self.by_key:
            await self._password_login()
        url = self._url("session/current.json")
        try:
            current = (await self._call("GET", url)).get("current_user")
        except NotFound:
            current = None
        except _KeyRefused:
            raise self._key_refused() from None
        except ApiError as error:
            if error.status in (401, 403):
                raise LoginFailed(
                    N_("{url}: Discourse refused the API key for {user!r} ({said}){hint}").format(
                        url=self.base_url,
                        user=self.api_user,
                        said=error.text or error.status,
                        hint=self._kind_hint(),
                    )
                ) from None
            raise
        user = current if isinstance(current, dict) else {}
        name = str(user.get("username") or "")
        if not name or user.get("id") is None:
            if self.by_key:
                said = N_(
                    "{url}: after the API key Discourse shows no logged-in user (cookies "
                    "refused? the account suspended?)"
                )
            else:
                said = N_(
                    "{url}: after the login Discourse shows no logged-in user (cookies "
                    "refused? the account suspended?)"
                )
            raise LoginFailed(said.format(url=self.base_url))
        if name.casefold() != self.username.casefold():
            whose = (
                N_("the user API key must be made by the GM account (logged in as it)")
                if self.user_key
                else N_("the key must act as the GM account (api_user)")
            )
            raise LoginFailed(
                N_("{url}: Discourse serves {name!r}, not the GM {user!r}: {whose}").format(
                    url=self.base_url, name=name, user=self.username, whose=whose
                )
            )
        self.account = Account.of(user)
        return self._logged_in(User(id=str(user["id"]), name=name))

    def _kind_hint(self) -> str:
        """A refused administrator's key of a user API key's length (32 hexadecimal digits;
        an administrator's has 64): the host likely set the wrong kind."""
        key = self._secret.reveal()
        if self.user_key or len(key) != 32 or any(c not in "0123456789abcdef" for c in key):
            return ""
        return N_(
            '; the key looks like a user API key (32 digits): set api_key_kind = "user" '
            "(board check: --api-key-kind user)"
        )

    async def _password_login(self) -> None:
        await self._csrf()
        url = self._url("session")
        self.http.origin.check(url, "the login (it would get the GM's password)")
        try:
            said = await self._call(
                "POST", url, {"login": self.username, "password": self._secret.reveal()}
            )
        except ApiError as error:
            raise LoginFailed(
                N_("{url}: Discourse refused the login of {user!r} ({said})").format(
                    url=self.base_url, user=self.username, said=error.text or error.status
                )
            ) from None
        if said.get("second_factor_required") or said.get("reason") == "invalid_second_factor":
            raise LoginFailed(TWO_STEP_HELP.format(url=self.base_url, user=self.username))
        if said.get("error"):
            reason = f" ({said['reason']})" if said.get("reason") else ""
            raise LoginFailed(f"{self.base_url}: {said['error']}{reason}")  # Discourse's words
        # A new session: its token is asked for again before the next POST.
        self.http.http.headers.pop("X-CSRF-Token", None)

    # -- the thread ----------------------------------------------------------------------

    @staticmethod
    def topic_id(thread: str) -> str:
        """The topic's id from an id or a topic URL (`/t/slug/123`, `/t/123/45`)."""
        text = thread.strip()
        if text.isdigit():
            return text
        parts = [p for p in text.split("?")[0].split("#")[0].split("/") if p]
        if "t" in parts:
            after = parts[parts.index("t") + 1 :]
            numbers = [p.removesuffix(".json") for p in after[:2]]
            for part in numbers:
                if part.isdigit():
                    return part
        raise NotFound(
            N_("not a Discourse topic (its number or address): {thread!r}").format(thread=thread)
        )

    async def _topic(self, topic: str) -> Topic:
        url = self._url(f"t/{topic}.json")
        return read_topic(await self._get(f"t/{topic}.json"), url)

    async def _posts(self, topic: Topic, ids: Sequence[int]) -> list[dict[str, Any]]:
        """The post objects of `ids` in the topic: those served with it, the rest fetched
        `chunk_size` at a time."""
        have = {p.get("id"): p for p in topic.posts}
        missing = [i for i in ids if i not in have]
        for start in range(0, len(missing), topic.chunk_size):
            batch = missing[start : start + topic.chunk_size]
            path = f"t/{topic.id}/posts.json"
            body = await self._get(path, [("post_ids[]", i) for i in batch])
            for p in read_posts(body, self._url(path)):
                have[p.get("id")] = p
        return [have[i] for i in ids if i in have]

    def _records(self, topic: Topic, objects: Sequence[Mapping[str, Any]]) -> list[Post]:
        url = self._url(f"t/{topic.id}.json")
        records = (post_record(p, topic.id, self.base_url, url, self.tz) for p in objects)
        return [p for p in records if p is not None]

    async def thread_posts(self, thread: str, since: Cursor | None = None) -> ThreadPage:
        """Every post (since=None), or the posts made after the cursor's, in order."""
        self.begin()
        topic_id = self.topic_id(thread)
        await self.ensure_login()
        after = 0
        if since is not None:
            last = since.data.get("last_id")
            if since.data.get("thread") == topic_id and isinstance(last, int):
                after = last
            else:
                log.warning(
                    "thread cursor %s does not fit topic %s: reading it all", since.data, topic_id
                )
        topic = await self._topic(topic_id)
        if topic.private:
            raise BoardError(
                N_("{url}: topic {topic_id} is a personal message, not a thread").format(
                    url=self.base_url, topic_id=topic_id
                )
            )
        wanted = [i for i in topic.stream if i > after]
        posts = self._records(topic, await self._posts(topic, wanted))
        cursor = Cursor({"thread": topic_id, "last_id": max(after, *topic.stream)})
        return ThreadPage(items=posts, cursor=cursor)

    async def thread_view(self, thread: str, number: int) -> TopicPage:
        """Chunk `number` (from 1) of the topic, as a page (`game start`'s first look)."""
        await self.ensure_login()
        return await self._page(await self._topic(self.topic_id(thread)), number)

    async def topic_page(self, thread: str, start: int = 0) -> TopicPage:
        """The chunk holding post `start + 1` of the topic (`board check`)."""
        await self.ensure_login()
        topic = await self._topic(self.topic_id(thread))
        return await self._page(topic, start // topic.chunk_size + 1)

    async def _page(self, topic: Topic, number: int) -> TopicPage:
        """Chunk `number` of the topic as the layer's page record."""
        per = topic.chunk_size
        pages = max(1, -(-len(topic.stream) // per))
        number = max(1, min(pages, number))
        ids = topic.stream[(number - 1) * per : number * per]
        return TopicPage(
            url=self._url(f"t/{topic.id}.json"),
            thread_id=topic.id,
            title=topic.title,
            posts=self._records(topic, await self._posts(topic, ids)),
            page=number,
            pages=pages,
            per_page=per,
            start=(number - 1) * per,
            total_posts=len(topic.stream),
            logged_in_as=self._me.name if self._me is not None else None,
        )

    def times_read(self) -> str:
        return N_("Discourse's ISO 8601 times (UTC, to the millisecond): no date format to read")

    # -- private messages ----------------------------------------------------------------

    async def _pm_rows(self, state: _PMState) -> list[PMTopicRow]:
        """The message topics with posts not read yet, most recently active first."""
        me = self._me.name if self._me is not None else self.username
        path = f"topics/private-messages/{quote(me)}.json"
        found: list[PMTopicRow] = []
        page: int | None = None
        while True:
            body = await self._get(path, [("page", page)] if page else [])
            listing = pm_list(body, self._url(path))
            fresh = [r for r in listing.rows if state.fresh(r)]
            found.extend(fresh)
            going_on = listing.next_page is not None and listing.next_page != page
            if len(fresh) < len(listing.rows) or not going_on or not listing.rows:
                return found
            page = listing.next_page

    async def _messages(self, since: Cursor | None, mine: bool) -> PMPage:
        self.begin()
        await self.ensure_login()
        state = _PMState.of(since)
        me = (self._me.name if self._me is not None else self.username).casefold()
        items: list[PrivateMessage] = []
        for row in await self._pm_rows(state):
            topic = await self._topic(row.id)
            after = state.after(row.id)
            url = self._url(f"t/{topic.id}.json")
            for data in await self._posts(topic, [i for i in topic.stream if i > after]):
                pm = pm_record(data, topic, self.base_url, url, self.tz)
                if pm is not None and (pm.sender.casefold() == me) == mine:
                    items.append(pm)
            state.topics[row.id] = (row.highest, max(after, *topic.stream))
        items.sort(key=lambda pm: int(pm.id))
        return PMPage(items=items, cursor=state.cursor())

    # -- users and posting -----------------------------------------------------------------

    async def find_user(self, name: str) -> User | None:
        self.begin()
        await self.ensure_login()
        wanted = name.strip()
        if not wanted or "/" in wanted:
            return None
        try:
            body = await self._get(f"u/{quote(wanted)}.json")
        except NotFound:
            return None
        user = body.get("user")
        if not isinstance(user, dict) or not user.get("username") or user.get("id") is None:
            raise LayoutChanged(
                self._url(f"u/{quote(wanted)}.json"), N_("a user without name or id")
            )
        return User(id=str(user["id"]), name=str(user["username"]))

    def _created(self, body: JSON, what: str) -> tuple[str, str]:
        post_id, topic_id = body.get("id"), body.get("topic_id")
        if not isinstance(post_id, int) or not isinstance(topic_id, int):
            raise LayoutChanged(
                self._url("posts.json"),
                N_("{what} accepted without post or topic id").format(what=what),
            )
        return str(post_id), str(topic_id)

    async def reply(self, thread: str, bbcode: str) -> str:
        """POST /posts.json; the new post's id once the topic lists it."""
        self.begin()
        topic_id = self.topic_id(thread)
        await self.ensure_login()
        post_id, where = self._created(
            await self._post("posts.json", {"topic_id": topic_id, "raw": bbcode}), "a reply"
        )
        if where != topic_id:
            raise BoardError(
                N_("{url}: post {post_id} went to topic {where}, not {topic_id}").format(
                    url=self.base_url, post_id=post_id, where=where, topic_id=topic_id
                )
            )
        await self._confirm(topic_id, post_id)
        log.info("posted %s in topic %s", post_id, topic_id)
        return post_id

    async def send_pm(self, recipients: Sequence[str], subject: str, bbcode: str) -> str:
        """A new personal message: POST /posts.json with `archetype=private_message`; the id
        of its first post once its topic lists it."""
        self.begin()
        await self.ensure_login()
        names = [user.name for user in await self.recipients(recipients)]
        form = {
            "title": subject,
            "raw": bbcode,
            "archetype": "private_message",
            "target_recipients": ",".join(names),
        }
        post_id, topic_id = self._created(await self._post("posts.json", form), "a message")
        await self._confirm(topic_id, post_id)
        log.info("sent personal message %s (topic %s)", post_id, topic_id)
        return post_id

    async def _confirm(self, topic_id: str, post_id: str) -> None:
        topic = await self._topic(topic_id)
        if int(post_id) not in topic.stream:
            raise BoardError(
                N_("{url}: topic {topic_id} does not list post {post_id}").format(
                    url=self.base_url, topic_id=topic_id, post_id=post_id
                )
            )


def discourse_board(base_url: str, username: str, password: str, **options: Any) -> DiscourseBoard:
    """The board for `engine = "discourse"` (an API key in `api_key`, else the password)."""
    return DiscourseBoard(base_url, username, password, **options)

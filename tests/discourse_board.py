"""A Discourse forum in memory that answers the JSON API as Discourse does, for the tests.

Its topics hold real post objects (fixtures/discourse/, see its README) and new ones made
the way Discourse makes them: `POST /posts.json` answers a copy of the real answer of a post
creation (`discourse_api_create_topic_with_tags.json`) with this post's fields. Every
answer has the shape of a real one: `/t/{id}.json` is a real topic envelope with
`post_stream.stream` (every visible id) and the first `chunk_size` posts,
`/t/{id}/posts.json?post_ids[]=…` the real `post_stream.posts` envelope, the message list a
real `topic_list`. What no public capture shows (the session routes, the error bodies, a
personal-message topic's `details.allowed_users`) follows Discourse's API documentation.

The GM comes with an administrator's API key (`Api-Key`, `Api-Username`), a user API key
(`User-Api-Key`: it acts as its account, within its scopes — "read" allows GETs, "write"
GETs and POSTs, "session_info" `/session/current.json` — and a revoked or unknown one is
refused as Discourse refuses it, 403 `invalid_access`) or logs in with a password:
`GET /session/csrf`, then `POST /session` with the token in `X-CSRF-Token`; a cookie
session's POSTs need the token too ("BAD CSRF" otherwise). `queue` puts answers (a 429, a
500) before what the board would say; every request is recorded.
"""

from __future__ import annotations

import copy
import json
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, unquote

import httpx

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "fixtures" / "discourse"
BASE = "https://forum.example.org/"
GM = "Ведущий_GM"
PASSWORD = "gm-Пароль-77"
KEY = "0f3c5d-discourse-api-key-91ab"
USER_KEY = "5e1a0c7b9d2f4e6a8b0c1d2e3f4a5b6c"
"""A user API key: 32 hexadecimal digits, as Discourse makes them (`SecureRandom.hex`)."""


def fixture(name: str) -> Any:
    return json.loads((FIXTURES / name).read_text(encoding="utf-8"))


def real_posts(*names: str) -> list[dict[str, Any]]:
    """The post objects of saved answers, in the topic's order (by post number)."""
    posts: list[dict[str, Any]] = []
    for name in names:
        data = fixture(name)
        posts += data["post_stream"]["posts"] if "post_stream" in data else data["latest_posts"]
    return sorted(posts, key=lambda p: p["post_number"])


def iso(moment: datetime) -> str:
    return moment.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def json_answer(
    body: Any, status: int = 200, headers: dict[str, str] | None = None
) -> httpx.Response:
    return httpx.Response(
        status,
        content=json.dumps(body, ensure_ascii=False).encode(),
        headers={"Content-Type": "application/json; charset=utf-8", **(headers or {})},
    )


def errors(status: int, error_type: str, *texts: str, **extra: Any) -> httpx.Response:
    return json_answer({"errors": list(texts), "error_type": error_type, **extra}, status)


NOT_FOUND = ("The requested URL or resource could not be found.",)
INVALID_ACCESS = (
    "You are not permitted to view the requested resource. The API username or key is invalid.",
)
NOT_LOGGED_IN = ("You are not permitted to view the requested resource.",)


def rate_limited(
    seconds: int, *, retry_after: bool = True, code: str | None = None
) -> httpx.Response:
    """Discourse's 429 (RateLimiter::LimitExceeded): the wait in the header and the body,
    said in seconds, minutes or hours as its `time_left` is; `code` is the request-wide
    limiters' `Discourse-Rate-Limit-Error-Code` (user_api_key_limiter_1_day…)."""
    if seconds < 60:
        left = f"{seconds} seconds"
    elif seconds < 3600:
        left = f"{seconds // 60} minutes"
    else:
        left = f"{seconds // 3600} hours"
    body = {
        "errors": [
            f"You’ve performed this action too many times. Please wait {left} before trying again."
        ],
        "error_type": "rate_limit",
        "extras": {"wait_seconds": seconds, "time_left": left},
    }
    headers = {"Retry-After": str(seconds)} if retry_after else {}
    if code is not None:
        headers["Discourse-Rate-Limit-Error-Code"] = code
    return json_answer(body, 429, headers)


@dataclass
class FakeTopic:
    id: int
    title: str
    posts: list[dict[str, Any]]
    archetype: str = "regular"
    members: list[str] = field(default_factory=list)
    """A personal message's `allowed_users`."""
    envelope: str = "criticalfallibilism_t_2108_post_452.json"

    @property
    def slug(self) -> str:
        return f"topic-{self.id}"


class FakeDiscourse:
    """A Discourse forum as its JSON API shows it."""

    def __init__(self, *, key: str | None = KEY, chunk_size: int = 20) -> None:
        self.key = key
        self.chunk_size = chunk_size
        self.users: dict[str, tuple[int, str]] = {}
        self.passwords: dict[str, str] = {GM.casefold(): PASSWORD}
        self.user_keys: dict[str, tuple[str, set[str]]] = {}
        """A user API key → (its account, its scopes); `revoke` takes one away."""
        self.pms_per_day: int | None = None
        """`max_personal_messages_per_day` for the GM (None: no limit, as for staff)."""
        self.pms_today = 0
        self.account: dict[str, Any] = {
            "trust_level": 1,
            "admin": False,
            "moderator": False,
            "staff": False,
            "can_send_private_messages": True,
        }
        """What `/session/current.json` says of the GM besides his name (CurrentUserSerializer)."""
        self.topics: dict[int, FakeTopic] = {}
        self.requests: list[httpx.Request] = []
        self.queued: list[tuple[Callable[[httpx.Request], bool], httpx.Response]] = []
        self.sessions: dict[str, tuple[str, str]] = {}
        """cookie → (user name, CSRF token)"""
        self.csrf: dict[str, str] = {}
        self.now = datetime(2026, 1, 22, 12, 0, tzinfo=UTC)
        self.next_post_id = 30000
        self.next_topic_id = 5000
        self.password_logins = True
        self.add_user(GM, 7)

    # -- the forum ---------------------------------------------------------------------

    def add_user(self, name: str, user_id: int | None = None) -> None:
        self.users[name.casefold()] = (user_id or 100 + len(self.users), name)

    def user(self, name: str) -> tuple[int, str]:
        return self.users[name.casefold()]

    def add_topic(self, topic_id: int, title: str, posts: list[dict[str, Any]]) -> FakeTopic:
        for p in posts:
            if p["username"].casefold() not in self.users:
                self.add_user(p["username"], p.get("user_id"))
        topic = self.topics[topic_id] = FakeTopic(topic_id, title, posts)
        return topic

    def post(
        self, topic_id: int, author: str, raw: str, cooked: str | None = None
    ) -> dict[str, Any]:
        """A new post by `author`, as `POST /posts.json` makes it."""
        topic = self.topics[topic_id]
        user_id, name = self.user(author)
        made = copy.deepcopy(fixture("discourse_api_create_topic_with_tags.json"))
        number = max((p["post_number"] for p in topic.posts), default=0) + 1
        self.next_post_id += 1
        made.update(
            id=self.next_post_id,
            username=name,
            user_id=user_id,
            created_at=iso(self.now),
            updated_at=iso(self.now),
            cooked=cooked if cooked is not None else _cook(raw),
            post_number=number,
            topic_id=topic_id,
            topic_slug=topic.slug,
            yours=name.casefold() == GM.casefold(),
            version=1,
        )
        topic.posts.append(made)
        return made

    def pm(self, author: str, to: list[str], title: str, raw: str) -> dict[str, Any]:
        """A new personal message from `author`."""
        self.next_topic_id += 1
        topic = FakeTopic(self.next_topic_id, title, [], "private_message", [author, *to])
        topic.envelope = "api_docs_topic_response.json"
        self.topics[topic.id] = topic
        return self.post(topic.id, author, raw)

    def find(self, post_id: int) -> dict[str, Any]:
        return next(p for t in self.topics.values() for p in t.posts if p["id"] == post_id)

    def edit(self, post_id: int, cooked: str, at: datetime) -> None:
        post = self.find(post_id)
        post.update(cooked=cooked, version=post["version"] + 1, updated_at=iso(at))

    def withdraw(self, post_id: int) -> None:
        """The author deleted his post: Discourse keeps it, withdrawn, for a day."""
        self.find(post_id).update(
            user_deleted=True,
            cooked="<p>(post withdrawn by author, will be automatically deleted in 24 hours "
            "unless flagged)</p>",
        )

    def delete(self, post_id: int) -> None:
        """A moderator deleted it: a member no longer gets its id."""
        self.find(post_id)["deleted_at"] = iso(self.now)

    def add_user_key(self, key: str, user: str, scopes: str = "write") -> None:
        """A user API key `user` made for an app, with `scopes` (comma-separated)."""
        self.user_keys[key] = (self.user(user)[1], set(scopes.split(",")))

    def revoke(self, key: str) -> None:
        """The account revoked the app's key (Preferences → Security → Apps)."""
        del self.user_keys[key]

    def queue(self, when: Callable[[httpx.Request], bool], response: httpx.Response) -> None:
        self.queued.append((when, response))

    def client(self) -> httpx.AsyncClient:
        return httpx.AsyncClient(transport=httpx.MockTransport(self.answer))

    # -- the API -----------------------------------------------------------------------

    def answer(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        for i, (when, response) in enumerate(self.queued):
            if when(request):
                del self.queued[i]
                return response
        path = unquote(request.url.path)
        query = parse_qsl(request.url.query.decode(), keep_blank_values=True)
        form = dict(parse_qsl(request.content.decode())) if request.method == "POST" else {}
        if path == "/session/csrf" and request.method == "GET":
            return self._csrf(request)
        if path == "/session" and request.method == "POST":
            return self._login(request, form)
        who = self._who(request, path)
        if isinstance(who, httpx.Response):
            return who
        if request.method == "POST":
            session = self._cookie(request)
            if session is not None and request.headers.get("X-CSRF-Token") != session[1]:
                return json_answer(["BAD CSRF"], 403)
        if path == "/session/current.json":
            if who is None:
                return errors(404, "not_found", *NOT_FOUND)
            user_id, name = self.user(who)
            me = {"id": user_id, "username": name, "name": "", **self.account}
            return json_answer({"current_user": me})
        if path.startswith("/u/") and path.endswith(".json"):
            found = self.users.get(path[3:-5].casefold())
            if found is None:
                return errors(404, "not_found", *NOT_FOUND)
            return json_answer({"user": {"id": found[0], "username": found[1], "name": None}})
        if path.startswith("/topics/private-messages/"):
            return self._pm_list(who, query)
        if path.startswith("/t/"):
            return self._topic(who, path, query)
        if path == "/posts.json" and request.method == "POST":
            if who is None:
                return errors(403, "not_logged_in", *NOT_LOGGED_IN)
            return self._create(who, form)
        return errors(404, "not_found", *NOT_FOUND)

    def _cookie(self, request: httpx.Request) -> tuple[str, str] | None:
        token = request.headers.get("Cookie", "").partition("_t=")[2].split(";")[0]
        return self.sessions.get(token) if token else None

    def _who(self, request: httpx.Request, path: str) -> str | httpx.Response | None:
        """The user a request acts as; a refused key is Discourse's 403."""
        user_key = request.headers.get("User-Api-Key")
        if user_key is not None:
            found = self.user_keys.get(user_key)
            if found is None or not _permits(found[1], request.method, path):
                return errors(403, "invalid_access", *NOT_LOGGED_IN)
            return found[0]
        key = request.headers.get("Api-Key")
        if key is not None:
            name = request.headers.get("Api-Username", "")
            if key != self.key or name.casefold() not in self.users:
                return errors(403, "invalid_access", *INVALID_ACCESS)
            return self.user(name)[1]
        session = self._cookie(request)
        return session[0] if session is not None else None

    def _csrf(self, request: httpx.Request) -> httpx.Response:
        if request.headers.get("X-Requested-With") != "XMLHttpRequest":
            return errors(404, "not_found", *NOT_FOUND)
        token = secrets.token_urlsafe(16)
        session = self._cookie(request)
        if session is not None:
            cookie = request.headers["Cookie"].partition("_t=")[2].split(";")[0]
            self.sessions[cookie] = (session[0], token)
            return json_answer({"csrf": token})
        pre = secrets.token_hex(8)
        self.csrf[pre] = token
        return json_answer({"csrf": token}, headers={"Set-Cookie": f"_forum_session={pre}; path=/"})

    def _login(self, request: httpx.Request, form: dict[str, str]) -> httpx.Response:
        pre = request.headers.get("Cookie", "").partition("_forum_session=")[2].split(";")[0]
        if not pre or self.csrf.get(pre) != request.headers.get("X-CSRF-Token"):
            return json_answer(["BAD CSRF"], 403)
        if not self.password_logins:
            return json_answer({"error": "Logging in with a password is not allowed here."})
        login = form.get("login", "").casefold()
        if self.passwords.get(login) != form.get("password"):
            return json_answer({"error": "Incorrect username, email or password"})
        user_id, name = self.user(login)
        cookie = secrets.token_hex(16)
        self.sessions[cookie] = (name, self.csrf[pre])
        return json_answer(
            {"user": {"id": user_id, "username": name}},
            headers={"Set-Cookie": f"_t={cookie}; path=/"},
        )

    def _visible(self, topic: FakeTopic) -> list[dict[str, Any]]:
        return [p for p in topic.posts if not p.get("deleted_at")]

    def _may_read(self, who: str | None, topic: FakeTopic) -> bool:
        return topic.archetype != "private_message" or (
            who is not None and who.casefold() in {m.casefold() for m in topic.members}
        )

    def _topic(self, who: str | None, path: str, query: list[tuple[str, str]]) -> httpx.Response:
        parts = path.strip("/").split("/")
        tid = parts[1].removesuffix(".json")
        topic = self.topics.get(int(tid)) if tid.isdigit() else None
        if topic is None or not self._may_read(who, topic):
            return errors(404, "not_found", *NOT_FOUND)
        posts = self._visible(topic)
        if len(parts) == 3 and parts[2] == "posts.json":
            wanted = {int(v) for k, v in query if k == "post_ids[]"}
            chosen = [p for p in posts if p["id"] in wanted]
            return json_answer({"post_stream": {"posts": chosen}, "id": topic.id})
        body = copy.deepcopy(fixture(topic.envelope))
        body.update(
            id=topic.id,
            title=topic.title,
            fancy_title=topic.title,
            slug=topic.slug,
            archetype=topic.archetype,
            posts_count=len(posts),
            highest_post_number=max((p["post_number"] for p in topic.posts), default=0),
            chunk_size=self.chunk_size,
        )
        body["post_stream"] = {
            "posts": posts[: self.chunk_size],
            "stream": [p["id"] for p in posts],
        }
        if topic.archetype == "private_message":
            body["details"]["allowed_users"] = [
                {"id": self.user(m)[0], "username": self.user(m)[1], "name": None}
                for m in topic.members
            ]
        return json_answer(body)

    def _pm_list(self, who: str | None, query: list[tuple[str, str]]) -> httpx.Response:
        if who is None:
            return errors(403, "not_logged_in", *NOT_LOGGED_IN)
        mine = [
            t
            for t in self.topics.values()
            if t.archetype == "private_message" and self._may_read(who, t)
        ]
        mine.sort(key=lambda t: max(p["created_at"] for p in t.posts), reverse=True)
        page = int(dict(query).get("page", "0"))
        per_page = 30
        shown = mine[page * per_page : (page + 1) * per_page]
        body = copy.deepcopy(fixture("discourse_api_private_messages.json"))
        row = body["topic_list"]["topics"][0]
        rows = []
        for t in shown:
            made = copy.deepcopy(row)
            made.update(
                id=t.id,
                title=t.title,
                fancy_title=t.title,
                slug=t.slug,
                posts_count=len(t.posts),
                highest_post_number=max(p["post_number"] for p in t.posts),
                last_posted_at=max(p["created_at"] for p in t.posts),
                bumped_at=max(p["created_at"] for p in t.posts),
            )
            rows.append(made)
        body["topic_list"]["topics"] = rows
        if len(mine) > (page + 1) * per_page:
            body["topic_list"]["more_topics_url"] = (
                f"/topics/private-messages/{who}?page={page + 1}"
            )
        return json_answer(body)

    def _create(self, who: str, form: dict[str, str]) -> httpx.Response:
        raw = form.get("raw", "")
        if len(raw.strip()) < 5:
            return errors(422, "invalid_parameters", "Body is too short (minimum is 5 characters)")
        if form.get("archetype") == "private_message":
            names = [n for n in form.get("target_recipients", "").split(",") if n]
            unknown = [n for n in names if n.casefold() not in self.users]
            if not names or unknown:
                return errors(422, "invalid_parameters", f"{', '.join(unknown)} not found")
            if self.pms_per_day is not None and self.pms_today >= self.pms_per_day:
                return rate_limited(20 * 3600)  # the day's first PM leaves the window then
            self.pms_today += 1
            made = self.pm(who, names, form.get("title", ""), raw)
        else:
            tid = form.get("topic_id", "")
            if not tid.isdigit() or int(tid) not in self.topics:
                return errors(404, "not_found", *NOT_FOUND)
            made = self.post(int(tid), who, raw)
        return json_answer(made)


def _permits(scopes: set[str], method: str, path: str) -> bool:
    """Whether a user API key's scopes allow the request (Discourse's UserApiKeyScope:
    "read" any GET, "write" any GET or POST, "session_info" the current session)."""
    if "write" in scopes:
        return True
    if method == "GET" and "read" in scopes:
        return True
    return method == "GET" and path == "/session/current.json" and "session_info" in scopes


def _cook(raw: str) -> str:
    """Enough of Discourse's Markdown and BBCode for what forumgm posts: paragraphs and
    line breaks, `[b]`, `[quote]`, `[s]` and `[spoiler]`."""
    import html
    import re

    text = html.escape(raw, quote=False)
    for tag, element in (("b", "strong"), ("i", "em"), ("s", "s"), ("u", "u")):
        text = re.sub(rf"\[{tag}\](.*?)\[/{tag}\]", rf"<{element}>\1</{element}>", text, flags=re.S)
    text = re.sub(
        r"\[spoiler(?:=[^\]]*)?\](.*?)\[/spoiler\]",
        r'<div class="spoiler">\1</div>',
        text,
        flags=re.S,
    )
    text = re.sub(
        r"\[quote(?:=[^\]]*)?\](.*?)\[/quote\]", r"<blockquote>\1</blockquote>", text, flags=re.S
    )
    paragraphs = [p for p in re.split(r"\n{2,}", text) if p.strip()]
    return "\n".join(f"<p>{p.strip().replace(chr(10), '<br>')}</p>" for p in paragraphs)

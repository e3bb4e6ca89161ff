"""`Vb5Board`: the `Board` protocol over a vBulletin 5 board (or 6, its continuation), as
the GM's account.

vBulletin 5 keeps everything in nodes: a thread is its first post's node, a reply a node
under it, a private message a node in the PM channel. Its pages are read like vB3/4's; what
a member does goes through its AJAX calls, which answer JSON (`forums.vbulletin.vb5`):

- Login: the login dialog's call (`POST /auth/ajax-login`, `username` and `password`:
  vBulletin 5 takes the password itself, no digest), which answers JSON (5.3 and later; 6
  has no other), else the login page's form (`POST /auth/login`, 5.0–5.2), which answers
  a page; then the home page's `pageData` must name the GM; its `securitytoken` goes with
  every later call.
- Reading: the thread's node (`/node/N`, `/node/N/pageM`: the board redirects to the
  thread's own address), read by `forums.vbulletin.thread`, with the page cursor of
  `forums.cursor`. Each post carries its Unix time (`data-node-publishdate`).
- Replying: `POST /create-content/text` (`parentid` the thread, the text as the editor
  sends it), as vBulletin's own editor does; the answer names the new node, which is then
  looked for on the thread (`/node/{post}` leads to its page).
- PMs: vBulletin 5 keeps conversations: a message and the replies to it. Sent through the
  API (`content_privatemessage/add`, `msgRecipients` the names, comma-separated), each
  name first looked up (`user/fetchByUsername`: vBulletin drops unknown names silently),
  confirmed by reading the conversation back (`getMessage`). Read through
  `listFolders` (the message and sent folders and the GM's own), `listMessages` (a
  folder's conversations, the newest reply first) and `getMessage` (a conversation's
  messages): the inbox is every message not by the GM, the sent box every one by him.
- Flood control (`postfloodcheck`, `pmfloodcheck`, with the seconds to wait) is waited
  out, a refused security token fetched fresh once, a lost session logged in again once
  (`forums.webboard`); any other refusal is a `BoardError` naming vBulletin's phrase.

Checked against: the real 5.5.2 thread page (reading), and vBulletin's own source for the
rest (login, replies, PMs, the API's answers; docs/research/vbulletin5.md). No real login
answer, PM or API answer of a live board was found to test against.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from enum import Enum
from typing import Any, ClassVar
from urllib.parse import urlsplit, urlunsplit

import httpx

from forums.bbcode import parse_bbcode
from forums.board import PMPage
from forums.errors import N_, BoardError, LayoutChanged, LoginFailed, NotFound
from forums.formboard import Fetched, PagedBoard, Served
from forums.guard import redact
from forums.pages import PageKind, TopicPage
from forums.records import Cursor, PrivateMessage, User
from forums.vbulletin import vb5
from forums.vbulletin.thread import parse_thread_page
from forums.webboard import Answer, Gone, Said

log = logging.getLogger("forums.vbulletin")

__all__ = ["Vb5Board"]

LOGIN_KINDS = frozenset({PageKind.LOGIN_FORM, PageKind.LOGIN_FAILED})
PM_FOLDERS_HIDDEN = (
    "trash",
    "your_notifications",
    "requests",
    "pending_posts",
    "infractions",
    "deleted_items",
)
"""vBulletin 5's system folders that hold no conversation of the GM's (notifications,
friend requests, moderation): `listFolders` leaves them out when asked."""
PM_PAGE = 50
TOKEN_FRESH = 3600.0
"""Seconds a security token is used before the home page's is fetched anew."""


@dataclass(frozen=True)
class _Token:
    """A submission's security token (vBulletin 5 has no form to fetch: only the token)."""

    value: str


class Vb5Board(PagedBoard):
    """A vBulletin 5 (or 6) board, as the GM."""

    engine = "vbulletin5"
    login_path = "auth/login-form"
    """The login page (the browser login opens it); its form posts to `auth/login`."""
    flood_margin = 1.0
    default_per_page = 15
    default_flood_wait = 30.0
    exact_times: ClassVar[bool] = True
    form_word: ClassVar[str] = "security token"

    def __init__(self, base_url: str, username: str, password: str, **options: Any) -> None:
        options.pop("date_order", None)  # vBulletin 5 gives Unix times: no date format to read
        super().__init__(base_url, username, password, **options)
        self._token_value: str | None = None
        self._token_at: datetime | None = None
        self._times: dict[str, datetime] = {}
        self._thread_urls: dict[str, str] = {}
        """A thread's own address (its `node/` URL redirects there), by its id."""

    # -- logging in ----------------------------------------------------------------------

    def _note(self, html: str) -> dict[str, str]:
        """The page's `pageData`; its token kept when the page was served to a member."""
        data = vb5.page_data(html)
        token = data.get("securitytoken")
        if data.get("userid", "0") != "0" and token and token != "guest":
            self._token_value = token
            self._token_at = self._clock()
        return data

    async def _home(self) -> tuple[dict[str, str], str]:
        response = await self.http.get(self.http.url(""))
        html, url = response.text, str(response.url)
        data = self._note(html)
        if not data:
            raise LayoutChanged(redact(url), N_("not a vBulletin 5 page (no pageData)"))
        return data, url

    @staticmethod
    def _user(data: Mapping[str, str]) -> User | None:
        userid = data.get("userid", "0")
        if not userid.isdigit() or userid == "0":
            return None
        return User(userid, vb5.unescape(data.get("username", "")))

    async def _form_login(self) -> User:
        self._token_value = None
        data, _ = await self._home()
        shown = self._user(data)
        if shown is not None and self.is_gm(shown.name):
            return self._logged_in(shown)  # the cookies of an earlier login still work
        token = data.get("securitytoken") or "guest"

        def fill(password: str) -> dict[str, str]:
            return {
                "username": self.username,
                "password": password,
                "rememberme": "1",
                "securitytoken": token,
            }

        response = await self.post_login(self.http.url("auth/ajax-login"), fill)
        try:
            answer = json.loads(response.text)
        except ValueError:
            answer = _NOT_JSON
        if answer is _NOT_JSON:
            await self._page_login()  # a board older than the dialog's call (before 5.3)
        else:
            self._check_login(answer)
        return await self._session_user(N_("logging in as {user!r}").format(user=self.username))

    def _check_login(self, answer: Any) -> None:
        """The dialog's answer: `{"success": true, …}`, else the login's refusal."""
        errors = vb5.api_errors(answer)
        if not errors and isinstance(answer, Mapping) and answer.get("success"):
            return
        phrases = [e.phrase for e in errors]
        if any(p.startswith("humanverify") for p in phrases):
            raise self.captcha()
        if any(p in ("badmfa", "mfa_required") for p in phrases):
            raise self.two_step()
        raise LoginFailed(
            N_("{url}: login as {user!r} failed: {said}").format(
                url=self.base_url,
                user=self.username,
                said=vb5.login_refusal(phrases) or repr(answer),
            )
        )

    async def _page_login(self) -> None:
        """vBulletin 5.0–5.2: the login page's form (`/auth/login`), which answers a page."""

        def fill(password: str) -> dict[str, str]:
            return {
                "url": "",
                "username": self.username,
                "password": password,
                "vb_login_md5password": "",
                "vb_login_md5password_utf": "",
                "rememberme": "1",
            }

        response = await self.post_login(self.http.url("auth/login"), fill)
        if not response.is_redirect and vb5.classify(response.text) in LOGIN_KINDS:
            said = " ".join(vb5.login_errors(response.text)) or N_("the login form came back")
            raise LoginFailed(
                N_("{url}: login as {user!r} failed: {said}").format(
                    url=self.base_url, user=self.username, said=said
                )
            )

    async def _after_browser_login(self) -> User:
        return await self._session_user(N_("the browser login"))

    async def _session_user(self, after: str) -> User:
        data, _ = await self._home()
        return self.greeted(self._user(data), after)

    def _served(self, html: str, url: str, expect: Collection[Enum]) -> Served:
        kind = vb5.classify(html)
        data = self._note(html)
        gone = kind in LOGIN_KINDS or (bool(data) and self._user(data) is None)
        return Served(kind, gone=gone)

    # -- times ---------------------------------------------------------------------------

    def times_read(self) -> str:
        if self._tz is not None:
            return N_(
                "vBulletin 5: each post's Unix time (data-node-publishdate), shown in zone {tz}"
            ).format(tz=self._tz)
        return N_("vBulletin 5: each post's Unix time (data-node-publishdate), shown in UTC")

    # -- the thread ----------------------------------------------------------------------

    @staticmethod
    def topic_id(thread: str) -> str:
        """ "727744", a `/node/727744` URL or the thread's own (`…/727744-title`) → the id."""
        thread = thread.strip()
        if thread.isdigit():
            return thread
        parts = [p for p in urlsplit(thread).path.split("/") if p]
        for i, part in enumerate(parts):
            if part == "node" and i + 1 < len(parts) and parts[i + 1].isdigit():
                return parts[i + 1]
        for part in reversed(parts):
            head = part.split("-", 1)[0]
            if head.isdigit() and "-" in part:
                return head
        raise NotFound(
            N_("not a {engine} thread: {thread!r}").format(engine="vBulletin 5", thread=thread)
        )

    def _read_thread(self, fetched: Fetched) -> TopicPage:
        return parse_thread_page(
            fetched.html,
            fetched.url,
            now=self.served_at(fetched.response),
            tz=self._tz or UTC,
            per_page=self._per_page,
            known_times=self._times,
        )

    async def thread_page(self, thread: str, number: int = 1) -> TopicPage:
        """Page `number` of the thread. Its `node/` URL answers with a redirect to the
        thread's own address (`/forum/…/727744-its-title/page2`): that address, once seen,
        is asked for directly, so a poll costs one request a page, not two. An address the
        board no longer serves as this thread (a new title, a move) is forgotten and the
        page asked for through its node again."""
        known = self._thread_urls.get(thread)
        if known is not None:
            url = known + (f"/page{number}" if number > 1 else "")
            try:
                fetched = await self.page(lambda: url, {PageKind.TOPIC})
                view = self._read_thread(fetched)
            except (NotFound, LayoutChanged):
                view = None
            if view is None or view.thread_id != thread:
                del self._thread_urls[thread]
                log.info("thread %s is no longer at %s: asking through its node", thread, known)
                return await self.thread_page(thread, number)
        else:
            path = f"node/{thread}" + (f"/page{number}" if number > 1 else "")
            fetched = await self.page(path, {PageKind.TOPIC})
            view = self._read_thread(fetched)
            if view.thread_id == thread:
                self._remember_address(thread, fetched.url)
        if view.thread_id != thread:
            raise LayoutChanged(
                redact(fetched.url),
                N_("asked for thread {thread}, the board served {view_thread_id}").format(
                    thread=thread, view_thread_id=view.thread_id
                ),
            )
        self.noted(view)
        for post in view.posts:
            if not post.deleted:
                self._times[post.id] = post.posted_at
        if self.tz is None:
            self.tz = self._tz or UTC
        return view

    def _remember_address(self, thread: str, url: str) -> None:
        """Keep the thread's own address (`url` without its page and query), when it is one:
        its last part begins with the thread's id and a dash."""
        parts = urlsplit(url)
        path = re.sub(r"/page\d+/?$", "", parts.path).rstrip("/")
        if path.rsplit("/", 1)[-1].startswith(f"{thread}-"):
            self._thread_urls[thread] = urlunsplit((parts.scheme, parts.netloc, path, "", ""))

    # -- the API -------------------------------------------------------------------------

    async def _token(self) -> str:
        """The session's security token, fetched anew when it is an hour old: vBulletin takes
        one for three hours, and refuses a stale one with an error page (HTTP 500) that cannot
        be told from a board that failed while taking a post."""
        age = (self._clock() - self._token_at).total_seconds() if self._token_at else 0.0
        if self._token_value is not None and age > TOKEN_FRESH:
            self._token_value = None
        if self._token_value is None:
            await self.page("", {PageKind.INDEX, PageKind.TOPIC})
            if self._token_value is None:
                raise LayoutChanged(
                    self.base_url, N_("no security token in the home page's pageData")
                )
        return self._token_value

    async def _post_json(self, path: str, data: Mapping[str, Any]) -> tuple[Any, httpx.Response]:
        """POST to the board; its JSON answer (`_NOT_JSON` when it answered something else)."""
        response = await self.http.post(self.http.url(path), data)
        try:
            return json.loads(response.text), response
        except ValueError:
            return _NOT_JSON, response

    async def call(self, method: str, args: Mapping[str, Any]) -> Any:
        """An API method (`controller/method`) with its arguments by name, as the GM; its
        return. A refused token is fetched fresh once and a lost session logged in again once;
        an error of the API is `NotFound` (no such node, or not the GM's) or `BoardError`."""
        await self.ensure_login()
        path = f"ajax/api/{method}"
        refreshed = False

        async def read(url: str) -> Any:
            nonlocal refreshed
            while True:
                token = await self._token()
                answer, response = await self._post_json(path, {**args, "securitytoken": token})
                if answer is not _NOT_JSON:
                    break
                if refreshed:
                    raise LayoutChanged(
                        redact(str(response.url)),
                        N_("the board answered HTTP {response_status_code}, not JSON").format(
                            response_status_code=response.status_code
                        ),
                    )
                refreshed = True
                await self._refresh()
            errors = vb5.api_errors(answer)
            if not errors:
                return answer
            if self._logged_out(answer, errors):
                return Gone(str(errors[0]), at=str(response.url))
            said = "; ".join(str(e) for e in errors)
            if any(e.phrase in vb5.MISSING_PHRASES for e in errors):
                raise NotFound(
                    N_("{url}: {method}: {said}").format(
                        url=self.base_url, method=method, said=said
                    )
                )
            raise BoardError(
                N_("{url}: {method} refused: {said}").format(
                    url=self.base_url, method=method, said=said
                )
            )

        return await self.as_gm(self.http.url(path), read)

    async def _refresh(self) -> None:
        """The token was refused: the home page's anew (logging in again if it shows a guest)."""
        self._token_value = None
        await self._token()

    @staticmethod
    def _logged_out(answer: Any, errors: list[vb5.ApiError]) -> bool:
        phrases = {e.phrase for e in errors}
        if phrases & vb5.LOGGED_OUT_PHRASES:
            return True
        return vb5.answer_user(answer) == "0" and bool(phrases & vb5.GUEST_REFUSALS)

    def _answer(self, answer: Any, response: httpx.Response, mine: str) -> Said[_Token, int]:
        """What an answer to a submission says (`mine`: the key naming the new node)."""
        if answer is _NOT_JSON:
            # Not the JSON of the call: a page of the board's instead (its exception page, a
            # guest's page); the submission is tried once more with a fresh token.
            return Said(Answer.STALE_FORM, text=f"HTTP {response.status_code}, not JSON")
        errors = vb5.api_errors(answer)
        if not errors:
            node = answer.get(mine) if isinstance(answer, Mapping) else answer
            if isinstance(node, int | str) and str(node).isdigit() and int(node) > 0:
                if isinstance(answer, Mapping) and answer.get("moderateNode"):
                    raise BoardError(
                        N_(
                            "{url}: the post {node} was accepted but waits for a moderator's "
                            "approval (may the GM post without moderation?)"
                        ).format(url=self.base_url, node=node)
                    )
                return Said(Answer.ACCEPTED, int(node))
            raise LayoutChanged(
                self.base_url,
                N_("an answer without the new node: {answer!r:.200}").format(answer=answer),
            )
        said = "; ".join(str(e) for e in errors)
        wait = vb5.flood_wait(errors)
        if wait is not None:
            return Said(Answer.FLOOD, text=said, wait=wait or None)
        if any(e.phrase in vb5.TOKEN_PHRASES for e in errors):
            return Said(Answer.STALE_FORM, text=said)
        if self._logged_out(answer, errors):
            return Said(Answer.LOGGED_OUT, text=said)
        if any(e.phrase == "invalid_pm_recipients" for e in errors):
            raise NotFound(f"{self.base_url}: {said}")
        return Said(Answer.REFUSED, text=said)

    async def _submit(self, path: str, fields: Mapping[str, Any], mine: str) -> int:
        """POST `fields` with the session's token through vBulletin's refusals; the new node."""

        async def fresh() -> _Token:
            self._token_value = None
            return _Token(await self._token())

        async def send(token: _Token) -> Said[_Token, int]:
            answer, response = await self._post_json(path, {**fields, "securitytoken": token.value})
            return self._answer(answer, response, mine)

        return await self.submit(self.http.url(path), fresh, send, form=_Token(await self._token()))

    # -- posting -------------------------------------------------------------------------

    async def reply(self, thread: str, bbcode: str) -> str:
        """Post to the thread; the new post's id once it is seen on the thread."""
        self.begin()
        await self.ensure_login()
        tid = self.topic_id(thread)
        fields = {"parentid": tid, "text": vb5.editor_text(bbcode), "nl2br": "1"}
        post_id = str(await self._submit("create-content/text", fields, "nodeId"))
        fetched = await self.page(f"node/{post_id}", {PageKind.TOPIC})
        view = self._read_thread(fetched)
        if not any(p.id == post_id for p in view.posts) and view.page < view.pages:
            view = await self.thread_page(tid, view.pages)  # the board showed another page
        if view.thread_id != tid:
            raise BoardError(
                N_(
                    "{url}: the reply {post} was accepted but the board shows it on thread "
                    "{shown}, not {thread}"
                ).format(url=redact(fetched.url), post=post_id, shown=view.thread_id, thread=tid)
            )
        return self.posted(view.posts, post_id, fetched.url, tid)

    # -- users ---------------------------------------------------------------------------

    async def find_user(self, name: str) -> User | None:
        """A user by name (any case), through `user/fetchByUsername` (vBulletin keeps names
        HTML-escaped: so is the name asked for)."""
        self.begin()
        wanted = name.strip()
        if not wanted:
            return None
        found = await self.call("user/fetchByUsername", {"username": _escape_name(wanted)})
        if not isinstance(found, Mapping) or not str(found.get("userid", "")).isdigit():
            return None
        shown = vb5.unescape(str(found.get("username", "")))
        if shown.casefold() != wanted.casefold():
            return None
        return User(str(found["userid"]), shown)

    # -- private messages ----------------------------------------------------------------

    async def send_pm(self, recipients: Sequence[str], subject: str, bbcode: str) -> str:
        """Send a PM to each name (one vBulletin does not know is `NotFound`: it would drop
        it silently); its id once the conversation holds it, by the GM."""
        names = [n.strip() for n in recipients if n.strip()]
        if not names:
            raise ValueError("a private message needs at least one recipient")
        for name in names:
            if "," in name:
                raise BoardError(
                    N_("{name!r}: vBulletin 5 cannot address a name with a ','").format(name=name)
                )
        self.begin()
        await self.ensure_login()
        users = await self.recipients(names)
        fields = {
            "data[msgRecipients]": ",".join(u.name for u in users),
            "data[title]": subject,
            "data[rawtext]": vb5.editor_text(bbcode),
            "options[nl2br]": "1",
        }
        await self.ensure_login()
        pm_id = str(await self._submit("ajax/api/content_privatemessage/add", fields, "nodeid"))
        messages = await self._conversation(pm_id)
        me = self._me.id if self._me is not None else None
        if not any(m.get("nodeid") == pm_id and m.get("userid") == me for m in messages):
            raise BoardError(
                N_(
                    "{url}: the PM {subject!r} was accepted as {pm} but is not among the GM's "
                    "messages"
                ).format(url=self.base_url, subject=subject, pm=pm_id)
            )
        log.info("sent PM %s to %s", pm_id, ", ".join(u.name for u in users))
        return pm_id

    async def _conversation(self, nodeid: str) -> list[dict[str, str]]:
        """The messages of the conversation holding `nodeid` (`getMessage`), oldest first,
        each a flat dict of strings."""
        answer = await self.call("content_privatemessage/getMessage", {"nodeid": nodeid})
        if not isinstance(answer, Mapping):
            raise LayoutChanged(
                self.base_url, N_("getMessage answered {answer!r:.100}").format(answer=answer)
            )
        raw = answer.get("messages") or {}
        items = raw.values() if isinstance(raw, Mapping) else raw
        starter = answer.get("message") if isinstance(answer.get("message"), Mapping) else {}
        title = str((starter or {}).get("title") or "")
        out = []
        for item in items if isinstance(items, Collection) else ():
            if not isinstance(item, Mapping) or not str(item.get("nodeid", "")).isdigit():
                continue
            flat = {k: str(v) for k, v in item.items() if isinstance(v, str | int)}
            flat.setdefault("conversation_title", title)
            flat["conversation"] = str((starter or {}).get("nodeid") or nodeid)
            out.append(flat)
        return sorted(out, key=lambda m: int(m["nodeid"]))

    async def _folders(self) -> list[str]:
        answer = await self.call(
            "content_privatemessage/listFolders", {"suppress[]": list(PM_FOLDERS_HIDDEN)}
        )
        if not isinstance(answer, Mapping):
            raise LayoutChanged(
                self.base_url, N_("listFolders answered {answer!r:.100}").format(answer=answer)
            )
        return sorted((str(k) for k in answer if str(k).isdigit()), key=int)

    async def _changed(self, folder: str, since: int) -> list[tuple[str, int]]:
        """(conversation, last activity) of the folder's conversations active at `since`
        or later (listed newest first: the reading stops at the first older one)."""
        found = []
        number = 1
        while True:
            answer = await self.call(
                "content_privatemessage/listMessages",
                {
                    "data[folderid]": folder,
                    "data[pageNum]": str(number),
                    "data[perpage]": str(PM_PAGE),
                },
            )
            rows = list(answer.values()) if isinstance(answer, Mapping) else answer
            if not isinstance(rows, list):
                raise LayoutChanged(
                    self.base_url, N_("listMessages answered {answer!r:.100}").format(answer=answer)
                )
            older = False
            for row in rows:
                if not isinstance(row, Mapping) or not str(row.get("nodeid", "")).isdigit():
                    continue
                when = str(row.get("publishdate", "0"))
                stamp = int(when) if when.isdigit() else 0
                if stamp < since:
                    older = True
                    continue
                found.append((str(row["nodeid"]), stamp))
            if older or len(rows) < PM_PAGE:
                return found
            number += 1

    async def _messages(self, since: Cursor | None, mine: bool) -> PMPage:
        """The GM's messages (`mine`) or those to him, with an id above the cursor's."""
        self.begin()
        await self.ensure_login()
        data = since.data if since is not None else {}
        after = data.get("last_id", 0) if isinstance(data.get("last_id"), int) else 0
        when = data.get("last_time", 0) if isinstance(data.get("last_time"), int) else 0
        me = self._me
        assert me is not None
        active: dict[str, int] = {}
        for folder in await self._folders():
            for conversation, stamp in await self._changed(folder, when):
                active[conversation] = max(stamp, active.get(conversation, 0))
        messages: dict[str, PrivateMessage] = {}
        for conversation in sorted(active, key=int):
            wanted = [
                item
                for item in await self._conversation(conversation)
                if int(item["nodeid"]) > after and (item.get("userid") == me.id) == mine
            ]
            if not wanted:
                continue
            recipients = await self._participants(conversation, me) if mine else (me.name,)
            for item in wanted:
                messages[item["nodeid"]] = self._message(item, recipients)
        items = [messages[k] for k in sorted(messages, key=int)]
        newest = max([after, *(int(k) for k in messages)])
        return PMPage(
            items=items,
            cursor=Cursor({"last_id": newest, "last_time": max([when, *active.values()])}),
        )

    async def _participants(self, conversation: str, me: User) -> tuple[str, ...]:
        answer = await self.call(
            "content_privatemessage/fetchParticipants", {"nodeid": conversation}
        )
        people = answer.values() if isinstance(answer, Mapping) else answer
        names = [
            vb5.unescape(str(p.get("username")))
            for p in (people if isinstance(people, Collection) else ())
            if isinstance(p, Mapping) and p.get("username") and str(p.get("userid")) != me.id
        ]
        return tuple(dict.fromkeys(names))

    def _message(self, item: Mapping[str, str], recipients: tuple[str, ...]) -> PrivateMessage:
        stamp = item.get("publishdate") or item.get("created") or ""
        if not stamp.isdigit():
            raise LayoutChanged(
                self.base_url, N_("PM {value} has no time").format(value=item.get("nodeid"))
            )
        text = vb5.unescape(item.get("rawtext") or item.get("pagetext") or "")
        subject = item.get("title") or item.get("conversation_title") or ""
        return PrivateMessage(
            id=item["nodeid"],
            sender=vb5.unescape(item.get("authorname") or item.get("username") or ""),
            sender_id=item.get("userid"),
            recipients=recipients,
            sent_at=datetime.fromtimestamp(int(stamp), self._tz or UTC),
            subject=vb5.unescape(subject),
            body=parse_bbcode(text),
            url=self.http.url(f"privatemessage/view/{item['conversation']}"),
            raw=text,
        )


class _NotJson:
    def __repr__(self) -> str:
        return "<not JSON>"


_NOT_JSON: Any = _NotJson()


def _escape_name(name: str) -> str:
    """A user name as vBulletin stores it (`htmlspecialchars`)."""
    return (
        name.replace("&", "&amp;").replace('"', "&quot;").replace("<", "&lt;").replace(">", "&gt;")
    )

"""A fake vBulletin 5 board: the real 5.5.2 thread page (as the GM sees it once logged in),
the login pages built from vBulletin 5's own templates, and its AJAX calls answering JSON of
the shape vBulletin's source gives them (fixtures/vbulletin/SOURCES.md)."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any
from urllib.parse import parse_qs

import httpx

from forums.vbulletin.vb5board import Vb5Board
from tests.adapter_helpers import FakeTime
from tests.forums.vbulletin.helpers_vb import FIXTURES, VB5, html, page

MADE5 = FIXTURES / "vbulletin" / "templated5"
BOARD = "https://fandompost.vbulletin.net/"
THREAD = "727744"
CANONICAL = "/forum/anime-manga-discussions/general-anime-discussions/727744-isekai-quartet-discussion-thread"
GM = "Kinematics"
GM_ID = "47030"
PASSWORD = "s3cret-Пароль"
TOKEN = "1733090400-5e0f3c1b8a1d2f7c9e4b6a8d0c2e4f6a8b0d2c4e"
USERS = {
    "kinematics": (GM_ID, GM),
    "shirohige": ("250472", "Shirohige"),
    "b&amp;b": ("31", "B&amp;B"),
}
INBOX, SENT, OWN = "11", "12", "13"


def form(request: httpx.Request) -> dict[str, str]:
    return {k: v[0] for k, v in parse_qs(request.content.decode(), keep_blank_values=True).items()}


def as_member(text: str, token: str = TOKEN) -> str:
    """The real guest page as the GM would be served it: a test-made copy with pageData's
    user and token set (nothing else changes between a guest's page and a member's that
    forumgm reads)."""
    return (
        text.replace('"userid": "0",', f'"userid": "{GM_ID}",', 1)
        .replace('"username": "Guest",', f'"username": "{GM}",', 1)
        .replace('"securitytoken": "guest",', f'"securitytoken": "{token}",', 1)
    )


def _blocks(text: str) -> tuple[str, list[str], str]:
    """The page around its posts, and each post's `<li …>…</li><!-- /end .b-post -->`."""
    end = "<!-- /end .b-post -->"
    first = text.index('<li data-node-id="')
    last = text.rindex(end) + len(end)
    body = text[first:last]
    parts = [p + end for p in body.split(end) if p.strip()]
    return text[:first], [p[p.index("<li data-node-id=") :] for p in parts], text[last:]


def made_post(node: str, author: str, author_id: str, stamp: int, number: int, text: str) -> str:
    """A post of the page: the real post 727754's markup with another id, author, time,
    number and message (test-made)."""
    _, posts, _ = _blocks(page(VB5))
    block = (
        next(p for p in posts if 'data-node-id="727754"' in p)
        .replace("727754", node)
        .replace("1554828939", str(stamp))
        .replace("1712-buckeye", f"{author_id}-{author.lower()}")
        .replace("Buckeye", author)
        .replace(">#2<", f">#{number}<")
    )
    start = block.index('itemprop="text">') + len('itemprop="text">')
    stop = block.index("</div>", start)
    return block[:start] + text + block[stop:]


@dataclass
class Message:
    nodeid: int
    userid: str
    author: str
    text: str
    stamp: int
    title: str = ""


@dataclass
class Vb5Fake:
    """The board's state and its routes; `queue` puts answers before the normal ones."""

    logged_in: bool = False
    logins: int = 0
    old_login: bool = False
    """A board before 5.3: no `/auth/ajax-login`, only the login page's form."""
    token: str = TOKEN
    page2: list[str] = field(default_factory=list)
    next_node: int = 731800
    queued: dict[str, list[Any]] = field(default_factory=dict)
    conversations: dict[int, list[Message]] = field(default_factory=dict)
    folder_of: dict[int, str] = field(default_factory=dict)
    participants: dict[int, list[str]] = field(default_factory=dict)
    now: int = 1733090400

    def __post_init__(self) -> None:
        self.page2.append(
            made_post("731700", "Shirohige", "250472", 1554900000, 16, "Episode 2 thoughts.")
        )

    def queue(self, path: str, *answers: Any) -> None:
        self.queued.setdefault(path, []).extend(answers)

    def node(self) -> int:
        self.next_node += 1
        return self.next_node

    # -- pages -----------------------------------------------------------------------

    def thread(self, number: int) -> str:
        text = page(VB5)
        if self.logged_in:
            text = as_member(text, self.token)
        if number == 1:
            return text
        head, _, tail = _blocks(text)
        head = head.replace(
            'page js-pagenav-current-button js-pagenav-first-button" data-page="1"',
            'js-pagenav-first-button" data-page="1"',
        ).replace(
            'js-pagenav-last-button" data-page="2"',
            'page js-pagenav-current-button js-pagenav-last-button" data-page="2"',
            1,
        )
        return head + "\n".join(self.page2) + tail

    # -- the routes ------------------------------------------------------------------

    def __call__(self, request: httpx.Request) -> httpx.Response | None:
        path = request.url.path
        queued = self.queued.get(path)
        if queued:
            answer = queued.pop(0)
            if answer == "LOGGED_OUT":
                self.logged_in = False
            elif isinstance(answer, httpx.Response):
                return answer
            else:
                return json_answer(answer)
        if request.method == "POST":
            return self.post(request, path)
        if path == "/":
            return html(as_member(page(VB5), self.token) if self.logged_in else page(VB5))
        if path.startswith("/node/"):
            parts = path.split("/")[2:]
            node = parts[0]
            if node == THREAD:
                target = CANONICAL + (f"/{parts[1]}" if len(parts) > 1 else "")
            elif any(f'data-node-id="{node}"' in p for p in self.page2):
                target = f"{CANONICAL}/page2?p={node}"
            else:
                return httpx.Response(404, text="<html><body>Invalid Page URL.</body></html>")
            return httpx.Response(301, headers={"Location": BOARD.rstrip("/") + target})
        if path == CANONICAL:
            return html(self.thread(1))
        if path == CANONICAL + "/page2":
            return html(self.thread(2))
        return None

    def post(self, request: httpx.Request, path: str) -> httpx.Response:
        data = form(request)
        if path == "/auth/ajax-login":
            if self.old_login:
                return html("<html><body>Invalid Page URL.</body></html>", 404)
            self.logins += 1
            if (
                data.get("username", "").casefold() == GM.casefold()
                and data.get("password") == PASSWORD
            ):
                self.logged_in = True
                return json_answer({"success": True, "newtoken": self.token})
            lostpw = BOARD + "lostpw"
            return json_answer({"errors": [["badlogin_strikes_logintypeusername", lostpw, 1]]})
        if path == "/auth/login":
            self.logins += 1
            if (
                data.get("username", "").casefold() == GM.casefold()
                and data.get("password") == PASSWORD
            ):
                self.logged_in = True
                return html(page(MADE5 / "login_redirect.html"))
            return html(page(MADE5 / "login_form_badlogin.html"))
        if not self.logged_in:
            return json_answer({"errors": [["no_create_permissions"]], "userid": 0})
        if data.get("securitytoken") != self.token:
            return httpx.Response(500, text="<html><body>Error</body></html>")
        if path == "/create-content/text":
            node = self.node()
            number = 16 + len(self.page2)
            text = data["text"]
            self.page2.append(made_post(str(node), GM, GM_ID, self.now, number, text))
            return json_answer({"nodeId": node})
        name = path.removeprefix("/ajax/api/")
        handler = API.get(name)
        if handler is None:
            return httpx.Response(404, text="no such call")
        return json_answer(handler(self, data))

    # -- the API, as vBulletin's source answers ------------------------------------------

    def add_message(
        self,
        sender: tuple[str, str],
        text: str,
        title: str = "",
        to: int | None = None,
        recipients: list[str] | None = None,
    ) -> int:
        """A message: a new conversation (`title`, `recipients`), or a reply in `to`."""
        node = self.node()
        self.now += 60
        message = Message(node, sender[0], sender[1], text, self.now, title)
        if to is None:
            self.conversations[node] = [message]
            self.participants[node] = [sender[1], *(recipients or [])]
            self.folder_of[node] = SENT if sender[0] == GM_ID else INBOX
        else:
            self.conversations[to].append(message)
        return node


def json_answer(payload: Any) -> httpx.Response:
    return httpx.Response(
        200, text=json.dumps(payload), headers={"Content-Type": "application/json; charset=UTF-8"}
    )


def _fetch_by_username(fake: Vb5Fake, data: dict[str, str]) -> Any:
    found = USERS.get(data["username"].casefold())
    if found is None:
        return False
    return {"userid": found[0], "username": found[1], "usergroupid": "2"}


def _pm_add(fake: Vb5Fake, data: dict[str, str]) -> Any:
    names = data["data[msgRecipients]"].split(",")
    known = [n for n in names if n.casefold() in USERS]
    if not known:
        return {"errors": [["invalid_pm_recipients"]]}
    return fake.add_message(
        (GM_ID, GM), data["data[rawtext]"], data["data[title]"], recipients=known
    )


def _list_folders(fake: Vb5Fake, data: dict[str, str]) -> Any:
    return {INBOX: "Inbox", SENT: "Sent Items", OWN: "Mafia"}


def _list_messages(fake: Vb5Fake, data: dict[str, str]) -> Any:
    folder = data.get("data[folderid]", INBOX)
    size = int(data.get("data[perpage]", "50"))
    number = int(data.get("data[pageNum]", "1"))
    rows = []
    for node, messages in fake.conversations.items():
        if fake.folder_of[node] != folder:
            continue
        last = messages[-1]
        rows.append(
            {
                "folderid": folder,
                "nodeid": str(node),
                "title": messages[0].title,
                "userid": last.userid,
                "publishdate": str(last.stamp),
                "username": last.author,
                "responses": str(len(messages) - 1),
            }
        )
    rows.sort(key=lambda r: -int(r["publishdate"]))
    chosen = rows[(number - 1) * size : number * size]
    return {r["nodeid"]: r for r in chosen} or []


def _get_message(fake: Vb5Fake, data: dict[str, str]) -> Any:
    node = int(data["nodeid"])
    starter = next(
        (k for k, v in fake.conversations.items() if any(m.nodeid == node for m in v)), None
    )
    if starter is None:
        return {"errors": [["invalid_node_id"]]}
    messages = {
        str(m.nodeid): {
            "nodeid": m.nodeid,
            "userid": m.userid,
            "authorname": m.author,
            "title": m.title,
            "rawtext": m.text,
            "publishdate": m.stamp,
            "starter": i == 0,
        }
        for i, m in enumerate(fake.conversations[starter])
    }
    first = messages[str(starter)]
    return {"message": first, "messages": messages, "otherRecipients": 0, "included": True}


def _participants(fake: Vb5Fake, data: dict[str, str]) -> Any:
    names = fake.participants[int(data["nodeid"])]
    out = {}
    for name in names:
        uid, shown = USERS[name.casefold()]
        out[uid] = {"userid": uid, "username": shown}
    return out


API: dict[str, Callable[[Vb5Fake, dict[str, str]], Any]] = {
    "user/fetchByUsername": _fetch_by_username,
    "content_privatemessage/add": _pm_add,
    "content_privatemessage/listFolders": _list_folders,
    "content_privatemessage/listMessages": _list_messages,
    "content_privatemessage/getMessage": _get_message,
    "content_privatemessage/fetchParticipants": _participants,
}


def vb5_board(
    fake: Vb5Fake | None = None, *, username: str = GM, password: str = PASSWORD, **options: Any
) -> tuple[Vb5Board, Vb5Fake, list[httpx.Request], FakeTime]:
    fake = fake or Vb5Fake()
    sent: list[httpx.Request] = []
    clock = FakeTime(datetime(2024, 12, 1, 22, 0, tzinfo=UTC))

    def transport(request: httpx.Request) -> httpx.Response:
        sent.append(request)
        answer = fake(request)
        if answer is None:
            return httpx.Response(404, text=f"no route for {request.method} {request.url}")
        return answer

    board = Vb5Board(
        BOARD,
        username,
        password,
        client=httpx.AsyncClient(transport=httpx.MockTransport(transport)),
        clock=clock,
        sleep=clock.sleep,
        min_delay=0,
        **options,
    )
    return board, fake, sent, clock

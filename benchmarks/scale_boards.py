"""Fake phpBB 3.3 boards on 127.0.0.1 for the scale benchmark: many topics each, over HTTP.

`python benchmarks/scale_boards.py BOARDS TOPICS POSTS` starts BOARDS boards, each on a
port of its own, each with TOPICS topics of POSTS posts (the real game's posts, one a
minute, the last one two minutes ago), and prints one line of JSON: the boards' base URLs
and their topic ids. It serves until killed. `GET /__stats` answers the board's requests
by kind (topic pages, inbox reads, PM views, logins, replies) as JSON.

Pages are the saved phpBB 3.3.10 pages (`phpbb_server`): a topic page is the saved one with
its posts replaced and its topic id rewritten, the login, index, inbox, PM views and reply
form are the saved pages; a reply adds the GM's post to its topic and answers 302.
"""

from __future__ import annotations

import html
import json
import re
import sys
import threading
from collections import Counter
from datetime import UTC, datetime, timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from phpbb_server import GM, PM_VIEWS, SyntheticPost, _saved, _Template
from synthetic import real_game

from forums.bbcode import parse_bbcode

PER_PAGE = 50
TOPIC_LINK = re.compile(r"([?&;]t=)2\b")


class TopicsBoard:
    """One board: its topics, its inbox (the saved one), the requests it was sent."""

    def __init__(self, base: str, topics: int, posts: int) -> None:
        self.base = base
        self.template = _Template()
        self.topics: dict[str, list[SyntheticPost]] = {}
        self.where: dict[int, str] = {}
        self.lock = threading.Lock()
        self.kinds: Counter[str] = Counter()
        self._next = 1000
        game = real_game()
        now = datetime.now(UTC).replace(second=0, microsecond=0)
        first = now - timedelta(minutes=posts + 2)
        for t in range(topics):
            topic = str(100 + t)
            self.topics[topic] = []
            for n in range(posts):
                author, author_id, content, _ = game[(n + t) % len(game)]
                self._add(
                    topic,
                    SyntheticPost(0, author, author_id, first + n * timedelta(minutes=1), content),
                )
        inbox = _saved("pm_inbox.html")
        rows = re.split(r'(?=<li class="row)', inbox)
        self.inbox = "".join(
            r
            for r in rows
            if not (
                r.startswith('<li class="row')
                and not any(f"p={i}" in r.split("</li>")[0] for i in PM_VIEWS)
            )
        )
        self.reply_form = _saved("posting_reply_form.html")

    def _add(self, topic: str, post: SyntheticPost) -> int:
        number = self._next
        self._next += 1
        self.topics[topic].append(
            SyntheticPost(number, post.author, post.author_id, post.at, post.content)
        )
        self.where[number] = topic
        return number

    def topic_page(self, topic: str, query: dict[str, str]) -> str:
        posts = self.topics[topic]
        pages = max(1, -(-len(posts) // PER_PAGE))
        if "p" in query:
            index = next(i for i, p in enumerate(posts) if str(p.id) == query["p"])
            start = index // PER_PAGE * PER_PAGE
        else:
            start = min(int(query.get("start", 0)), (pages - 1) * PER_PAGE)
        chunk = posts[start : start + PER_PAGE]
        page = self.template.render(chunk, start // PER_PAGE + 1, pages, len(posts))
        return TOPIC_LINK.sub(rf"\g<1>{topic}", page)

    def answer(self, method: str, target: str, body: bytes) -> tuple[int, dict[str, str], str]:
        parts = urlsplit(target)
        path = parts.path.lstrip("/")
        query = dict(parse_qsl(parts.query))
        query.pop("sid", None)
        with self.lock:
            if path == "__stats":
                return 200, {"Content-Type": "application/json"}, json.dumps(self.kinds)
            if path == "viewtopic.php":
                topic = query.get("t") or self.where.get(int(query.get("p", "0")), "")
                if topic not in self.topics:
                    return 404, {}, "<html><body>no such topic</body></html>"
                self.kinds["topic page"] += 1
                return 200, {}, self.topic_page(topic, query)
            if path == "ucp.php" and query.get("mode") == "login":
                self.kinds["login"] += 1
                if method == "POST":
                    return 302, {"Location": f"{self.base}index.php"}, ""
                return 200, {}, _saved("login_page.html")
            if path == "index.php":
                self.kinds["index"] += 1
                return 200, {}, _saved("index.html")
            if path == "ucp.php" and query.get("folder") == "inbox":
                self.kinds["inbox"] += 1
                return 200, {}, self.inbox
            if path == "ucp.php" and query.get("mode") == "view" and query.get("p") in PM_VIEWS:
                self.kinds["pm view"] += 1
                return 200, {}, _saved(f"pm_view_{PM_VIEWS[query['p']]}.html")
            if path == "posting.php" and query.get("mode") == "reply":
                topic = query.get("t", "")
                if topic not in self.topics:
                    return 404, {}, "<html><body>no such topic</body></html>"
                if method == "GET":
                    self.kinds["reply form"] += 1
                    return 200, {}, TOPIC_LINK.sub(rf"\g<1>{topic}", self.reply_form)
                self.kinds["reply"] += 1
                form = dict(parse_qsl(body.decode("utf-8"), keep_blank_values=True))
                text = html.escape(parse_bbcode(form.get("message", "")).full_text())
                at = datetime.now(UTC)
                new = self._add(topic, SyntheticPost(0, GM, "58", at, text.replace("\n", "<br>\n")))
                return 302, {"Location": f"{self.base}viewtopic.php?p={new}#p{new}"}, ""
            self.kinds["other"] += 1
            return 404, {}, f"<html><body>nothing at {html.escape(target)}</body></html>"


def handler(board: TopicsBoard) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def _serve(self, method: str) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length else b""
            status, headers, text = board.answer(method, self.path, body)
            data = text.encode("utf-8")
            self.send_response(status)
            self.send_header(
                "Content-Type", headers.pop("Content-Type", "text/html; charset=UTF-8")
            )
            for name, value in headers.items():
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self) -> None:
            self._serve("GET")

        def do_POST(self) -> None:
            self._serve("POST")

        def log_message(self, *_args: Any) -> None:
            return None

    return Handler


class Server(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A client gone mid-request (the benchmark kills `run` with SIGKILL): not news."""


def main(argv: list[str]) -> None:
    boards, topics, posts = (int(a) for a in argv[:3])
    servers = []
    for _ in range(boards):
        server = Server(("127.0.0.1", 0), BaseHTTPRequestHandler)
        base = f"http://127.0.0.1:{server.server_address[1]}/"
        board = TopicsBoard(base, topics, posts)
        server.RequestHandlerClass = handler(board)
        servers.append((server, board))
    print(
        json.dumps({"boards": [{"url": b.base, "topics": list(b.topics)} for _, b in servers]}),
        flush=True,
    )
    threads = [threading.Thread(target=s.serve_forever, daemon=True) for s, _ in servers]
    for thread in threads:
        thread.start()
    threading.Event().wait()


if __name__ == "__main__":
    main(sys.argv[1:])

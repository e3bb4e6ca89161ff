"""The people of a live board: each a real account, acting through the board's own pages.

A `Member` is forumgm's adapter for the board logged in as that user (the same code that
reads and posts for the GM, now for a player): it posts, sends PMs and reads its inbox and
the thread as that user sees them. What the adapter has no verb for (opening a topic,
editing or deleting one's post) goes through the board's own forms with the adapter's
session.
"""

from __future__ import annotations

import asyncio
import html
import re
from collections.abc import Coroutine, Sequence
from typing import Any, TypeVar

from forums.board import board_factory
from forums.errors import BoardError
from forums.fluxbb.board import FluxbbBoard
from forums.mybb import forms as mybb_forms
from forums.mybb import posting as mybb_posting
from forums.mybb.board import MybbBoard
from forums.phpbb import forms as phpbb_forms
from forums.phpbb.board import PhpbbBoard
from forums.records import Post, PrivateMessage
from forums.smf import pages as smf_pages
from forums.smf.board import SmfBoard
from tests.live.boards import LiveBoard, password_of

T = TypeVar("T")


class Member:
    """`name`'s account on `board`, with its own adapter and event loop."""

    def __init__(self, board: LiveBoard, name: str, password: str | None = None) -> None:
        self.board = board
        self.name = name
        factory = board_factory(board.engine)
        self.adapter: Any = factory(
            board.url, name, password or password_of(name), allow_insecure_http=True
        )
        self._loop = asyncio.new_event_loop()

    def run(self, work: Coroutine[Any, Any, T]) -> T:
        return self._loop.run_until_complete(work)

    def close(self) -> None:
        self.run(self.adapter.close())
        self._loop.close()

    # -- what the adapter does ------------------------------------------------------------

    def post(self, thread: str, text: str) -> str:
        post_id: str = self.run(self.adapter.reply(thread, text))
        return post_id

    def pm(self, to: Sequence[str], subject: str, text: str) -> str:
        pm_id: str = self.run(self.adapter.send_pm(list(to), subject, text))
        return pm_id

    def inbox(self) -> list[PrivateMessage]:
        return list(self.run(self.adapter.inbox()).items)

    def thread(self, thread: str) -> list[Post]:
        return list(self.run(self.adapter.thread_posts(thread)).items)

    # -- the board's own forms ------------------------------------------------------------

    def open_topic(self, title: str, text: str) -> str:
        """A new topic in the board's game forum; its id."""
        return self.run(self._open_topic(title, text))

    def edit(self, post_id: str, text: str) -> None:
        self.run(self._edit(post_id, text))

    def delete(self, post_id: str) -> None:
        self.run(self._delete(post_id))

    async def _open_topic(self, title: str, text: str) -> str:
        adapter = self.adapter
        await adapter.ensure_login()
        if isinstance(adapter, FluxbbBoard):
            values = {"req_subject": title, "req_message": text, "submit": "Submit"}
            target = await adapter.send_form(
                "post.php", {"fid": self.board.forum}, "req_subject", values
            )
            pid = mybb_forms.query_param(target, "pid")
            [row] = self.board.rows("SELECT topic_id FROM posts WHERE id = ?", int(pid or 0))
            return str(row[0])
        if isinstance(adapter, SmfBoard):
            form = await adapter._form({"action": "post", "board": f"{self.board.forum}.0"})
            answer = await adapter.http.post(
                form.action, form.data(subject=title, message=text, goback="1")
            )
            topic = smf_pages.params(answer.headers.get("Location", "")).get("topic", "")
            if not answer.is_redirect or not topic.partition(".")[0].isdigit():
                raise BoardError(
                    f"new topic: {answer.status_code} {smf_pages.message(answer.text)}"
                )
            return topic.partition(".")[0]
        if isinstance(adapter, PhpbbBoard):
            response = await adapter._submit(
                "posting.php",
                {"mode": "post", "f": self.board.forum},
                lambda form: form.data(subject=title, message=text, post="Submit"),
            )
            location = response.headers.get("Location", "")
            topic = mybb_forms.query_param(location, "t")
            if topic is not None:
                return topic
            post_id = phpbb_forms.post_id_from_location(location)
            [row] = self.board.rows("SELECT topic_id FROM phpbb_posts WHERE post_id = ?", post_id)
            return str(row[0])
        assert isinstance(adapter, MybbBoard)
        target, _ = await mybb_posting.submit(
            adapter,
            "newthread.php",
            {"fid": self.board.forum},
            lambda form: form.data(subject=title, message=text, submit="Post Thread"),
        )
        tid = mybb_forms.query_param(target, "tid")
        if tid is None:
            pid = mybb_forms.post_id_from(target)
            [row] = self.board.rows("SELECT tid FROM mybb_posts WHERE pid = ?", pid)
            return str(row[0])
        return tid

    async def _edit(self, post_id: str, text: str) -> None:
        adapter = self.adapter
        await adapter.ensure_login()
        if isinstance(adapter, FluxbbBoard):
            values = {"req_message": text, "submit": "Submit"}
            await adapter.send_form("edit.php", {"id": post_id}, "req_message", values)
            return
        if isinstance(adapter, SmfBoard):
            topic = self._smf_topic(post_id)
            form = await adapter._form({"action": "post", "msg": post_id, "topic": f"{topic}.0"})
            answer = await adapter.http.post(form.action, form.data(message=text))
            if not answer.is_redirect:
                raise BoardError(f"edit {post_id}: {smf_pages.message(answer.text)}")
            return
        if isinstance(adapter, PhpbbBoard):
            await adapter._submit(
                "posting.php",
                {"mode": "edit", "p": post_id},
                lambda form: form.data(
                    subject=form.texts.get("subject", ""), message=text, post="Submit"
                ),
            )
            return
        assert isinstance(adapter, MybbBoard)
        await mybb_posting.submit(
            adapter,
            "editpost.php",
            {"pid": post_id},
            lambda form: form.data(message=text, submit="Update Post", action="do_editpost"),
        )

    def _smf_topic(self, post_id: str) -> str:
        [row] = self.board.rows("SELECT id_topic FROM smf_messages WHERE id_msg = ?", int(post_id))
        return str(row[0])

    async def _delete(self, post_id: str) -> None:
        adapter = self.adapter
        await adapter.ensure_login()
        if isinstance(adapter, FluxbbBoard):
            page = adapter.http.url("delete.php", {"id": post_id})
            await adapter.http.get(page)
            answer = await adapter.http.post(page, {"delete": "Delete"}, headers={"Referer": page})
            if "#punredirect" not in answer.text and 'id="punredirect"' not in answer.text:
                raise BoardError(f"delete {post_id}: {answer.status_code} {answer.text[-500:]}")
            return
        if isinstance(adapter, SmfBoard):
            # The post's "Remove" link carries the session's token (`smf_session_var`).
            topic = self._smf_topic(post_id)
            page = await adapter.http.get(adapter.http.url("index.php", {"topic": f"{topic}.0"}))
            found = re.search(
                rf'href="([^"]*action=deletemsg;topic={topic}\.\d+;msg={post_id};[^"]+)"', page.text
            )
            if found is None:
                raise BoardError(f"delete {post_id}: no Remove link on the thread's page")
            answer = await adapter.http.get(html.unescape(found.group(1)))
            if answer.status_code >= 400:
                raise BoardError(f"delete {post_id}: {answer.status_code}")
            return
        if isinstance(adapter, PhpbbBoard):
            url = adapter.http.url("posting.php", {"mode": "delete", "p": post_id})
            page = await adapter.http.get(url)
            form = phpbb_forms.parse_form(page.text, str(page.url), "form#confirm")
            await adapter.http.sleep(1.0)
            answer = await adapter.http.post(form.action, form.data(confirm="Да"))
            if answer.status_code >= 400:
                raise BoardError(f"delete {post_id}: {answer.status_code}")
            return
        assert isinstance(adapter, MybbBoard)
        form_page = await adapter.http.get(adapter.http.url("editpost.php", {"pid": post_id}))
        form = mybb_forms.read_form(form_page.text, str(form_page.url), "form[name='input']")
        data = {
            "my_post_key": form.post_key or "",
            "action": "deletepost",
            "delete": "1",
            "pid": post_id,
        }
        answer = await adapter.http.post(adapter.http.url("editpost.php"), data)
        if answer.status_code >= 400:
            raise BoardError(f"delete {post_id}: {answer.status_code}")

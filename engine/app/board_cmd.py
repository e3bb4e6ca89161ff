"""`forumgm board check`: log in to a real board as the GM and show what forumgm can read."""

from __future__ import annotations

import asyncio
from datetime import datetime
from typing import Annotated, Any

import typer
from rich.console import Console

import forums.local
import forums.phpbb  # noqa: F401  (registers the "phpbb" engine)
from engine.app.board_options import (
    DEFAULT_PASSWORD_ENV,
    BoardMaker,
    Engine,
    Insecure,
    PasswordEnv,
    Url,
    User,
    open_board,
)
from forums import Board, BoardError

app = typer.Typer(help="Check a board connection.", no_args_is_help=True)

make_board: BoardMaker | None = None
"""Tests set this to build the board over a mocked client; None uses the engine registry."""


def _snippet(text: str, limit: int = 160) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def _when(moment: datetime) -> str:
    return moment.isoformat(sep=" ", timespec="minutes")


async def _check(board: Board, thread: str, post_test: bool, out: Console) -> None:
    try:
        me = await board.login()
        out.print(f"Logged in as {me.name} (user id {me.id or '?'})")
        first = await _first_page(board, thread)
        tz = getattr(board, "tz", None)
        out.print(f"Time zone: {tz if tz is not None else 'not detected'}")
        out.print(
            f"Thread {thread}: {first['title']!r}, {first['total']} posts on {first['pages']} "
            f"page(s), {first['per_page']} per page"
        )
        out.print(f"  first page: {first['count']} posts")
        last_page = first["last"]
        out.print(f"  last page ({last_page.page}): {len(last_page.posts)} posts")
        last = last_page.posts[-1]
        out.print(
            f"  last post: #{last.number} (id {last.id}) by {last.author} at {_when(last.posted_at)}"
            + (" [deleted]" if last.deleted else "")
        )
        out.print(f"    {_snippet(last.body.full_text())}")
        inbox = await board.inbox()
        out.print(f"Inbox: {len(inbox.items)} private messages")
        if inbox.items:
            pm = inbox.items[-1]
            out.print(f"  newest: {pm.subject!r} from {pm.sender} at {_when(pm.sent_at)}")
        if post_test:
            post_id = await board.reply(thread, "forumgm board check: test post.")
            out.print(f"Test post: id {post_id}")
        else:
            out.print("Posted nothing (add --post-test to post a test reply).")
    finally:
        await board.close()


async def _first_page(board: Board, thread: str) -> dict[str, Any]:
    """First and last page of the thread: the adapter's page reader when it has one."""
    topic_page = getattr(board, "topic_page", None)
    topic_id = getattr(board, "topic_id", None)
    if topic_page is None or topic_id is None:
        raise BoardError(f"the {board.engine} adapter cannot read single pages of a thread")
    tid = topic_id(thread)
    first = await topic_page(tid, 0)
    last = first if first.pages <= 1 else await topic_page(tid, (first.pages - 1) * first.per_page)
    return {
        "title": first.title,
        "total": first.total_posts if first.total_posts is not None else "?",
        "pages": first.pages,
        "per_page": first.per_page,
        "count": len(first.posts),
        "last": last,
    }


@app.command("check")
def check(
    url: Url,
    user: User,
    thread: Annotated[str, typer.Option("--thread", help="The game thread (topic id).")],
    engine: Engine = "phpbb",
    password_env: PasswordEnv = DEFAULT_PASSWORD_ENV,
    post_test: Annotated[
        bool, typer.Option("--post-test", help="Also post a test reply to the thread.")
    ] = False,
    allow_insecure_http: Insecure = False,
) -> None:
    """Log in, read the first and last page of the thread and the inbox; post nothing
    unless --post-test."""
    out = Console(highlight=False, soft_wrap=True)

    def fail(message: str) -> typer.Exit:
        out.print(message[0].upper() + message[1:] + ".")
        return typer.Exit(2)

    board = open_board(
        engine, url, user, password_env, make_board, fail, allow_insecure_http=allow_insecure_http
    )
    out.print(f"Checking {engine} board {url} as {user}")
    try:
        asyncio.run(_check(board, thread, post_test, out))
    except BoardError as exc:
        out.print(f"[bold red]{type(exc).__name__}[/]: {exc}")
        raise typer.Exit(1) from None

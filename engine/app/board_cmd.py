"""`forumgm board check`: log in to a real board as the GM and show what forumgm can read.

Without `--engine` the board's engine is found first from the markup of the URL's page,
fetched over the adapters' pinned HTTP client with no credentials (forums.detect)."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Annotated, Any

import httpx
import typer
from rich.console import Console

import forums.local
import forums.phpbb  # noqa: F401  (registers the "phpbb" engine)
from engine.app.board_options import (
    DEFAULT_PASSWORD_ENV,
    ApiKeyEnv,
    ApiKeyKind,
    BoardMaker,
    Browser,
    Insecure,
    PasswordEnv,
    Timeout,
    User,
    open_board,
    url_refused,
)
from engine.app.console import console
from engine.app.local_board_cmd import app as local_app
from engine.app.saved_pages import PageRecorder, http_clients
from engine.i18n import _, board_text, error_line, ngettext, shown
from forums import Board, BoardError
from forums.client import DEADLINE, BoardClient
from forums.detect import Detection, detect_engine
from forums.records import User as BoardUser

app = typer.Typer(
    help="Check a board connection; create and use the local rehearsal board.",
    no_args_is_help=True,
)
app.add_typer(local_app, name="local")

make_board: BoardMaker | None = None
"""Tests set this to build the board over a mocked client; None uses the engine registry."""
detect_client: Callable[[], httpx.AsyncClient] | None = None
"""Tests set this to fetch the page engine detection reads over a mocked client."""

UrlArg = Annotated[
    str | None,
    typer.Argument(help="The board's URL (or --url).", show_default=False, metavar="[URL]"),
]
UrlOption = Annotated[str | None, typer.Option("--url", help="The board's base URL.")]
EngineOption = Annotated[
    str | None,
    typer.Option(
        "--engine", help="Board engine (phpbb, mybb, …); found from the page if not given."
    ),
]


async def detect(
    url: str,
    *,
    allow_insecure_http: bool,
    recorder: PageRecorder | None = None,
    deadline: float | None = None,
) -> Detection:
    """The engine of the board at `url`, from its page's markup; nothing but a GET is sent."""
    http = BoardClient(
        url,
        client=detect_client() if detect_client is not None else None,
        allow_insecure_http=allow_insecure_http,
        max_tries=2,
        deadline=deadline if deadline is not None else DEADLINE,
    )
    try:
        response = await http.get(url)
    finally:
        await http.aclose()
    if recorder is not None:
        recorder.save(str(response.url), response.status_code, response.headers, response.text)
    return detect_engine(response.text, response.headers.get("Content-Type", ""))


def _snippet(text: str, limit: int = 160) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def _when(moment: datetime) -> str:
    return moment.isoformat(sep=" ", timespec="minutes")


# The English of these counts stays as `board check` always printed it («1 posts», «1
# page(s)»: hosts' notes and scripts read it); Russian has its three forms.


def _posts(n: int | str) -> str:
    """«12 posts» («?» when the board does not say)."""
    if not isinstance(n, int):
        return _("{n} posts").format(n=n)
    return ngettext("{n} posts", "{n} posts", n).format(n=n)


def _pages(n: int) -> str:
    return ngettext("{n} page(s)", "{n} page(s)", n).format(n=n)


async def _check(board: Board, thread: str, post_test: bool, out: Console) -> None:
    try:
        me = await board.login()
        out.print(_("Logged in as {name} (user id {id})").format(name=me.name, id=me.id or "?"))
        first = await _first_page(board, thread)
        tz = getattr(board, "tz", None)
        out.print(_("Time zone: {zone}").format(zone=tz if tz is not None else _("not detected")))
        out.print(_("Times: {how}").format(how=times_read(board)))
        out.print(
            _("Thread {thread}: {title}, {posts} on {pages}, {per_page} per page").format(
                thread=thread,
                title=repr(first["title"]),
                posts=_posts(first["total"]),
                pages=_pages(first["pages"]),
                per_page=first["per_page"],
            )
        )
        out.print(_("  first page: {posts}").format(posts=_posts(first["count"])))
        last_page = first["last"]
        out.print(
            _("  last page ({page}): {posts}").format(
                page=last_page.page, posts=_posts(len(last_page.posts))
            )
        )
        last = last_page.posts[-1]
        out.print(
            _("  last post: #{number} (id {id}) by {author} at {at}").format(
                number=last.number, id=last.id, author=last.author, at=_when(last.posted_at)
            )
            + (_(" [deleted]") if last.deleted else "")
        )
        out.print(f"    {_snippet(last.body.full_text())}")
        inbox = await board.inbox()
        if getattr(board, "private_messages", True) is False:
            out.print(
                _(
                    "Inbox: none — {engine} has no private messages; a game there is "
                    "played in the open thread (votecount with thread votes)"
                ).format(engine=board.engine)
            )
        else:
            count = len(inbox.items)
            out.print(
                ngettext(
                    "Inbox: {n} private messages", "Inbox: {n} private messages", count
                ).format(n=count)
            )
        if inbox.items:
            pm = inbox.items[-1]
            out.print(
                _("  newest: {subject} from {sender} at {at}").format(
                    subject=repr(pm.subject), sender=pm.sender, at=_when(pm.sent_at)
                )
            )
        if post_test:
            post_id = await board.reply(thread, "forumgm board check: test post.")
            out.print(_("Test post: id {id}").format(id=post_id))
        else:
            out.print(_("Posted nothing (add --post-test to post a test reply)."))
        for note in (*engine_notes(board.engine), *account_notes(board)):
            out.print(note)
    finally:
        await board.close()


def account_notes(board: Board) -> tuple[str, ...]:
    """What the board said of the GM account at login that decides a game there (Discourse:
    whether it may send personal messages, and the limits staff are spared)."""
    account = getattr(board, "account", None)
    if board.engine != "discourse" or account is None:
        return ()
    notes = []
    level = account.trust_level
    if account.can_send_pms is False:
        notes.append(
            _(
                "Discourse does not let the GM account send personal messages (trust level "
                "{level}; the site setting «personal message enabled groups»): a game with "
                "role PMs cannot start until an administrator allows it (trust level 1 on a "
                "stock forum, or staff)."
            ).format(level=level if level is not None else "?")
        )
    if account.staff is False:
        notes.append(
            _(
                "The GM account is not staff: Discourse lets it send «max personal messages "
                "per day» (20 on a stock forum) and holds a new account's posts back; a game's "
                "start can be more. Ask an administrator to make it a moderator or to raise "
                "the setting; otherwise forumgm keeps what waits and tells you."
            )
        )
    return tuple(notes)


def engine_notes(engine: str) -> tuple[str, ...]:
    """What `board check` tells the host about an engine's settings the GM account cannot
    see (in the host's language, so made when asked)."""
    if engine == "fluxbb":
        return (
            _(
                "FluxBB makes a member wait between posts (the group's «Flood interval», 60 s "
                "for Members by default): the bot waits as the board says. Moderators and "
                "administrators are not held back: ask the admin to make the GM account a "
                "moderator of the game's forum, or to lower the interval (Administration → "
                "User groups → Members)."
            ),
            _(
                "FluxBB has no private messages: forumgm runs only games played in the open "
                "thread there (votecount with thread votes; no receipts, no role PMs)."
            ),
        )
    if engine == "punbb":
        return (
            _(
                "PunBB makes a member wait between posts (the group's «Post flood interval», "
                "60 s for Members by default): the bot waits as the board says. Moderators and "
                "administrators are not held back: ask the admin to make the GM account a "
                "moderator of the game's forum, or to lower the interval (Administration → "
                "Users → Groups → Members)."
            ),
            _(
                "PunBB has no private messages (the pun_pm extension adds its own, which "
                "forumgm does not read): forumgm runs only games played in the open thread "
                "there (votecount with thread votes; no receipts, no role PMs)."
            ),
        )
    if engine == "mybb":
        return (
            _(
                "MyBB appends a user's new post to his previous one within «Post Merge Time» "
                "(60 minutes by default): ask the board's admin to put the GM's group in «Merge "
                "User Groups to Ignore» (Admin CP → Configuration → Posting), or results land "
                "inside the bot's previous post."
            ),
            _(
                "MyBB makes a user wait between posts and between PMs («Post Flood Time», "
                "«Private Message Flood Time»): the bot waits as the board says, so twenty role "
                "PMs can take twenty minutes. A moderator is not held back: ask the admin to "
                "make the GM account a moderator of the game's forum, or to lower those times "
                "(Admin CP → Configuration)."
            ),
        )
    if engine == "vbulletin":
        return (
            _(
                "vBulletin makes a member wait between posts («Minimum Time Between Posts», 30 s "
                "by default) and between PMs («Floodcheck - Minimum Time Between Messages»): the "
                "bot waits as the board says. A moderator of the game's forum is not held back "
                "for posts, nor any moderator or administrator for PMs: ask the admin to make "
                "the GM account one."
            ),
            _(
                "vBulletin finds each PM the bot sent in its Sent Items: the GM account must be "
                "allowed to keep copies of sent messages, with room in its PM quota."
            ),
        )
    if engine == "vbulletin5":
        return (
            _(
                "vBulletin 5 makes a member wait between posts and between PMs (the AdminCP "
                "options floodchecktime and pm_floodchecktime): the bot waits as the board says. "
                "Ask the admin to exempt the GM account (a moderator or administrator is not "
                "held back)."
            ),
            _(
                "vBulletin 5's login, replies and PMs are built from vBulletin's source, not yet "
                "tried on a live vBulletin 5 board: run this check with --post-test once, and "
                "watch the first night's PMs (docs/research/vbulletin5.md)."
            ),
        )
    return ()


def times_read(board: Board) -> str:
    """Which way the adapter reads the times of the pages: the board's own format (with the
    language and zone it found), or the GM account's own format it set."""
    said = getattr(board, "times_read", None)
    if callable(said):
        return board_text(str(said()))
    if board.engine == "xenforo":
        return _(
            "XenForo's own time stamps (<time data-time>, seconds since 1970): XenForo has no "
            "date format of an account's own to set"
        )
    if board.engine == "local":
        return _("the local board's own (it keeps times as they are)")
    return _("the board's own format")


async def _first_page(board: Board, thread: str) -> dict[str, Any]:
    """First and last page of the thread: the adapter's page reader when it has one."""
    topic_page = getattr(board, "topic_page", None)
    topic_id = getattr(board, "topic_id", None)
    if topic_page is None or topic_id is None:
        raise BoardError(
            _("the {engine} adapter cannot read single pages of a thread").format(
                engine=board.engine
            )
        )
    tid = topic_id(thread)
    first = await topic_page(tid, 0)
    last = first if first.pages <= 1 else await topic_page(tid, (first.pages - 1) * first.per_page)
    return {
        "title": first.title,
        # MyBB counts posts only on the last page.
        "total": next((t for t in (first.total_posts, last.total_posts) if t is not None), "?"),
        "pages": first.pages,
        "per_page": first.per_page,
        "count": len(first.posts),
        "last": last,
    }


@app.command("check")
def check(
    board_url: UrlArg = None,
    url: UrlOption = None,
    user: User = "",
    thread: Annotated[str, typer.Option("--thread", help="The game thread (id or URL).")] = "",
    engine: EngineOption = None,
    password_env: PasswordEnv = DEFAULT_PASSWORD_ENV,
    post_test: Annotated[
        bool, typer.Option("--post-test", help="Also post a test reply to the thread.")
    ] = False,
    allow_insecure_http: Insecure = False,
    browser: Browser = False,
    api_key_env: ApiKeyEnv = None,
    api_key_kind: ApiKeyKind = None,
    save_pages: Annotated[
        Path | None,
        typer.Option(
            "--save-pages",
            help="Save every page read into this folder (the GM's name and session ids "
            "removed), to send with a bug report.",
        ),
    ] = None,
    timeout: Timeout = None,
    set_date_format: Annotated[
        bool,
        typer.Option(
            "--set-date-format",
            help="Let the adapter set the GM account's own date format to an unambiguous one "
            "(phpBB, MyBB), as [board] set_date_format = true does.",
        ),
    ] = False,
) -> None:
    """Log in, read the first and last page of the thread and the inbox; post nothing
    unless --post-test. Without --engine the engine is found from the board's page first.
    With --api-key-env (XenForo) the REST API is checked with that key instead of the pages.
    With --save-pages DIR the pages read are kept for a bug report."""
    out = console()
    recorder = PageRecorder(save_pages, [user]) if save_pages is not None else None

    def saved() -> None:
        if recorder is not None and recorder.count:
            out.print(
                ngettext(
                    "Saved {n} page(s) to {folder} (the GM's name and every session id and form "
                    "token removed; index.txt lists them)",
                    "Saved {n} page(s) to {folder} (the GM's name and every session id and form "
                    "token removed; index.txt lists them)",
                    recorder.count,
                ).format(n=recorder.count, folder=save_pages)
            )

    def fail(message: str) -> typer.Exit:
        # A sentence starts with a capital, but not an address («http://…», kept as typed).
        first = message.split(maxsplit=1)[0] if message.strip() else ""
        if "://" not in first:
            message = message[:1].upper() + message[1:]
        out.print(message + ("" if message.endswith(".") else "."))
        return typer.Exit(2)

    if board_url and url and board_url != url:
        raise fail(
            _("two board URLs given ({first} and --url {second}): give one").format(
                first=board_url, second=url
            )
        )
    target = board_url or url
    missing = [
        flag
        for flag, value in (("URL", target), ("--user", user), ("--thread", thread))
        if not value
    ]
    if missing:
        raise fail(
            _(
                "board check needs {missing}: forumgm board check URL --user NAME --thread ID"
            ).format(missing=", ".join(missing))
        )
    assert target is not None
    refused = url_refused(engine, target, allow_insecure_http)
    if refused:
        raise fail(refused)
    if not os.environ.get(password_env) and api_key_env is None:
        raise fail(
            _("set the GM's password in the environment variable {variable}").format(
                variable=password_env
            )
        )
    if engine is None:
        try:
            found = asyncio.run(
                detect(
                    target,
                    allow_insecure_http=allow_insecure_http,
                    recorder=recorder,
                    deadline=timeout,
                )
            )
        except BoardError as exc:
            out.print(
                _("{error}: cannot read {url} to find its engine: {why}").format(
                    error=type(exc).__name__, url=target, why=board_text(str(exc))
                ),
                style="bold red",
            )
            raise typer.Exit(1) from None
        if found.engine is None:
            out.print(f"{target}: {board_text(found.describe())}.")
            saved()
            raise typer.Exit(2)
        out.print(_("Detected {what}").format(what=board_text(found.describe())))
        engine = found.engine
    board = open_board(
        engine,
        target,
        user,
        password_env,
        make_board,
        fail,
        allow_insecure_http=allow_insecure_http,
        browser=browser,
        api_key_env=api_key_env,
        api_key_kind=api_key_kind,
        deadline=timeout,
        set_date_format=set_date_format,
    )
    how = _(" over its REST API") if api_key_env is not None else ""
    if api_key_kind == "user":
        how = _(" over its API with a user API key")
    if recorder is not None:
        for client in http_clients(board):
            recorder.attach(client)
    out.print(
        _("Checking {engine} board {url}{how} as {user}").format(
            engine=engine, url=target, how=how, user=user
        )
    )
    try:
        asyncio.run(_check(board, thread, post_test, out))
    except BoardError as exc:
        out.print(shown(error_line(exc)), style="bold red")
        saved()
        raise typer.Exit(1) from None
    saved()


@app.command("login")
def login(
    game: Annotated[
        Path, typer.Argument(help="The game file whose board and GM account to log in.")
    ],
    db: Annotated[
        str | None,
        typer.Option(
            "--db", help="Store URL (default: FORUMGM_DATABASE_URL or sqlite:///forumgm.db)."
        ),
    ] = None,
) -> None:
    """Log in once now as the game's GM: after the board refused a login, forumgm logs in
    there no more on its own until this goes through (or the password changes)."""
    from engine.app.service_cmd import driver_for

    out = console()
    driver = driver_for(game, db)
    guard = driver.login_guard
    assert guard is not None  # driver_for builds the board with its guard
    url = driver.config.url

    async def once() -> BoardUser:
        try:
            return await guard.login_now()
        finally:
            await driver.board.close()

    try:
        me = asyncio.run(once())
    except BoardError as exc:
        out.print(shown(error_line(exc)), style="bold red")
        out.print(
            _(
                "forumgm still logs in to {url} no more on its own: fix the password, then "
                "try again."
            ).format(url=url)
        )
        raise typer.Exit(1) from None
    out.print(
        _("Logged in to {url} as {name}: forumgm logs in there on its own again.").format(
            url=url, name=me.name
        )
    )


@app.command("discourse-key")
def discourse_key(
    board_url: Annotated[
        str, typer.Argument(help="The Discourse forum's address.", show_default=False)
    ],
    allow_insecure_http: Insecure = False,
) -> None:
    """Get a Discourse user API key for the GM account: open the page this prints while
    logged in as the GM, approve, and paste here what Discourse then shows. Nothing is sent
    from here: the key comes back encrypted for this command alone."""
    import secrets
    import sys

    from forums.discourse.userkey import KeyPair, UserKeyError, key_request_url, read_payload

    out = console()
    refused = url_refused("discourse", board_url, allow_insecure_http)
    if refused:
        out.print(refused)
        raise typer.Exit(2)
    out.print(_("Making a key pair for this request (a few seconds)…"))
    keys = KeyPair.generate()
    nonce = secrets.token_hex(16)
    client_id = f"forumgm-{secrets.token_hex(8)}"
    out.print(
        _(
            "1. Log in to the forum as the GM account, then open this address (one line) and "
            'approve "forumgm" (it asks for the scope write, which reads too):'
        )
    )
    print(key_request_url(board_url, keys, nonce, client_id))
    out.print(
        _("2. Discourse then shows a block of text: paste it here and end with an empty line.")
    )
    lines: list[str] = []
    for line in sys.stdin:
        if not line.strip():
            if lines:
                break
            continue
        lines.append(line)
    try:
        key = read_payload("".join(lines), keys, nonce)
    except UserKeyError as exc:
        out.print(_("That is not Discourse's answer to this request: {why}.").format(why=exc))
        raise typer.Exit(1) from None
    out.print(_("The GM account's user API key (keep it secret, like a password):"))
    print(key)
    out.print(
        _(
            "Put it in an environment variable (e.g. DISCOURSE_KEY) and in the game file's "
            '[board]: api_key = "env:DISCOURSE_KEY" and api_key_kind = "user". The account '
            "can revoke it in its Preferences → Security → Apps."
        )
    )

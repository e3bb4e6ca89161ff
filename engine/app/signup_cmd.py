"""`forumgm signup`: the sign-up thread of a game file — read it, show and post the list,
approve or refuse joins, close it and write `[players]`."""

from __future__ import annotations

import asyncio
import json
from datetime import datetime
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from engine.app.console import out
from engine.clock import Clock, local_time
from engine.config import ConfigError, SignupConfig, load_signup_config
from engine.i18n import _, for_game, ngettext, said_of, shown
from engine.service.signup import SignupKeeper

app = typer.Typer(
    help="The sign-up thread: the list of players it makes, closed into [players].",
    no_args_is_help=True,
)

GameArg = Annotated[Path, typer.Argument(help="The game file (with a [signup] table).")]
Db = Annotated[
    str | None,
    typer.Option("--db", help="Store URL (default: FORUMGM_DATABASE_URL or sqlite:///forumgm.db)."),
]


def _config(path: Path) -> SignupConfig:
    import os

    try:
        config = load_signup_config(path, environ=os.environ)
    except ConfigError as exc:
        out.print(str(exc))
        raise typer.Exit(2) from None
    for_game(config.language)
    return config


def _keeper(path: Path, db: str | None) -> tuple[SignupKeeper, Clock]:
    from engine.app.service_cmd import command_clock, store_or_exit
    from engine.credentials import CredentialsError
    from engine.service.build import make_board

    config = _config(path)
    clock = command_clock()
    try:
        board = make_board(config.board, clock=clock)
    except CredentialsError as exc:
        out.print(shown(said_of(exc)), style="red")
        raise typer.Exit(2) from None
    return SignupKeeper(store_or_exit(db), board, config, clock=clock), clock


def _run(keeper: SignupKeeper, work: object) -> object:
    async def go() -> object:
        try:
            return await work  # type: ignore[misc]
        finally:
            await keeper.board.close()

    return asyncio.run(go())


def _print_list(keeper: SignupKeeper, now: datetime) -> None:
    current = keeper.current()
    tz = keeper.config.tz
    table = Table(title=_("sign-ups: thread {thread}").format(thread=keeper.config.settings.thread))
    for column in (_("status"), "#", _("player"), _("joined")):
        table.add_column(column)
    shown = _statuses()
    for status in ("in", "reserve", "pending", "over", "left", "refused"):
        for e in sorted(current.of(status), key=lambda e: e.place):
            joined = local_time(e.joined_at, tz) if e.joined_at else ""
            table.add_row(shown[status], str(e.place or ""), e.name, joined)
    out.print(table)
    closes = keeper.closes()
    if keeper.closed(now):
        out.print(_("closed at {at}").format(at=local_time(closes, tz)) if closes else _("closed"))
    elif closes is not None:
        out.print(_("open until {at}").format(at=local_time(closes, tz)))
    else:
        out.print(_("open (no closing time: forumgm signup close ends it)"))
    for note in keeper.host_notes():
        if note.kind == "lookalike":
            out.print(
                _(
                    "warning: {name} reads like {other}: two board accounts; both stay on the "
                    "list — refuse one (forumgm signup refuse) if it is the same person"
                ).format(name=repr(note.name), other=repr(note.other))
            )
        else:
            out.print(
                _(
                    "warning: {name} wants out of the closed list (post {post}): forumgm game "
                    "sub {game} {name} offers the seat to the reserve"
                ).format(name=note.name, post=note.post_id, game=keeper.config.path)
            )


def _statuses() -> dict[str, str]:
    """A sign-up's status as the host reads it in the list."""
    return {
        "in": _("in"),
        "reserve": _("reserve"),
        "pending": _("pending"),
        "over": _("over"),
        "left": _("left"),
        "refused": _("refused"),
    }


@app.command("run")
def run(
    game: GameArg,
    db: Db = None,
    once: Annotated[bool, typer.Option(help="Do what is due now and exit.")] = False,
    every: Annotated[int, typer.Option(help="Seconds between reads.", min=30)] = 300,
    full: Annotated[bool, typer.Option(help="Read the whole thread again.")] = False,
) -> None:
    """Read the sign-up thread, answer joins and leaves, post the list when due, and at the
    close write [players] (each account checked on the board)."""
    keeper, clock = _keeper(game, db)

    from engine.publish import one_line
    from forums.errors import BoardError

    async def loop() -> int:
        try:
            while True:
                now = clock()
                try:
                    for line in await keeper.step(now, full=full):
                        out.print(shown(line))
                    if keeper.closed(now):
                        return await _write(keeper, game)
                except BoardError as exc:  # the board is down, slow, or refused the login
                    again = (
                        _("run again to retry")
                        if once
                        else _("tried again in {seconds} s").format(seconds=every)
                    )
                    out.print(
                        _("the board: {error}; nothing was lost: {then}").format(
                            error=shown(one_line(exc)), then=again
                        )
                    )
                    if once:
                        return 1
                if once:
                    return 0
                await asyncio.sleep(every)
        finally:
            await keeper.board.close()

    raise typer.Exit(asyncio.run(loop()))


async def _write(keeper: SignupKeeper, game: Path, *, force: bool = False) -> int:
    """Write the closed list into the game file once; 0 when written (or already)."""
    row = keeper.row()
    if row.written_at is not None and not force:
        out.print(_("[players] of {game} was written at the close already").format(game=game))
        return 0
    current = keeper.current()
    players, reserve = current.names("in"), current.names("reserve")
    checked = await keeper.check_members([*players, *reserve])
    missing = [m.name for m in checked if m.account is None]
    if missing:
        out.print(
            _(
                "not written: no board member named {names} (renamed or deleted?): forumgm "
                "signup refuse {game} NAME takes one off, then signup close again"
            ).format(names=", ".join(missing), game=game)
        )
        return 1
    accounts = {m.name: m.account or m.name for m in checked}
    players = [accounts[n] for n in players]
    reserve = [accounts[n] for n in reserve]
    if keeper.config.settings.cap and len(players) < keeper.config.settings.cap:
        out.print(
            _("warning: {n} players for {cap} places").format(
                n=len(players), cap=keeper.config.settings.cap
            )
        )
    if keeper.config.players and keeper.config.players != players and not force:
        out.print(
            _(
                "not written: [players] of {game} already lists {names}; forumgm signup close "
                "--force replaces it"
            ).format(game=game, names=", ".join(keeper.config.players))
        )
        return 1
    from engine.app.game_file import write_players

    try:
        write_players(game, players, reserve)
    except OSError as exc:
        out.print(
            _("{game}: cannot write it ({error})").format(game=game, error=exc.strerror or exc)
        )
        return 1
    keeper.store.set_signup_times(keeper.signup_id, written_at=keeper.clock())
    listed = ngettext(
        "{game}: [players] now lists {n} player(s)",
        "{game}: [players] now lists {n} player(s)",
        len(players),
    ).format(game=game, n=len(players))
    if reserve:
        listed += _(" and {n} in reserve").format(n=len(reserve))
    out.print(listed + _("; next: forumgm game start {game}").format(game=game))
    from engine.app.game_file import load_game
    from engine.config import ConfigError

    try:
        load_game(game)
    except ConfigError as exc:  # e.g. a [deal] for more players than signed up
        out.print(
            _("the game file needs attention before game start ({n}):").format(n=len(exc.problems))
        )
        for problem in exc.problems:
            out.print(f"  {problem}")
    return 0


@app.command("list")
def list_(
    game: GameArg,
    db: Db = None,
    post: Annotated[bool, typer.Option("--post", help="Post the list in the thread.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="The list as JSON.")] = False,
) -> None:
    """Read the thread and show the list (joined, reserve, waiting, left) in order."""
    keeper, clock = _keeper(game, db)
    now = clock()

    async def work() -> None:
        await keeper.read(now)
        keeper.answer(now)
        if post:
            keeper.queue_list(now, why=f"asked-{now.isoformat()}")
        await keeper.send(now)

    _run(keeper, work())
    if as_json:
        current = keeper.current()
        data = [
            {"name": e.name, "status": e.status, "place": e.place, "post": e.post_id}
            for e in current.entries
        ]
        typer.echo(json.dumps(data, ensure_ascii=False, indent=1))
        return
    _print_list(keeper, now)


def _decide(game: Path, db: str | None, names: list[str], decision: str) -> None:
    keeper, clock = _keeper(game, db)
    now = clock()
    for name in names:
        keeper.store.decide_signup(keeper.signup_id, name, decision, now)

    async def work() -> None:
        await keeper.read(now)
        keeper.answer(now)
        await keeper.send(now)

    _run(keeper, work())
    _print_list(keeper, now)


@app.command("approve")
def approve(
    game: GameArg,
    names: Annotated[list[str], typer.Argument(help="Board accounts.")],
    db: Db = None,
) -> None:
    """Approve joins (`[signup] approve = true`): they take their place in arrival order."""
    _decide(game, db, names, "approve")


@app.command("refuse")
def refuse(
    game: GameArg,
    names: Annotated[list[str], typer.Argument(help="Board accounts.")],
    db: Db = None,
) -> None:
    """Take players off the list (their join no longer counts); they are told in the thread."""
    _decide(game, db, names, "refuse")


@app.command("close")
def close(
    game: GameArg,
    db: Db = None,
    force: Annotated[
        bool, typer.Option("--force", help="Replace a [players] list the file already has.")
    ] = False,
) -> None:
    """Close the sign-ups now (or confirm the file's `closes`), post the final list and
    write [players] into the game file."""
    keeper, clock = _keeper(game, db)
    now = clock()
    if keeper.row().closed_at is None and not keeper.closed(now):
        keeper.store.set_signup_times(keeper.signup_id, closed_at=now)

    async def work() -> int:
        for line in await keeper.step(now, full=True):
            out.print(shown(line))
        return await _write(keeper, game, force=force)

    code = _run(keeper, work())
    _print_list(keeper, now)
    raise typer.Exit(int(code))  # type: ignore[call-overload]

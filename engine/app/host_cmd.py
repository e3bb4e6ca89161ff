"""`forumgm host`: the host's dashboard account (`set-password`) and the audit log (`log`)."""

from __future__ import annotations

import sys
from datetime import UTC
from typing import Annotated

import typer
from rich.table import Table

from engine.app.console import console
from engine.app.service_cmd import Db, store_or_exit, stored_zone
from engine.clock import local_time

app = typer.Typer(help="The host's dashboard account and the audit log.", no_args_is_help=True)

DEFAULT_HOST = "host"
HostName = Annotated[str, typer.Option("--user", help="The host account's name.")]


@app.command("set-password")
def set_password(
    user: HostName = DEFAULT_HOST,
    db: Db = None,
    password_stdin: Annotated[
        bool,
        typer.Option("--password-stdin", help="Read the password from standard input (scripts)."),
    ] = False,
) -> None:
    """Set (or change) the password the host logs in to `forumgm dashboard` with.

    Only a scrypt hash of it is stored; a change ends the sessions logged in before."""
    from engine.host_password import PasswordError, hash_password

    out = console()
    if not user.strip():
        out.print("--user needs a name")
        raise typer.Exit(2)
    if password_stdin:
        password = sys.stdin.readline().rstrip("\r\n")
    else:
        password = typer.prompt("New password", hide_input=True, confirmation_prompt=True)
    try:
        hashed = hash_password(password)
    except PasswordError as exc:
        out.print(str(exc))
        raise typer.Exit(2) from None
    store = store_or_exit(db)
    existed = store.host_account(user.strip()) is not None
    store.set_host_password(user.strip(), hashed)
    store.record_action("set_password", by=user.strip(), via="cli", detail={"new": not existed})
    out.print(
        f"{'Changed' if existed else 'Set'} the dashboard password of {user.strip()}"
        + (": sessions logged in before must log in again" if existed else "")
    )


@app.command("log")
def log(
    db: Db = None,
    game: Annotated[int | None, typer.Option("--game", help="Only this game id.")] = None,
    limit: Annotated[int, typer.Option(help="How many entries, newest first.")] = 50,
) -> None:
    """The audit log: every host action (fixes, approvals, logins), newest first."""
    store = store_or_exit(db, existing=True)
    # Each entry in its game's zone; one of no game (a login) in the games' zone when they
    # share one, else UTC.
    zones = {g.id: stored_zone(g.time_zone) for g in store.games()}
    shared = {str(z): z for z in zones.values()}
    default = next(iter(shared.values())) if len(shared) == 1 else UTC
    grid = Table("at", "by", "via", "game", "phase", "action", "detail")
    for entry in store.host_actions(game, limit=limit):
        detail = entry.detail_text()
        grid.add_row(
            local_time(entry.at, zones.get(entry.game_id or 0, default), seconds=True),
            entry.by,
            entry.via,
            str(entry.game_id or ""),
            entry.phase or "",
            entry.action,
            detail,
        )
    console().print(grid)

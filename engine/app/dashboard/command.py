"""`forumgm dashboard GAME.toml…`: serve the dashboard for these games (127.0.0.1 by default)."""

from __future__ import annotations

import ipaddress
from pathlib import Path
from typing import Annotated

import typer

from engine.app.service_cmd import Db, command_clock, driver_for, out

DEFAULT_PORT = 8765


def _loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def dashboard(
    games: Annotated[list[Path], typer.Argument(help="The game files to serve.")],
    db: Db = None,
    host: Annotated[
        str, typer.Option("--host", help="Address to listen on (127.0.0.1: this machine only).")
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", help="Port to listen on.")] = DEFAULT_PORT,
) -> None:
    """The host's dashboard in the browser: warnings with one-click fixes, votes, orders, the
    results' preview, Approve & publish, the audit log — what `forumgm review` does.

    Log in with the password set by `forumgm host set-password`."""
    import uvicorn

    from engine.app.dashboard.web import Dashboard
    from engine.service.build import database_url
    from engine.store import open_store

    store = open_store(database_url(db))
    if not store.host_accounts():
        out.print("No host account yet: set a password first with `forumgm host set-password`.")
        raise typer.Exit(2)
    clock = command_clock()
    drivers = [driver_for(path, db, store, clock=clock) for path in games]
    app = Dashboard(store, drivers).app()
    if not _loopback(host):
        out.print(
            f"[yellow]Listening on {host}: other machines can reach the login page. The session "
            "cookie is not limited to HTTPS; put the dashboard behind an HTTPS proxy.[/]"
        )
    shown = f"[{host}]" if ":" in host else host
    out.print(
        f"forumgm dashboard on http://{shown}:{port}/ ({len(drivers)} game(s)); Ctrl+C stops it"
    )
    uvicorn.run(app, host=host, port=port, log_level="warning", access_log=False)

"""`forumgm host`: the host's dashboard account (`set-password`) and the audit log (`log`)."""

from __future__ import annotations

import sys
from datetime import UTC
from typing import Annotated

import typer
from rich.table import Table

from engine import i18n
from engine.app.console import console
from engine.app.service_cmd import Db, store_or_exit, stored_zone
from engine.clock import local_time
from engine.i18n import _, phase_name

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
    # Opened first: its games' language is the one the prompts speak (unless --lang).
    store = store_or_exit(db)
    languages = (g.language for g in store.games() if g.language in i18n.LANGUAGES)
    i18n.for_game(i18n.languages_of(languages) or i18n.DEFAULT)
    if not user.strip():
        out.print(_("--user needs a name"))
        raise typer.Exit(2)
    if password_stdin:
        password = sys.stdin.readline().rstrip("\r\n")
    else:
        password = typer.prompt(
            _("New password"),
            hide_input=True,
            confirmation_prompt=_("Repeat the password"),
        )
    try:
        hashed = hash_password(password)
    except PasswordError as exc:
        out.print(str(exc))
        raise typer.Exit(2) from None
    existed = store.host_account(user.strip()) is not None
    store.set_host_password(user.strip(), hashed)
    store.record_action("set_password", by=user.strip(), via="cli", detail={"new": not existed})
    if existed:
        said = _(
            "Changed the dashboard password of {user}: sessions logged in before must log in again"
        )
    else:
        said = _("Set the dashboard password of {user}")
    out.print(said.format(user=user.strip()), markup=False, highlight=False)


@app.command("log")
def log(
    db: Db = None,
    game: Annotated[int | None, typer.Option("--game", help="Only this game id.")] = None,
    limit: Annotated[int, typer.Option(help="How many entries, newest first.")] = 50,
) -> None:
    """The audit log: every host action (fixes, approvals, logins), newest first."""
    from engine.app.review import detail_words, host_word

    store = store_or_exit(db, existing=True)
    # The host's language (--lang), else the language of the games the log shows (of the
    # store's games when none is shown: an empty log speaks it too).
    games = [g for g in store.games() if game is None or g.id == game] or store.games()
    languages = (g.language for g in games if g.language in i18n.LANGUAGES)
    i18n.for_game(i18n.languages_of(languages) or i18n.DEFAULT)
    # Each entry in its game's zone; one of no game (a login) in the games' zone when they
    # share one, else UTC.
    zones = {g.id: stored_zone(g.time_zone) for g in store.games()}
    shared = {str(z): z for z in zones.values()}
    default = next(iter(shared.values())) if len(shared) == 1 else UTC
    grid = Table(_("at"), _("by"), _("via"), _("game"), _("phase"), _("action"), _("detail"))
    for entry in store.host_actions(game, limit=limit):
        zone = zones.get(entry.game_id or 0, default)
        detail = detail_words(entry.detail, zone)
        grid.add_row(
            local_time(entry.at, zone, seconds=True),
            entry.by,
            entry.via,
            str(entry.game_id or ""),
            phase_name(entry.phase) if entry.phase else "",
            host_word(entry.action),
            detail,
        )
    console().print(grid)

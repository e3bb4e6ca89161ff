"""`forumgm demo`: a full seeded game (classic, or the ruleset --ruleset names) on the local board."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from engine import i18n
from engine.app.demo.run import run_demo
from engine.i18n import _


def demo(
    seed: Annotated[int, typer.Option(help="Seed of the game and of the simulated players.")] = 1,
    players: Annotated[int, typer.Option(min=9, max=12, help="Number of players (9–12).")] = 10,
    lang: Annotated[str, typer.Option(help="Language of the posts: ru or en.")] = "ru",
    database: Annotated[
        Path, typer.Option("--database", "--db", help="SQLite file (recreated).")
    ] = Path("forumgm-demo.sqlite"),
    quiet: Annotated[bool, typer.Option(help="Print only the winner.")] = False,
    ruleset: Annotated[
        str,
        typer.Option(
            help="classic, yakuza (18 players), twelve-rooms (10) or minimafik (8 characters); "
            "--players is for classic."
        ),
    ] = "classic",
) -> None:
    """Play a seeded game with simulated players on a local board: `classic` by default,
    or yakuza, twelve-rooms or minimafik (--ruleset)."""
    if lang not in ("ru", "en"):
        raise typer.BadParameter("ru or en", param_hint="--lang")
    if ruleset not in ("classic", "yakuza", "twelve-rooms", "minimafik"):
        raise typer.BadParameter(
            "classic, yakuza, twelve-rooms or minimafik", param_hint="--ruleset"
        )
    from engine.app.paths import writable

    trouble = writable(database)
    if trouble is not None:
        raise typer.BadParameter(trouble, param_hint="--db")
    # The game as it goes is shown in its own language (as its posts), unless the host named
    # his on this command line (`forumgm --lang`); his own lines follow his language.
    result = run_demo(
        seed, players, lang, database, quiet=quiet, ruleset=ruleset, show_lang=i18n.given()
    )
    if quiet:
        typer.echo(
            _("winner: {winner} after {turns} turns").format(
                winner=result.winner, turns=result.turns
            )
        )

"""`forumgm demo`: a full seeded classic game on the local board."""

from __future__ import annotations

from pathlib import Path

import typer

from engine.app.demo.run import run_demo


def demo(
    seed: int = typer.Option(1, help="Seed of the game and of the simulated players."),
    players: int = typer.Option(10, min=9, max=12, help="Number of players (9–12)."),
    lang: str = typer.Option("ru", help="Language of the posts: ru or en."),
    database: Path = typer.Option(Path("forumgm-demo.sqlite"), help="SQLite file (recreated)."),
    quiet: bool = typer.Option(False, help="Print only the winner."),
) -> None:
    """Play a seeded `classic` game with simulated players, posting to a local board."""
    if lang not in ("ru", "en"):
        raise typer.BadParameter("ru or en", param_hint="--lang")
    result = run_demo(seed, players, lang, database, quiet=quiet)
    if quiet:
        typer.echo(f"winner: {result.winner} after {result.turns} turns")

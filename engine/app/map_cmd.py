"""`forumgm map GAME.toml`: the host's map of a twelve-rooms game, from the store."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from engine import i18n
from engine.app.console import out
from engine.app.service_cmd import Db, config_or_exit, store_or_exit, write_or_exit
from engine.i18n import _


def map_(
    game: Annotated[Path, typer.Argument(help="The game file.")],
    db: Db = None,
    svg: Annotated[
        Path | None, typer.Option(help="Also write the map as an SVG picture to this file.")
    ] = None,
    lang: Annotated[
        str | None,
        typer.Option(
            help="The map's language, ru or en (default: forumgm --lang, else the game's)."
        ),
    ] = None,
) -> None:
    """Rooms, their types and counters, and who is where with which role (secret: host only)."""
    from rulesets.twelve_rooms.mapview import svg_map, text_map

    # A game that has started may have a start in the past: the map only reads it.
    config = config_or_exit(game, allow_past=True)
    if config.ruleset != "twelve-rooms":
        out.print(
            _("{game}: the map is for twelve-rooms games (this one is {ruleset})").format(
                game=game, ruleset=config.ruleset
            )
        )
        raise typer.Exit(2)
    # The map names rooms and roles as the game's texts do: in the game's language unless
    # the host names one on this command line.
    language = lang or i18n.given() or config.language
    if language not in ("ru", "en"):
        raise typer.BadParameter("ru or en", param_hint="--lang")
    store = store_or_exit(db, existing=True)
    board = store.find_board(config.url, config.gm_user)
    found = store.find_game(board.id, config.thread) if board is not None else None
    state = store.load_state(found.id) if found is not None else None
    if state is None:
        out.print(
            _("{game}: the game has not started (forumgm game start {game})").format(game=game)
        )
        raise typer.Exit(1)
    out.print(text_map(state, language))
    if svg is not None:
        write_or_exit(svg, svg_map(state, language))

"""The `forumgm` command line."""

from __future__ import annotations

import typer

from engine.app import (
    board_cmd,
    demo_cmd,
    game_cmd,
    parse_cmd,
    scenario_cmd,
    service_cmd,
    tally_cmd,
)

app = typer.Typer(
    help="forumgm: the game master's side of forum mafia games.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
)
app.add_typer(scenario_cmd.app, name="scenario")
app.add_typer(game_cmd.app, name="game")
app.add_typer(board_cmd.app, name="board")
app.command("demo")(demo_cmd.demo)
app.command("parse")(parse_cmd.parse)
app.command("export")(tally_cmd.export)
app.command("tally")(tally_cmd.tally)
for _name in ("run", "status", "review", "votes"):
    app.command(_name)(getattr(service_cmd, _name))


def main() -> None:
    app()

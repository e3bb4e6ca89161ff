"""The `forumgm` command line."""

from __future__ import annotations

import typer

from engine.app.lazy import lazy_group

COMMANDS = {
    "demo": "engine.app.demo_cmd:demo",
    "parse": "engine.app.parse_cmd:parse",
    "export": "engine.app.tally_cmd:export",
    "tally": "engine.app.tally_cmd:tally",
    "run": "engine.app.service_cmd:run",
    "status": "engine.app.service_cmd:status",
    "review": "engine.app.service_cmd:review",
    "votes": "engine.app.service_cmd:votes",
    "scenario": "engine.app.scenario_cmd:app",
    "game": "engine.app.game_cmd:app",
    "board": "engine.app.board_cmd:app",
    "map": "engine.app.map_cmd:map_",
    "host": "engine.app.host_cmd:app",
    "steer": "engine.app.steer_cmd:app",
    "dashboard": "engine.app.dashboard.command:dashboard",
    "simulate": "engine.app.simulate_cmd:simulate",
    "report": "engine.app.report_cmd:report",
    "signup": "engine.app.signup_cmd:app",
    "activity": "engine.app.activity_cmd:activity",
}
"""Subcommand → where it lives ("module:function", or "module:app" for a typer.Typer group).
Each module is imported only when its command runs, so keep heavy imports out of this file."""

app = typer.Typer(
    cls=lazy_group(COMMANDS),
    help="forumgm: the game master's side of forum mafia games.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
)


@app.callback()
def _root() -> None:
    # A group needs a callback when its commands are not registered on the Typer itself.
    pass


def main() -> None:
    app()

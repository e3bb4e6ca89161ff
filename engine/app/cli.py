"""The `forumgm` command line."""

from __future__ import annotations

from typing import Annotated

import typer

from engine import i18n
from engine.app.frames import root_group

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
    cls=root_group(COMMANDS),
    help="forumgm: the game master's side of forum mafia games.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
)


def _language(value: str | None) -> str | None:
    try:
        i18n.choose(value)
    except i18n.UnknownLanguage as exc:
        raise typer.BadParameter(str(exc)) from None
    return value


@app.callback()
def _root(
    lang: Annotated[
        str | None,
        typer.Option(
            "--lang",
            help="The language forumgm speaks to you (ru or en); by default FORUMGM_LANG, "
            "else the game's language.",
            callback=_language,
            is_eager=True,
        ),
    ] = None,
) -> None:
    # A group needs a callback when its commands are not registered on the Typer itself.
    from engine.app.logs import speak_last_resort

    speak_last_resort()


def main() -> None:
    app()

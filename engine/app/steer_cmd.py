"""`forumgm steer`: the host's commands on a running game (what the dashboard's forms do too).

Each prints what it did and the posts and PMs it queued for the players, which wait for the
host's approval (`forumgm review GAME --approve`) unless the review mode is auto or
`--approve` is given; every command is in the audit log (`forumgm host log`).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from engine.app.console import out
from engine.app.service_cmd import Db, cli_host, driver_for
from engine.i18n import _

if TYPE_CHECKING:
    from engine.app.steer import Steer, Steered

app = typer.Typer(
    help="Steer a running game: remove a player, move deadlines, pause, end, grant, speak.",
    no_args_is_help=True,
)

Game = Annotated[Path, typer.Argument(help="The game file.")]
Approve = Annotated[
    bool,
    typer.Option(
        "--approve",
        help="Let what the players are told go out at the next step, without `review --approve`.",
    ),
]


def _steer(game: Path, db: str | None, act: Callable[[Steer], Steered]) -> None:
    from engine.app.review import outbox_line
    from engine.app.steer import Steer, SteerError

    driver = driver_for(game, db, started=True)
    steer = Steer(driver, by=cli_host(), via="cli")
    try:
        done = act(steer)
    except SteerError as exc:
        out.print(str(exc), markup=False, highlight=False)
        raise typer.Exit(2) from None
    out.print(done.said, markup=False, highlight=False)
    for item in done.items:
        out.print(outbox_line(item), markup=False, highlight=False)
        out.print(item.bbcode, markup=False, highlight=False)
    if done.waiting:
        store = f" --db {db}" if db else ""
        waiting = _("{n} wait for approval: {command} --preview, then --approve")
        command = f"forumgm review {game}{store}"
        out.print(waiting.format(n=done.waiting, command=command), markup=False, highlight=False)


@app.command("remove")
def remove(
    game: Game,
    player: Annotated[str, typer.Argument(help="The player leaving play (modkill).")],
    reveal: Annotated[
        bool | None,
        typer.Option(
            "--reveal/--no-reveal",
            help="Show the player's role (default: as the rules show a death's role).",
        ),
    ] = None,
    approve: Approve = False,
    db: Db = None,
) -> None:
    """Remove a player from play now (inactivity, a rule breach): the player's vote and the
    votes for the player stop counting, and the ruleset's consequences follow (a mafioso's
    team is told, a minimafik Leader leads no more, a twelve-rooms room knows him no more)."""
    _steer(game, db, lambda s: s.remove(player, reveal=reveal, approve=approve))


@app.command("grant")
def grant(
    game: Game,
    player: Annotated[str, typer.Argument(help="Who gets it.")],
    what: Annotated[
        str,
        typer.Argument(help="twelve-rooms: vest or immunity; votecount: weight or cannot_vote."),
    ],
    value: Annotated[
        str | None,
        typer.Argument(
            help="vest: how many (1); immunity: through which turn; weight: a whole number; "
            "cannot_vote: yes or no."
        ),
    ] = None,
    approve: Approve = False,
    db: Db = None,
) -> None:
    """Grant what the rules let the host grant: a twelve-rooms vest or immunity (§7.4), a
    votecount vote weight or «cannot vote»."""
    _steer(game, db, lambda s: s.grant(player, what, value, approve=approve))


@app.command("deadline")
def deadline(
    game: Game,
    at: Annotated[
        str | None,
        typer.Option("--at", help="The new deadline, YYYY-MM-DD HH:MM in the game's time zone."),
    ] = None,
    extend: Annotated[
        str | None,
        typer.Option(
            "--extend", help="Make the current phase longer (2h, 1d, 1d6h) or shorter (-3h)."
        ),
    ] = None,
    shift: Annotated[
        str | None,
        typer.Option("--shift", help="Move the current deadline and every later one (e.g. 1d)."),
    ] = None,
    approve: Approve = False,
    db: Db = None,
) -> None:
    """Move the current phase's deadline (after its deadline: the next one the results
    announce); the players are told by a post, the counts and `status` follow."""
    from engine.app.steer import SteerError, parse_span

    def act(s: Steer) -> Steered:
        when = None
        if at is not None:
            try:
                when = datetime.fromisoformat(at.strip())
            except ValueError:
                raise SteerError(_("{at!r}: write YYYY-MM-DD HH:MM").format(at=at)) from None
            if when.tzinfo is None:
                when = when.replace(tzinfo=s.driver.config.schedule.tz)
        return s.deadline(
            at=when,
            extend=parse_span(extend) if extend is not None else None,
            shift=parse_span(shift) if shift is not None else None,
            approve=approve,
        )

    _steer(game, db, act)


@app.command("pause")
def pause(game: Game, approve: Approve = False, db: Db = None) -> None:
    """Pause the game: no deadline passes until `resume`; votes and orders are still read and
    answered. The players are told."""
    _steer(game, db, lambda s: s.pause(approve=approve))


@app.command("resume")
def resume(game: Game, approve: Approve = False, db: Db = None) -> None:
    """Go on after a pause: the current deadline and every later one move by its length."""
    _steer(game, db, lambda s: s.resume(approve=approve))


@app.command("end")
def end(
    game: Game,
    outcome: Annotated[
        str, typer.Argument(help="The winning faction (e.g. town, mafia), draw, or abandoned.")
    ],
    approve: Approve = False,
    db: Db = None,
) -> None:
    """End the game early: a winner the host declares, a draw, or abandoned. The final post
    shows every role; nothing more is resolved."""
    _steer(game, db, lambda s: s.end(outcome, approve=approve))


@app.command("say")
def say(
    game: Game,
    text: Annotated[str, typer.Argument(help="What the host says (BBCode).")],
    to: Annotated[
        str | None, typer.Option("--to", help="A player to send it to by PM (default: the thread).")
    ] = None,
    approve: Approve = False,
    db: Db = None,
) -> None:
    """Post in the game thread (or PM a player) «от ведущего» through the bot, with the game's
    markers and in the audit log."""
    _steer(game, db, lambda s: s.say(text, to=to, approve=approve))

"""`forumgm game`: write a game file interactively and check one, with the line of every error."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

import rulesets
from engine.config import BOARD_ENGINES, ConfigError, load_config
from engine.core.ruleset import get_ruleset, registered
from engine.schedule import Schedule, ScheduleError

app = typer.Typer(help="Game configuration files.", no_args_is_help=True)

TEMPLATE = """\
# forumgm game file. `forumgm game validate {path}` checks it.
[game]
ruleset = "{ruleset}"
title = "{title}"
seed = {seed}
language = "{language}"
review = "{review}"          # always | warnings | auto
receipts = true              # answer each PM order with what was understood
vote_count = "off"           # or e.g. "every 12 hours": post the count when votes are public

[board]
engine = "{engine}"
url = "{url}"
thread = "{thread}"
gm_user = "{gm_user}"
password = "{password}"      # where the password is: env:VARIABLE or keyring:SERVICE

[schedule]
timezone = "{timezone}"
deadlines = "{deadlines}"
start = "{start}"

[options]

[players]
players = [{players}]
dead = []
replacements = {{}}          # new = "old": a substitute takes over the slot
aliases = {{}}               # "name" = ["short", "forms"] (quote Cyrillic names)

[deal]                       # roles dealt by the seeded RNG; or a [roles] table name = "role"
{deal}
"""


def _rulesets() -> dict[str, object]:
    rulesets.load_all()
    return {rid: get_ruleset(rid) for rid in registered()}


@app.command("validate")
def validate(files: Annotated[list[Path], typer.Argument(help="Game TOML files.")]) -> None:
    """Check game files; every problem is printed with its line. Exit 1 if any."""
    out = Console(highlight=False, soft_wrap=True)
    bad = False
    for path in files:
        try:
            config = load_config(path, rulesets=_rulesets())  # type: ignore[arg-type]
        except ConfigError as exc:
            bad = True
            out.print(f"[bold red]{path}[/]: {len(exc.problems)} problem(s)")
            for problem in exc.problems:
                out.print(f"  {problem}", markup=False)
            continue
        out.print(
            f"[green]OK[/] {path}: {config.ruleset}, {len(config.players)} players, "
            f"deadlines {config.schedule.describe()}, review {config.review}"
        )
    raise typer.Exit(1 if bad else 0)


@app.command("new")
def new(path: Annotated[Path, typer.Argument(help="Where to write the game file.")]) -> None:
    """Write a game file by answering questions."""
    if path.exists() and not typer.confirm(f"{path} exists. Overwrite?", default=False):
        raise typer.Exit(1)
    rulesets.load_all()
    known = ", ".join(registered())
    ruleset = typer.prompt(f"Ruleset ({known})", default="classic")
    title = typer.prompt("Title", default="Мафия")
    engine = typer.prompt(f"Board engine ({', '.join(BOARD_ENGINES)})", default="phpbb")
    url = typer.prompt("Board URL")
    thread = typer.prompt("Game thread id")
    gm_user = typer.prompt("GM account name")
    env = typer.prompt(
        "Environment variable holding the GM password", default="FORUMGM_GM_PASSWORD"
    )
    timezone = typer.prompt("Time zone", default="Europe/Moscow")
    while True:
        deadlines = typer.prompt("Deadlines", default="every day 19:00")
        try:
            Schedule.parse(deadlines, timezone)
            break
        except ScheduleError as exc:
            typer.echo(str(exc))
    start = typer.prompt("First phase opens at (YYYY-MM-DD HH:MM)")
    names = [n.strip() for n in typer.prompt("Players, comma-separated").split(",") if n.strip()]
    deal = typer.prompt("Roles to deal, e.g. mafioso=2, commissar=1 (empty: none)", default="")
    deal_lines = "\n".join(
        f"{k.strip()} = {v.strip()}"
        for k, _, v in (p.partition("=") for p in deal.split(","))
        if k.strip()
    )
    text = TEMPLATE.format(
        path=path,
        ruleset=ruleset,
        title=title.replace('"', "'"),
        seed=typer.prompt("Seed", default=1, type=int),
        language=typer.prompt("Language (ru, en)", default="ru"),
        review=typer.prompt("Review (always, warnings, auto)", default="warnings"),
        engine=engine,
        url=url,
        thread=thread,
        gm_user=gm_user.replace('"', "'"),
        password=f"env:{env}",
        timezone=timezone,
        deadlines=deadlines,
        start=start,
        players=", ".join('"' + n.replace('"', "'") + '"' for n in names),
        deal=deal_lines,
    )
    path.write_text(text, encoding="utf-8")
    typer.echo(f"Wrote {path}.")
    try:
        load_config(path, rulesets=_rulesets())  # type: ignore[arg-type]
    except ConfigError as exc:
        typer.echo("It needs attention:")
        for problem in exc.problems:
            typer.echo(f"  {problem}")
        raise typer.Exit(1) from None
    typer.echo("It is valid.")


@app.command("start")
def start(
    path: Annotated[Path, typer.Argument(help="The game file.")],
    db: Annotated[str | None, typer.Option("--db", help="Store URL.")] = None,
) -> None:
    """Deal roles and queue the opening post and every role PM for the host's approval."""
    from engine.app.service_cmd import driver_for

    driver = driver_for(path, db)
    if not driver.start():
        typer.echo(f"game {driver.game_id} has already started")
        raise typer.Exit(1)
    drafts = driver.store.outbox(driver.game_id)
    waiting = sum(1 for i in drafts if i.status == "draft")
    typer.echo(f"game {driver.game_id} started: {len(drafts)} posts and PMs queued")
    if waiting:
        typer.echo(f"{waiting} wait for approval: forumgm review {path} --preview, then --approve")


@app.command("replace")
def replace(
    path: Annotated[Path, typer.Argument(help="The game file.")],
    old: Annotated[str, typer.Argument(help="The player leaving (or anyone who held the seat).")],
    new: Annotated[str, typer.Argument(help="The substitute's board account.")],
    history: Annotated[
        str,
        typer.Option(
            help="What the substitute gets besides the role PM: results (the seat's result "
            "PMs so far) or none."
        ),
    ] = "results",
    db: Annotated[str | None, typer.Option("--db", help="Store URL.")] = None,
) -> None:
    """A substitute takes over a seat from now on: the former player's orders no longer count,
    every PM for the seat goes to the substitute, who gets the role PM (and the history)."""
    from engine.app.service_cmd import driver_for
    from engine.service.seats import HISTORY
    from engine.store.repo.base import StoreError

    if history not in HISTORY:
        raise typer.BadParameter(f"one of {', '.join(HISTORY)}", param_hint="--history")
    driver = driver_for(path, db)
    try:
        seat = driver.replace(old, new, history=history)
    except StoreError as exc:
        typer.echo(str(exc))
        raise typer.Exit(1) from None
    typer.echo(f"{driver.slots().label(seat)} now plays seat {seat}")
    item = driver.store.find_by_marker(driver.marker("handover", seat, new))
    if item is not None and item.status.value == "draft":
        typer.echo("The PM to the substitute waits until the game's start is approved.")
    else:
        typer.echo(
            f"{new} gets the role PM{' and the seat history' if history == 'results' else ''}"
        )

"""`forumgm activity`: posts, words, the last post, votes and orders per player and day —
of a running game (its store), or of an exported thread (`forumgm export`)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table

from engine import i18n
from engine.activity import ActivityTable, Sample, count, day_of_number, shown_date, time_of
from engine.app.console import out
from engine.clock import local_time
from engine.i18n import _


def activity(
    game: Annotated[
        Path | None, typer.Argument(help="The game file (its store: --db).", show_default=False)
    ] = None,
    db: Annotated[
        str | None,
        typer.Option("--db", help="Store URL (default: FORUMGM_DATABASE_URL or forumgm.db)."),
    ] = None,
    posts: Annotated[
        Path | None,
        typer.Option("--posts", help="An exported thread (JSON Lines) instead of a game."),
    ] = None,
    engine: Annotated[str, typer.Option(help="The board the exported HTML came from.")] = "phpbb",
    gm: Annotated[
        str | None,
        typer.Option("--gm", help="The host, not counted (default: the thread's opener)."),
    ] = None,
    day_ends: Annotated[
        str | None,
        typer.Option(
            "--day-ends",
            help="Exported thread: the post numbers that end each game day, e.g. 239,334,411 "
            "(default: the dates the board shows).",
        ),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Activity per player and day: posts in the game thread, words, the last post's time,
    votes and orders sent; with [activity] thresholds, who is quiet in the current phase."""
    if (game is None) == (posts is None):
        out.print(_("give a game file, or --posts with an exported thread"))
        raise typer.Exit(2)
    if posts is not None:
        table = _exported(posts, engine, gm, day_ends)
        _show(table, as_json, tz=None, quiet={}, labels={})
        return
    from engine.app.service_cmd import command_clock, driver_for

    assert game is not None
    clock = command_clock()
    driver = driver_for(game, db, clock=clock, started=True)
    now = clock()
    table = driver.activity(now)
    current = driver.store.current_phase(driver.game_id)
    quiet: dict[tuple[str, str], str] = {}
    if current is not None and driver.config.activity is not None:
        quiet = {(q.seat, current.phase): q.why for q in driver.quiet(current, now)}
    slots = driver.slots()
    from engine.config import slot_label

    # The table names a seat in the host's words («Лёша (вместо Оли)»), JSON as the core does.
    labels = {
        seat: slots.label(seat) if as_json else slot_label(slots.chain(seat)) for seat in slots.keys
    }
    _show(table, as_json, tz=driver.config.schedule.tz, quiet=quiet, labels=labels)


def _exported(path: Path, engine: str, gm: str | None, day_ends: str | None) -> ActivityTable:
    from engine.app.tally_cmd import READERS

    if engine not in READERS:
        out.print(
            _("--engine {engine}: post HTML of {engines} can be read").format(
                engine=engine, engines=", ".join(READERS)
            )
        )
        raise typer.Exit(2)
    ends: list[int] = []
    if day_ends:
        try:
            ends = [int(n) for n in day_ends.split(",") if n.strip()]
        except ValueError:
            out.print(
                _("--day-ends {given}: post numbers separated by commas").format(given=day_ends)
            )
            raise typer.Exit(2) from None
    try:
        lines = [
            json.loads(line)
            for line in path.read_text(encoding="utf-8").splitlines()
            if line.strip()
        ]
    except (OSError, ValueError) as exc:
        out.print(f"{path}: {exc}")
        raise typer.Exit(2) from None
    lines.sort(key=lambda d: int(d.get("number", 0)))
    host = gm if gm is not None else (str(lines[0].get("user")) if lines else "")
    read = READERS[engine]
    samples = []
    for doc in lines:
        user = str(doc.get("user", ""))
        if user == host:
            continue
        number = int(doc.get("number", 0))
        time = doc.get("time")
        day = day_of_number(number, ends) if ends else shown_date(time) or "undated"
        if day is None:
            continue
        text = read(str(doc.get("content", ""))).text()
        samples.append(Sample(user, day, time_of(time), text))
    return count(samples)


def _day(day: str) -> str:
    """A game's phase as every other command names it to the host («ход 1» in Russian, not
    the report's capitalised label; English keeps «turn 1»); an exported thread's date as it
    is."""
    return i18n.phase_name(day)


def _show(
    table: ActivityTable,
    as_json: bool,
    *,
    tz: Any,
    quiet: dict[tuple[str, str], str],
    labels: dict[str, str],
) -> None:
    """The table (or JSON); `labels` name a seat by its holders («Лёша (replaced Оля)»)."""
    if as_json:
        rows = []
        for r in table.rows:
            row = r.as_dict()
            if r.player in labels and labels[r.player] != r.player:
                row["shown_as"] = labels[r.player]
            if quiet:
                row["quiet"] = quiet.get((r.player, r.day))
            rows.append(row)
        typer.echo(json.dumps(rows, ensure_ascii=False, indent=1))
        return
    shown = Table(title=_("activity"))
    columns = [_("day"), _("player"), _("posts"), _("words"), _("last post"), _("votes")]
    columns.append(_("orders"))
    missed = any(r.missed is not None for r in table.rows)
    if missed:
        columns.append(_("missed vote"))
    if quiet:
        columns.append(_("quiet"))
    for c in columns:
        shown.add_column(c)
    for r in table.rows:
        last = ""
        if r.last is not None:
            aware = tz is not None and r.last.tzinfo is not None
            last = local_time(r.last, tz) if aware else f"{r.last:%Y-%m-%d %H:%M}"
        cells = [
            _day(r.day),
            labels.get(r.player, r.player),
            str(r.posts),
            str(r.words),
            last,
            "" if r.votes is None else str(r.votes),
            "" if r.orders is None else str(r.orders),
        ]
        if missed:
            cells.append({True: _("missed"), False: "", None: "…"}[r.missed])
        if quiet:
            cells.append(i18n.shown(quiet.get((r.player, r.day), "")))
        shown.add_row(*cells)
    out.print(shown)

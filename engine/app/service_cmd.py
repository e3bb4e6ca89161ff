"""`forumgm run`, `status`, `review` and `votes`: what a host runs and looks at."""

from __future__ import annotations

import asyncio
import signal
from datetime import datetime
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from engine.clock import Clock, ClockError, game_clock
from engine.config import ConfigError, GameConfig
from engine.core.orders import Order, OrderKind
from engine.credentials import CredentialsError
from engine.service.build import database_url, make_driver
from engine.service.driver import GameDriver
from engine.service.runner import Cadence, Service, drive_once, owner_id
from engine.store import Store, open_store
from engine.store.models import OutboxStatus, PhaseRecord

Db = Annotated[
    str | None,
    typer.Option("--db", help="Store URL (default: FORUMGM_DATABASE_URL or sqlite:///forumgm.db)."),
]


class _Out:
    """A console made per call, so the terminal width is read when printing."""

    def print(self, *args: object, **kwargs: object) -> None:
        Console(highlight=False, soft_wrap=True).print(*args, **kwargs)  # type: ignore[arg-type]


out = _Out()


def config_or_exit(
    path: Path, *, now: datetime | None = None, allow_past: bool = False
) -> GameConfig:
    """The checked game file, or every problem printed and exit 2."""
    from engine.app.game_file import load_game

    try:
        return load_game(path, now=now, allow_past=allow_past)
    except ConfigError as exc:
        out.print(str(exc), markup=False)
        raise typer.Exit(2) from None


def command_clock() -> Clock:
    """The clock of this command: the real time, or `FORUMGM_NOW` (tests and rehearsals)."""
    try:
        return game_clock()
    except ClockError as exc:
        out.print(str(exc), markup=False)
        raise typer.Exit(2) from None


def driver_for(
    path: Path, db: str | None, store: Store | None = None, *, clock: Clock | None = None
) -> GameDriver:
    config = config_or_exit(path)
    clock = clock or command_clock()
    try:
        return make_driver(config, store or open_store(database_url(db)), clock=clock)
    except CredentialsError as exc:
        out.print(f"[red]{exc}[/]")
        raise typer.Exit(2) from None


def run(
    games: Annotated[list[Path], typer.Argument(help="Game files to drive.")],
    db: Db = None,
    once: Annotated[bool, typer.Option(help="Do what is due now and exit.")] = False,
) -> None:
    """Drive games: poll, resolve at deadlines, publish what is approved."""
    store = open_store(database_url(db))
    clock = command_clock()
    drivers = [driver_for(path, db, store, clock=clock) for path in games]
    if once:
        owner = owner_id()
        for driver in drivers:
            status = asyncio.run(drive_once(driver, owner, Cadence()))
            out.print(
                f"game {driver.game_id} ({driver.config.title or driver.config.path}): {status}"
            )
        return

    async def main() -> None:
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, stop.set)
        await Service(drivers).run(stop)

    asyncio.run(main())


def status(db: Db = None) -> None:
    """Games, phases, next deadline, unreviewed warnings, outbox state."""
    store = open_store(database_url(db))
    table = Table("game", "ruleset", "status", "phase", "deadline", "warnings", "outbox")
    failures = []
    for game in store.games():
        ph = store.current_phase(game.id)
        warnings = len(store.parse_warnings(game.id, ph.phase, unresolved_only=True)) if ph else 0
        items = store.outbox(game.id)
        counts = {s.value: sum(1 for i in items if i.status is s) for s in OutboxStatus}
        failures += [(game.id, i) for i in items if i.status is OutboxStatus.FAILED]
        table.add_row(
            f"{game.id} {game.title}",
            game.ruleset,
            game.status.value,
            f"{ph.phase} ({ph.status.value})" if ph else "—",
            ph.deadline.isoformat(timespec="minutes") if ph else "—",
            str(warnings),
            " ".join(f"{k}:{v}" for k, v in counts.items() if v) or "—",
        )
    out.print(table)
    for game_id, item in failures:
        out.print(
            f"[red]game {game_id}: {item.kind} {item.marker} failed {item.attempts}×: {item.last_error}[/]"
        )


def review(
    game: Annotated[Path, typer.Argument(help="The game file.")],
    db: Db = None,
    fix: Annotated[
        list[str] | None, typer.Option(help="WARNING_ID=NAME: settle a warning.")
    ] = None,
    drop: Annotated[
        list[int] | None, typer.Option(help="ORDER_ID: the order does not count.")
    ] = None,
    target: Annotated[
        list[str] | None, typer.Option("--set", help="ORDER_ID=NAME: the order names NAME instead.")
    ] = None,
    orders: Annotated[bool, typer.Option(help="List the phase's orders with their ids.")] = False,
    approve: Annotated[bool, typer.Option(help="Approve the drafts waiting for the host.")] = False,
    preview: Annotated[bool, typer.Option(help="Show the drafts' BBCode.")] = False,
) -> None:
    """Warnings with their source posts, fixes and overrides, a preview of the drafts, approval."""
    driver = driver_for(game, db)
    store = driver.store
    ph = store.current_phase(driver.game_id)
    changed = False
    for given in fix or []:
        warning_id, sep, name = given.partition("=")
        if not sep or not warning_id.isdigit():
            raise typer.BadParameter("write WARNING_ID=NAME", param_hint="--fix")
        store.fix_warning(int(warning_id), name.strip(), by="host")
        changed = True
    if ph is not None and (drop or target):
        parsed = {o.id: o for o in store.parsed_orders(driver.game_id, ph.phase)}
        for order_id in drop or []:
            if order_id not in parsed:
                raise typer.BadParameter(f"no order #{order_id} in {ph.phase}", param_hint="--drop")
            store.override_order(order_id, None, by="host")
        for given in target or []:
            number, sep, name = given.partition("=")
            if not sep or not number.isdigit() or int(number) not in parsed:
                raise typer.BadParameter(
                    f"write ORDER_ID=NAME for an order of {ph.phase}", param_hint="--set"
                )
            order = parsed[int(number)].order
            store.override_order(int(number), order.with_(targets=(name.strip(),)), by="host")
        changed = True
    if changed and ph is not None:
        if ph.status.value == "resolved":
            driver.resolve(ph)  # re-resolve with the host's decisions
        elif ph.status.value == "open":
            driver.replay(ph, min(driver.clock(), ph.deadline))  # the parse now shows them
    if ph is not None:
        if orders:
            for stored in store.parsed_orders(driver.game_id, ph.phase):
                o = stored.order
                what = o.action or o.kind.value
                src = o.source.text if o.source else ""
                out.print(
                    f"  #{stored.id} {o.player}: {what} {', '.join(o.targets)} {src!r}",
                    markup=False,
                )
        for stored_warning in store.parse_warnings(driver.game_id, ph.phase):
            w = stored_warning.warning
            mark = "✓" if stored_warning.resolved_by_host else ("·" if w.accepted else "!")
            text = w.source.text if w.source else ""
            choices = f" choices: {', '.join(w.choices)}" if w.choices else ""
            fixed = f" fixed: {stored_warning.fix}" if stored_warning.resolved_by_host else ""
            out.print(
                f"{mark} #{stored_warning.id} {w.code} {w.player or ''} {text!r}{choices}{fixed}",
                markup=False,
            )
        if ph.status.value == "open":
            _progress(driver, ph)
    drafts = [i for i in store.outbox(driver.game_id) if i.status is OutboxStatus.DRAFT]
    out.print(f"{len(drafts)} draft(s) wait for approval")
    if preview:
        for draft in drafts:
            who = ", ".join(draft.recipients) or "thread"
            out.print(f"--- {draft.kind} to {who}: {draft.subject or ''}", markup=False)
            out.print(draft.bbcode, markup=False)
    if approve:
        store.approve(driver.game_id, None)
        if ph is not None:
            store.approve(driver.game_id, ph.phase)
        out.print("approved: `forumgm run` publishes them")


def _progress(driver: GameDriver, ph: PhaseRecord) -> None:
    """How the open phase stands, in the ruleset's words (e.g. who has built a deck)."""
    session = driver.replay(ph, min(driver.clock(), ph.deadline)).session
    if session.inputs is None:
        return
    lines = driver.ruleset.progress(session.state, session.inputs)
    if lines:
        out.print(f"{ph.phase}, so far:")
        for line in lines:
            out.print(f"  {line}", markup=False)


def votes(game: Annotated[Path, typer.Argument(help="The game file.")], db: Db = None) -> None:
    """Every counted vote and unvote, with a link to its post; a seat that changed hands shows
    as "A (replaced B)", as it stood when the vote was cast."""
    from engine.core.slots import Moment

    driver = driver_for(game, db)
    slots = driver.slots()

    def seat(name: str, order: Order) -> str:
        key = slots.slot(name)
        return slots.label(key, Moment(at=order.at) if order.at else None) if key else name

    table = Table("phase", "voter", "vote", "at", "source")
    for ph in driver.store.phases(driver.game_id):
        for stored in driver.store.parsed_orders(driver.game_id, ph.phase):
            order = stored.order
            if order.kind not in (OrderKind.VOTE, OrderKind.UNVOTE, OrderKind.NO_LYNCH):
                continue
            target = seat(order.target, order) if order.target else order.kind.value
            at = order.at.isoformat(timespec="minutes") if order.at else ""
            link = order.source.url or order.source.post_id or "" if order.source else ""
            table.add_row(ph.phase, seat(order.player, order), target, at, str(link))
    out.print(table)

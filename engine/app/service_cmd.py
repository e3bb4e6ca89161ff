"""`forumgm run`, `status`, `review` and `votes`: what a host runs and looks at."""

from __future__ import annotations

import asyncio
import logging
import os
import signal
from collections.abc import Callable, Sequence
from datetime import UTC, datetime, tzinfo
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, TypeVar

import typer
from rich.console import Console
from rich.table import Table

from engine import i18n
from engine.app.console import out
from engine.clock import Clock, ClockError, game_clock, local_time
from engine.config import ConfigError, GameConfig, slot_label, slot_problem
from engine.core.orders import Order, OrderKind
from engine.core.warnings import UNREADABLE_MESSAGE
from engine.credentials import CredentialsError
from engine.i18n import (
    L_,
    Ln_,
    _,
    board_text,
    joined,
    ngettext,
    phase_fields,
    phase_name,
    said_of,
    shown,
    warning_text,
)
from engine.publish import Markers, held_by_limits
from engine.service.build import database_url, make_driver, sqlite_file
from engine.service.driver import GameDriver, next_deadline_missed
from engine.service.logins import held_reason
from engine.service.pool import BoardPool
from engine.service.runner import Cadence, Service, drive_once, failed, owner_id
from engine.store import Store, open_store
from engine.store.models import Game, GameStatus, OutboxKind, OutboxStatus, PhaseStatus
from engine.wording import inflect_name

if TYPE_CHECKING:
    from engine.app.review import Review
    from engine.core.ruleset import HostTable

log = logging.getLogger("forumgm.review")
T = TypeVar("T")

Db = Annotated[
    str | None,
    typer.Option("--db", help="Store URL (default: FORUMGM_DATABASE_URL or sqlite:///forumgm.db)."),
]


def config_or_exit(
    path: Path, *, now: datetime | None = None, allow_past: bool = False
) -> GameConfig:
    """The checked game file, or every problem printed and exit 2."""
    from engine.app.game_file import load_game

    try:
        config = load_game(path, now=now, allow_past=allow_past)
    except ConfigError as exc:
        out.print(str(exc))
        raise typer.Exit(2) from None
    i18n.for_game(config.language)
    return config


def command_clock() -> Clock:
    """The clock of this command: the real time, or `FORUMGM_NOW` (tests and rehearsals)."""
    try:
        return game_clock()
    except ClockError as exc:
        out.print(str(exc))
        raise typer.Exit(2) from None


def store_or_exit(db: str | None, *, existing: bool = False) -> Store:
    """The store `--db` names (a URL or a SQLite file), or one clear line and exit.

    `existing`: a command that only reads never creates an empty SQLite file."""
    from sqlalchemy.exc import ArgumentError, SQLAlchemyError

    url = database_url(db)
    try:
        file = sqlite_file(url)
    except ArgumentError:
        out.print(_("{url!r} is neither a database URL nor a file path").format(url=url))
        raise typer.Exit(2) from None
    if existing and file is not None and not file.exists():
        out.print(
            _(
                "no store at {path}: no game was started with it (--db FILE or "
                "FORUMGM_DATABASE_URL names the store `forumgm game start` used)"
            ).format(path=file.resolve())
        )
        raise typer.Exit(1)
    if file is not None and not file.exists():
        from engine.app.paths import file_problem

        trouble = file_problem(file)
        if trouble is not None:  # a mistyped --db makes no folders
            out.print(_("the store {path}: {why}").format(path=file, why=trouble))
            raise typer.Exit(2)
    try:
        return open_store(url)
    except SQLAlchemyError as exc:
        out.print(
            _("cannot open the store {url}: {why}").format(
                url=shown_url(url), why=type(exc).__name__
            )
        )
        raise typer.Exit(2) from None
    except OSError as exc:
        out.print(
            _("cannot open the store {url}: {why}").format(
                url=shown_url(url), why=exc.strerror or exc
            )
        )
        raise typer.Exit(2) from None


def shown_url(url: str) -> str:
    """A database URL as printed: its password (a PostgreSQL store's) never shows."""
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    try:
        return make_url(url).render_as_string(hide_password=True)
    except ArgumentError:
        return url


def write_or_exit(path: Path, text: str) -> None:
    """Write a file the host asked for and say so, or one clear line and exit 2."""
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as exc:
        out.print(_("cannot write {path}: {why}").format(path=path, why=exc.strerror or exc))
        raise typer.Exit(2) from None
    out.print(_("wrote {path}").format(path=path))


def driver_for(
    path: Path,
    db: str | None,
    store: Store | None = None,
    *,
    clock: Clock | None = None,
    started: bool = False,
) -> GameDriver:
    """The game's driver over the store `--db` names. `started`: a command about a running
    game (review, votes, replace) creates no store and says so when the game was never
    started in it, instead of showing an empty one."""
    config = config_or_exit(path)
    clock = clock or command_clock()
    driver = _driver(config, store or store_or_exit(db, existing=started), clock)
    if started and driver.store.load_state(driver.game_id) is None:
        out.print(
            _(
                "{path}: the game was not started in this store ({url}): forumgm game start "
                "{path} first, or --db names the store it was started with"
            ).format(path=path, url=shown_url(database_url(db)))
        )
        raise typer.Exit(1)
    if started:
        _seats_or_exit(driver, path)
    return driver


def _seats_or_exit(driver: GameDriver, path: Path) -> None:
    """The file's [players] replacements and the substitutes the game recorded (`game
    replace`) make one holder chain a seat: else every command would end in the core's
    error. What cannot be, in the host's language, and exit 1."""
    from engine.core.slots import SlotError

    try:
        driver.slots()
    except SlotError as exc:
        said = _(
            "{path}: the file's [players] replacements and the substitutes this game recorded "
            "cannot both be: {problem}; write the replacements back as game replace wrote them"
        )
        out.print(said.format(path=path, problem=slot_problem(exc)), style="red")
        raise typer.Exit(1) from None


def board_ready_or_exit(
    config: GameConfig,
    store: Store | None,
    clock: Clock,
    *,
    then: str | None = None,
    players: Sequence[str] = (),
) -> str:
    """Log in as the GM and read the game thread's first page before anything is queued (and
    before the game is written to the store); one line and exit 1 when the board cannot take
    the game. What was found, for the host. A board the store knows keeps its login guard: a
    login refused before is not tried again, and one refused now is remembered."""
    from engine.service.build import login_secret, make_board
    from engine.service.logins import LoginGuard
    from engine.service.preflight import NotReady, board_ready

    try:
        board = make_board(config, clock=clock)
        secret = login_secret(config)
    except CredentialsError as exc:
        out.print(shown(said_of(exc)), style="red")
        raise typer.Exit(2) from None
    row = store.find_board(config.url, config.gm_user) if store is not None else None
    if store is not None and row is not None:
        guard = LoginGuard(store, row.id, secret, clock)
        guard.automatic = False  # the host's own try, as `run --once`
        guard.install(board)

    async def check() -> str:
        try:
            ready = await board_ready(
                board,
                config.thread,
                url=config.url,
                gm=config.gm_user,
                game_file=str(config.path),
                players=players,
            )
        finally:
            await board.close()
        title = f" ({ready.title!r})" if ready.title else ""
        checked = len(players) - len(ready.unchecked)
        found = ""
        if players:  # English keeps "players'" for one too, as hosts' scripts read it
            found = ngettext(
                "; the {n} players' accounts are there",
                "; the {n} players' accounts are there",
                checked,
            ).format(n=checked)
        for name, why in ready.unchecked:
            said = _("; could not look {name!r} up ({why}): make sure the account exists")
            found += said.format(name=name, why=shown(why))
        said = _("logged in to the board as {gm}; thread {thread}{title} is there{found}")
        return said.format(gm=ready.gm, thread=config.thread, title=title, found=found)

    try:
        return asyncio.run(check())
    except NotReady as exc:
        queued = _("; nothing was queued") if then is None else then
        out.print(f"{config.path}: {shown(said_of(exc))}{queued}", style="red")
        raise typer.Exit(1) from None


def _driver(
    config: GameConfig, store: Store, clock: Clock, pool: BoardPool | None = None
) -> GameDriver:
    """The game's driver, or the password's problem in one line and exit 2. `pool`: the
    boards the process's other games use (one session and inbox read per board and account)."""
    try:
        return make_driver(config, store, clock=clock, pool=pool)
    except CredentialsError as exc:
        out.print(shown(said_of(exc)), style="red")
        raise typer.Exit(2) from None


def run(
    games: Annotated[list[Path], typer.Argument(help="Game files to drive.")],
    db: Db = None,
    once: Annotated[bool, typer.Option(help="Do what is due now and exit.")] = False,
    debug: Annotated[
        bool, typer.Option("--debug", help="Print tracebacks and every detail of each step.")
    ] = False,
    log_file: Annotated[
        Path | None,
        typer.Option(
            "--log-file",
            help="Also write everything (tracebacks too) to this file, rotated at 10 MB "
            "(5 old files kept).",
        ),
    ] = None,
) -> None:
    """Drive games: poll, resolve at deadlines, publish what is approved.

    One line per action (polled, receipts, frozen, resolved, published); a failed step is
    one line saying what failed, and is tried again (with --once: exit 1)."""
    from engine.app.logs import file_handler, service_logging
    from engine.app.paths import file_problem

    try:
        # Every file checked before the store is opened (or created); the log file's
        # problem after the game files, in their language.
        configs = [config_or_exit(path) for path in games]
        # The games' language when they share one (the host's own choice wins), else English.
        i18n.for_game(i18n.languages_of(c.language for c in configs) or i18n.DEFAULT)
        if log_file is not None and (unwritable := file_problem(log_file)) is not None:
            out.print(_("--log-file {path}: {why}").format(path=log_file, why=unwritable))
            raise typer.Exit(2)
        store = store_or_exit(db)
        clock = command_clock()
        pool = BoardPool()
        drivers = [_driver(config, store, clock, pool) for config in configs]
    except KeyboardInterrupt:
        out.print(_("stopped (Ctrl-C) before any game was driven: nothing was changed"))
        raise typer.Exit(130) from None
    from engine.service.notify import Notifier

    for driver in drivers:  # the hosts are told when a game needs them ([game] hosts)
        driver.notifier = Notifier(driver, db=db)
    owner = owner_id()
    try:
        to_file = file_handler(log_file) if log_file is not None else None
    except OSError as exc:
        out.print(
            _("--log-file {path}: cannot write it: {why}").format(
                path=log_file, why=exc.strerror or exc
            )
        )
        raise typer.Exit(2) from None
    with service_logging(debug=debug, to_file=to_file):
        if once:
            trouble = False
            for driver in drivers:  # the host's own try: no waiting after a board went down
                if driver.login_guard is not None:
                    driver.login_guard.automatic = False
            done: dict[int, str] = {}
            try:
                for driver in drivers:
                    before = len(driver.publisher.failures)
                    status = asyncio.run(drive_once(driver, owner, Cadence()))
                    sends = list(dict.fromkeys(driver.publisher.failures[before:]))
                    if sends and not failed(status):  # one rule: any step that failed is 1
                        status = joined([status, _sends(sends)])
                    if failed(status) or sends:
                        trouble = True
                        status = L_("{status}; nothing was lost: run again to retry", status=status)
                    name = driver.config.title or driver.config.path
                    out.print(
                        _("game {id} ({name}): {status}").format(
                            id=driver.game_id, name=name, status=shown(status)
                        )
                    )
                    done[driver.game_id] = status
            except KeyboardInterrupt:
                _stopped(drivers, done, during_step=True)
                raise typer.Exit(130) from None
            finally:  # the next `run` (or the dashboard) need not wait
                store.release_leases(owner)
            raise typer.Exit(1 if trouble else 0)

        service = Service(drivers, owner=owner)

        async def main() -> None:
            stop = asyncio.Event()
            loop = asyncio.get_running_loop()

            def stopping() -> None:
                stop.set()
                loop.remove_signal_handler(signal.SIGINT)  # a second Ctrl-C stops at once

            for sig in (signal.SIGINT, signal.SIGTERM):
                loop.add_signal_handler(sig, stopping)
            await service.run(stop)

        try:
            asyncio.run(main())
        except KeyboardInterrupt:  # the second Ctrl-C, in the middle of a step
            _stopped(drivers, service.last, during_step=True)
            raise typer.Exit(130) from None
        finally:
            store.release_leases(owner)
        _stopped(drivers, service.last, during_step=False)


def _sends(sends: list[str]) -> str:
    """The sends of a step that failed: the first, and how many more."""
    if len(sends) == 1:
        return sends[0]
    return Ln_("{failed} and {n} more", "{failed} and {n} more", len(sends) - 1, failed=sends[0])


def _stopped(drivers: list[GameDriver], last: dict[int, str], *, during_step: bool) -> None:
    """What `forumgm run` says when stopped: each game's last finished step, and that
    nothing is lost (the store has everything; a send cut short is looked for on the board
    before it is sent again)."""
    for driver in drivers:
        name = driver.config.title or driver.config.path
        done = shown(last[driver.game_id]) if driver.game_id in last else _("no step finished")
        out.print(
            _("stopped: game {id} ({name}): {done}").format(id=driver.game_id, name=name, done=done)
        )
    kept = _(
        "nothing was lost: the store keeps every game as it stands, and `forumgm run` goes on "
        "from there"
    )
    out.print(_("a step was cut short; {kept}").format(kept=kept) if during_step else kept)


def grid(*columns: str, title: str | None = None) -> Table:
    """A table whose cells wrap and never lose a character (rich cuts with … by default)."""
    table = Table(title=title if title else None)
    for name in columns:
        table.add_column(name, overflow="fold")
    return table


def print_table(table: Table) -> None:
    """A table on the terminal; piped or redirected, its rows stay whole lines."""
    console = Console(markup=False, highlight=False)  # nothing anyone wrote is markup
    if not console.is_terminal and "COLUMNS" not in os.environ:
        console = Console(markup=False, highlight=False, width=1000)
    console.print(table)


def _game_status(store: Store, game: Game, tz: tzinfo) -> str:
    """What `status` says of a game: its status, or paused or ended by the host."""
    if game.status is GameStatus.RUNNING and store.ended_by_host(game.id) is not None:
        return _("ended by the host: the final post waits")
    if game.paused_at is not None and game.status is GameStatus.RUNNING:
        return _("paused since {at}").format(at=local_time(game.paused_at, tz))
    from engine.app.review import host_word

    return host_word(game.status.value)


def status(db: Db = None) -> None:
    """Games, phases, next deadline (in each game's time zone), unreviewed warnings, outbox."""
    from engine.app.review import cut_short, host_word, phase_words

    store = store_or_exit(db, existing=True)
    # The host's language (--lang), else the one the store's games share (as `host log`):
    # the command names no game file to take it from.
    languages = (g.language for g in store.games() if g.language in i18n.LANGUAGES)
    i18n.for_game(i18n.languages_of(languages) or i18n.DEFAULT)
    clock = command_clock()
    table = grid(
        _("game"), _("ruleset"), _("status"), _("phase"), _("deadline"), _("warnings"), _("outbox")
    )
    failures = []
    strangers = []
    notes = []
    now = clock()
    due: dict[int, list[tuple[datetime, int]]] = {}
    """Per board: the games whose deadline passed and whose phase is not resolved yet."""
    for game in store.games():
        ph = store.current_phase(game.id)
        tz = stored_zone(game.time_zone)
        ended = game.status is GameStatus.FINISHED or store.ended_by_host(game.id) is not None
        over = ph is not None and cut_short(ph.status, ended)
        waiting = ph is not None and ph.status in (PhaseStatus.OPEN, PhaseStatus.FROZEN)
        waiting = waiting and not over
        if ph is not None and waiting and ph.deadline <= now and game.status is GameStatus.RUNNING:
            due.setdefault(game.board_id, []).append((ph.deadline, game.id))
        strangers += [(game.id, m) for m in store.outsiders(game.id, ph.phase)] if ph else []
        warnings = store.count_waiting_warnings(game.id, ph.phase) if ph else 0
        items = store.outbox(game.id)
        counts = {s.value: sum(1 for i in items if i.status is s) for s in OutboxStatus}
        failures += [(game.id, i) for i in items if i.status is OutboxStatus.FAILED]
        unsent = [i for i in items if i.status in (OutboxStatus.APPROVED, OutboxStatus.FAILED)]
        for waits in held_by_limits(store, game.id, now, board_id=game.board_id, pending=unsent):
            # Kept in the store and sent when the limit lifts: nothing is lost.
            notes.append(_("game {id}: {held}").format(id=game.id, held=shown(waits.line(tz))))
        stalled = (
            ph is not None
            and ph.status is PhaseStatus.PUBLISHED
            and game.status is GameStatus.RUNNING
        )
        markers = Markers(game.marker_key, game.id)
        if (
            ph is not None
            and ph.next_deadline
            and next_deadline_missed(store, markers, ph, clock())
        ):
            notes.append(
                _(
                    "game {id}: the next deadline {phase}'s results announce ({at}) passed while "
                    "they waited: choose with forumgm review GAME.toml --deadline shift (the next "
                    "phase gets its whole length) or --deadline shorten (it ends at the "
                    "schedule's next deadline)"
                ).format(id=game.id, at=local_time(ph.next_deadline, tz), **phase_fields(ph.phase))
            )
        for offer in store.offers(game.id, status="offered"):
            notes.append(
                _(
                    "game {id}: seat {seat} ({leaving}) is offered to {candidate} until {at} "
                    "(forumgm game sub)"
                ).format(
                    id=game.id,
                    seat=offer.seat,
                    seat_gen=inflect_name(offer.seat, "gen"),
                    leaving=offer.leaving,
                    candidate=offer.candidate,
                    candidate_dat=inflect_name(offer.candidate, "dat"),
                    at=local_time(offer.expires_at, tz),
                )
            )
        if stalled:
            assert ph is not None
            notes.append(
                _(
                    "game {id}: {phase} is published and the game's list of deadlines has run "
                    "out: add deadlines to [schedule] in its game file, then restart forumgm run"
                ).format(id=game.id, **phase_fields(ph.phase))
            )
        table.add_row(
            f"{game.id} {game.title}",
            game.ruleset,
            _("running: no deadlines left") if stalled else _game_status(store, game, tz),
            phase_words(ph, ended=ended) if ph else "—",
            _("list of deadlines ran out")
            if stalled
            else (local_time(ph.deadline, tz) if ph and not over else "—"),
            str(warnings),
            " ".join(f"{host_word(k)}:{v}" for k, v in counts.items() if v) or "—",
        )
    print_table(table)
    notes += waiting_turn(due, now)
    zones: dict[int, set[str]] = {}
    for game in store.games():
        zones.setdefault(game.board_id, set()).add(game.time_zone or "UTC")
    for board in store.boards():
        # In its games' zone when they share one (a board's games mostly do), else UTC.
        shared = zones.get(board.id, set())
        held = held_reason(board, tz=stored_zone(shared.pop()) if len(shared) == 1 else UTC)
        if held is not None:
            notes.append(_("board {url}: {why}").format(url=board.base_url, why=shown(held)))
    for note in notes:
        out.print(note, style="yellow")
    for game_id, item in failures:
        # One text per kind: the Russian word agrees with «пост» (не отправлен) or «ЛС».
        if item.kind is OutboxKind.PM:
            failed = _("game {id}: pm {marker} failed {n}×: {error}")
        else:
            failed = _("game {id}: post {marker} failed {n}×: {error}")
        out.print(
            failed.format(
                id=game_id,
                marker=item.marker,
                n=item.attempts,
                error=board_text(item.last_error or ""),
            ),
            style="red",
        )
    for game_id, message in strangers:  # read by no one but the host: not phase warnings
        where = _("post") if message.channel == "thread" else _("PM")
        out.print(
            _(
                "game {id}: {where} {item} by {author}, who does not play ({phase}, not read): "
                "{excerpt!r}"
            ).format(
                id=game_id,
                where=where,
                item=message.item_id,
                author=message.author,
                phase=message.phase,
                excerpt=message.excerpt,
            )
        )


def waiting_turn(due: dict[int, list[tuple[datetime, int]]], now: datetime) -> list[str]:
    """A line per game whose deadline passed and whose results are not drafted yet: games
    on one board are read one after another (its requests are spaced), so at a deadline many
    games share, some wait their turn."""
    lines = []
    for games in due.values():
        games.sort()
        for ahead, (deadline, game_id) in enumerate(games):
            late = int((now - deadline).total_seconds())
            lines.append(
                _(
                    "game {id}: its deadline passed {late} s ago; waiting its turn to be read and "
                    "resolved ({ahead} game(s) of its board before it)"
                ).format(id=game_id, late=late, ahead=ahead)
            )
    return lines


def stored_zone(name: str | None) -> tzinfo:
    """A stored game's time zone (UTC if it has none this Python knows)."""
    from engine.schedule import ScheduleError, zone

    try:
        return zone(name) if name else UTC
    except ScheduleError:
        return UTC


def _pairs(given: list[str] | None, option: str, what: str) -> list[tuple[int, str]]:
    """`ID=VALUE` options as (id, value); a malformed one is a usage error naming the form."""
    pairs = []
    for item in given or []:
        number, sep, value = item.partition("=")
        if not sep or not number.strip().lstrip("#").isdigit():
            raise typer.BadParameter(_("write {form}").format(form=what), param_hint=option)
        pairs.append((int(number.strip().lstrip("#")), value))
    return pairs


def cli_host() -> str:
    """Who runs this command, for the audit log: the system user."""
    import getpass

    try:
        return getpass.getuser()
    except (KeyError, OSError):
        return "host"


def review(
    game: Annotated[Path, typer.Argument(help="The game file.")],
    db: Db = None,
    fix: Annotated[
        list[str] | None,
        typer.Option(help="WARNING_ID=NAME: settle a warning with a name (one of its choices)."),
    ] = None,
    ignore: Annotated[
        list[int] | None,
        typer.Option(help="WARNING_ID: settle a warning with nothing (it no longer counts)."),
    ] = None,
    typed: Annotated[
        list[str] | None,
        typer.Option(
            help="WARNING_ID=TEXT: settle a warning with the order the player meant, typed as "
            'they would write it (e.g. 12="проверка Пети").'
        ),
    ] = None,
    drop: Annotated[
        list[int] | None, typer.Option(help="ORDER_ID: the order does not count.")
    ] = None,
    target: Annotated[
        list[str] | None, typer.Option("--set", help="ORDER_ID=NAME: the order names NAME instead.")
    ] = None,
    orders: Annotated[bool, typer.Option(help="List the phase's orders with their ids.")] = False,
    votes: Annotated[bool, typer.Option(help="Show the vote table (secret votes too).")] = False,
    deadline: Annotated[
        str | None,
        typer.Option(
            "--deadline",
            help="When the next deadline the results announce passed while they waited: shift "
            "(the next phase gets its whole length from now; every later deadline moves) or "
            "shorten (the schedule stays; the next phase ends at its next deadline).",
        ),
    ] = None,
    approve: Annotated[bool, typer.Option(help="Approve the drafts waiting for the host.")] = False,
    publish: Annotated[
        bool, typer.Option(help="Publish what is approved now (one step, as `run --once`).")
    ] = False,
    preview: Annotated[
        bool, typer.Option(help="Show the BBCode of every post and PM not on the board yet.")
    ] = False,
    log: Annotated[bool, typer.Option("--log", help="Show the game's audit log.")] = False,
    picture: Annotated[
        Path | None,
        typer.Option(help="Write the ruleset's picture of the game (twelve-rooms' map) as SVG."),
    ] = None,
) -> None:
    """Warnings with their source posts, fixes and overrides, a preview of the drafts, approval.

    The dashboard (`forumgm dashboard`) does the same through the same functions; every
    decision is written to the audit log (`--log`)."""
    from engine.app.review import Review, ReviewError, order_words

    rv = Review(driver_for(game, db, started=True), by=cli_host(), via="cli")
    try:
        for warning_id, name in _pairs(fix, "--fix", _("WARNING_ID=NAME")):
            rv.fix(warning_id, name)
        for warning_id in ignore or []:
            rv.ignore(warning_id)
        for warning_id, text in _pairs(typed, "--typed", _("WARNING_ID=ORDER TEXT")):
            read = rv.typed(warning_id, text)
            settled = "; ".join(order_words(o, player=True) for o in read)
            out.print(_("#{id} settled with: {orders}").format(id=warning_id, orders=settled))
        for order_id in drop or []:
            rv.drop(order_id)
        for order_id, name in _pairs(target, "--set", _("ORDER_ID=NAME")):
            rv.retarget(order_id, name)
        if deadline is not None:
            moved = rv.deadline(deadline.strip().lower())
            when = local_time(moved, rv.driver.config.schedule.tz)
            out.print(_("the next phase ends {at}; the results say so").format(at=when))
    except ReviewError as exc:
        out.print(str(exc))
        raise typer.Exit(2) from None
    _show_review(rv, orders=orders, votes=votes, preview=preview)
    if approve:
        count = rv.approve()
        if publish:
            out.print(_("approved {n} item(s)").format(n=count))
        else:
            out.print(_("approved {n} item(s): `forumgm run` publishes them").format(n=count))
    if publish:
        done = asyncio.run(rv.publish())
        out.print(
            _("published {n} item(s); {status}").format(n=done.sent, status=shown(done.status))
        )
    if log:
        _show_log(rv)
    if picture is not None:
        svg = rv.host_picture()
        if svg is None:
            out.print(_("{ruleset} games have no picture").format(ruleset=rv.driver.config.ruleset))
        else:
            write_or_exit(picture, svg)


def _show_review(rv: Review, *, orders: bool, votes: bool, preview: bool) -> None:
    from engine.app.review import describe_fix, order_words, outbox_line, phase_status_words

    ph = rv.phase
    if ph is not None:
        deadline = local_time(ph.deadline, rv.driver.config.schedule.tz)
        out.print(
            _("{phase} ({status}), deadline {at}").format(
                phase=phase_name(ph.phase), status=phase_status_words(ph.status), at=deadline
            )
        )
        names, living = rv.names(), set(rv.living())
        out_of_game = [n for n in names if n not in living]
        gone = _(" (out: {names})").format(names=", ".join(out_of_game)) if out_of_game else ""
        # A seat that changed hands reads «Дима (вместо Лёши)», as in `votes` and `tally`.
        seat = rv.seats()
        out.print(_("players: {names}").format(names=", ".join(seat(n) for n in names)) + gone)
        if orders:
            for stored in rv.orders():
                o = stored.order
                src = o.source.text if o.source else ""
                mark = _(" (overridden)") if stored.status.value == "overridden" else ""
                said = order_words(o, player=True, name=seat)
                out.print(f"  #{stored.id} {said} {src!r}{mark}")
        for stored_warning in rv.warnings():
            w = stored_warning.warning
            mark = "✓" if stored_warning.resolved_by_host else ("·" if w.accepted else "!")
            text = w.source.text if w.source else ""
            choices = _(" choices: {names}").format(names=", ".join(w.choices)) if w.choices else ""
            settled = describe_fix(stored_warning)
            fixed = _(" fixed: {fix}").format(fix=settled) if settled else ""
            # Why forumgm could not read a message is the one thing the host has to go on.
            why = f" — {warning_text(w.message)}" if w.code == UNREADABLE_MESSAGE else ""
            out.print(
                f"{mark} #{stored_warning.id} {w.code} {seat(w.player) if w.player else ''} "
                f"{text!r}{choices}{fixed}"
                f"{why}"
            )
            if w.message and not why:  # what the rules say is wrong, under the player's words
                out.print(f"    {warning_text(w.message)}")
        held = len(rv.held())
        if held:
            out.print(
                _("{n} warning(s) hold the results: fix, --ignore or --typed them").format(n=held)
            )
        for reason in rv.hold_reasons():
            out.print(_("held: {reason}").format(reason=shown(reason)))
        missed = rv.missed_deadline()
        if missed is not None and ph.next_deadline is not None:
            tz = rv.driver.config.schedule.tz
            said = _(" or ").join(
                _("--deadline {choice} (it ends {at})").format(choice=choice, at=local_time(at, tz))
                for choice, at in missed.items()
            )
            out.print(
                _(
                    "the next deadline these results announce, {at}, passed while they waited: "
                    "they wait for your choice: {choices}"
                ).format(at=local_time(ph.next_deadline, tz), choices=said),
                style="yellow",
            )
        lines: list[str] = _shown(_("the phase's progress"), rv.progress, [])
        if lines and ph.status.value == "open":
            out.print(_("{phase}, so far:").format(phase=phase_name(ph.phase)))
            for line in lines:
                out.print(f"  {line}")
        if votes:
            _shown(_("the vote table"), lambda: _show_votes(rv), None)
        tables: list[HostTable] = _shown(_("the ruleset's tables"), rv.host_tables, [])
        for table in tables:
            grid = Table(*table.columns, title=table.title)
            for row in table.rows:
                grid.add_row(*row)
            out.print(grid)
    drafts = rv.drafts()
    waiting = ngettext(
        "{n} draft(s) wait for approval", "{n} draft(s) wait for approval", len(drafts)
    )
    out.print(waiting.format(n=len(drafts)))
    if preview:
        for item in rv.unsent():
            out.print(outbox_line(item))
            out.print(item.bbcode)


def _shown(what: str, make: Callable[[], T], fallback: T) -> T:
    """`make()`; when it raises, one line saying what could not be shown (the traceback goes
    to the log) and `fallback`: `review` shows whatever the store holds."""
    try:
        return make()
    except Exception as exc:
        log.warning("review could not show %s", what, exc_info=True)
        reason = " ".join(f"{type(exc).__name__}: {exc}".split())[:160]
        out.print(
            _("{what} could not be shown ({reason}); the log has the details").format(
                what=what, reason=reason
            ),
            style="red",
        )
        return fallback


def _show_votes(rv: Review) -> None:
    view = rv.vote_view()
    if view is None:
        return
    # A seat that changed hands reads «Дима (вместо Лёши, вместо Оли)», as in `tally` and `votes`.
    seat = rv.seats()
    grid = Table(
        _("voter"),
        _("vote"),
        _("weight"),
        title=_("votes, {phase}").format(**phase_fields(view.phase)),
    )
    for voter, choice in view.votes.items():
        vote = seat(choice) if choice else "—"
        grid.add_row(seat(voter), vote, f"{view.weights.get(voter, 1):g}")
    out.print(grid)
    # Most votes first; equal totals keep the seating order (as the posts list them).
    ranked = sorted(view.totals.items(), key=lambda item: -item[1])
    totals = ", ".join(f"{seat(name)} {count:g}" for name, count in ranked)
    out.print(_("totals: {totals}").format(totals=totals or _("none")))


def _show_log(rv: Review) -> None:
    from engine.app.review import detail_words, host_word

    grid = Table(_("at"), _("by"), _("via"), _("phase"), _("action"), _("detail"))
    tz = rv.driver.config.schedule.tz
    for entry in rv.log():
        detail = detail_words(entry.detail, tz)  # as `host log` and the dashboard say it
        grid.add_row(
            local_time(entry.at, tz),
            entry.by,
            entry.via,
            phase_name(entry.phase) if entry.phase else "",
            host_word(entry.action),
            detail,
        )
    out.print(grid)


def votes(game: Annotated[Path, typer.Argument(help="The game file.")], db: Db = None) -> None:
    """Every counted vote and unvote, with a link to its post; a seat that changed hands shows
    as "A (replaced B)", as it stood when the vote was cast."""
    from engine.core.slots import Moment

    driver = driver_for(game, db, started=True)
    slots = driver.slots()

    def seat(name: str, order: Order) -> str:
        key = slots.slot(name)
        return (
            slot_label(slots.chain(key, Moment(at=order.at) if order.at else None)) if key else name
        )

    table = grid(_("phase"), _("voter"), _("vote"), _("at"), _("source"))
    tz = driver.config.schedule.tz
    for ph in driver.store.phases(driver.game_id):
        for stored in driver.store.parsed_orders(driver.game_id, ph.phase):
            order = stored.order
            if order.kind not in (OrderKind.VOTE, OrderKind.UNVOTE, OrderKind.NO_LYNCH):
                continue
            target = seat(order.target, order) if order.target else order.kind.value
            at = local_time(order.at, tz) if order.at else ""
            link = order.source.url or order.source.post_id or "" if order.source else ""
            table.add_row(phase_name(ph.phase), seat(order.player, order), target, at, str(link))
    print_table(table)

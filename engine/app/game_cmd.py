"""`forumgm game`: write a game file interactively and check one, with the line of every error."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, TypeVar

import typer
from rich.console import Console

from engine import i18n
from engine.app.console import console
from engine.app.game_file import known_rulesets, load_game
from engine.config import BOARD_ENGINES, ConfigError, ConfigProblem, GameConfig, url_problem
from engine.i18n import _, error_line, ngettext, shown
from engine.schedule import Schedule, ScheduleError, split_deadlines, zone

if TYPE_CHECKING:
    from engine.service.driver import GameDriver
    from engine.store import Store

app = typer.Typer(help="Game configuration files.", no_args_is_help=True)

AllowPast = Annotated[
    bool,
    typer.Option(
        "--allow-past",
        help="Accept a start or first deadline already past (turn 1 may be resolved at once).",
    ),
]

TEMPLATE = """\
# forumgm game file. `forumgm game validate {path}` checks it; docs/host-guide.md explains
# every key.
[game]
ruleset = "{ruleset}"
title = "{title}"
seed = {seed}
language = "{language}"
review = "{review}"          # always | warnings | auto
receipts = true              # answer each PM order with what was understood
vote_count = "off"           # or e.g. "every 12 hours": post the count when votes are public
# tag = "М12"                # several games on one GM account: players in more than one
                             # put the tag (or the title) in a PM's subject

[board]
engine = "{engine}"
url = "{url}"
thread = "{thread}"
gm_user = "{gm_user}"
password = "{password}"      # where the password is: env:VARIABLE or keyring:SERVICE

[schedule]
timezone = "{timezone}"
deadlines = {deadlines}
start = "{start}"

[options]
{options}
[players]
players = [{players}]
dead = []
replacements = {{}}          # new = "old": a substitute takes over the slot
aliases = {{}}               # "name" = ["short", "forms"] (quote Cyrillic names)
gender = {{}}                # "name" = "m" or "f", where the name does not tell
{visible}
[deal]                       # roles dealt by the seeded RNG; or a [roles] table name = "role"
{deal}
"""

T = TypeVar("T")


def _print_problems(out: Console, problems: list[ConfigProblem]) -> None:
    for problem in problems:
        out.print(f"  {problem}")


@app.command("validate")
def validate(
    files: Annotated[list[Path], typer.Argument(help="Game TOML files.")],
    allow_past: AllowPast = False,
    online: Annotated[
        bool,
        typer.Option(
            "--online",
            help="Also log in to the board as the GM and read the game thread's first page.",
        ),
    ] = False,
) -> None:
    """Check game files; every problem is printed with its line. Exit 1 if any. With
    --online the board is asked too: the GM's login and the game thread."""
    from engine.app.service_cmd import board_ready_or_exit, command_clock

    out = console()
    now = command_clock()()
    bad = False
    for path in files:
        try:
            config = load_game(path, now=now, allow_past=allow_past)
        except ConfigError as exc:
            bad = True
            n = len(exc.problems)  # English keeps "problem(s)", as hosts' scripts read it
            said = ngettext("{path}: {n} problem(s)", "{path}: {n} problem(s)", n)
            said = said.format(path=path, n=n)
            out.print(said, style="bold red")
            _print_problems(out, exc.problems)
            continue
        i18n.for_game(config.language)
        out.print(_("OK"), style="green", end=" ")
        out.print(
            _("{path}: {ruleset}, {n} players, deadlines {deadlines}, review {review}").format(
                path=path,
                ruleset=config.ruleset,
                n=len(config.players),
                deadlines=config.schedule.describe(),
                review=config.review,
            )
        )
        _print_problems(out, config.warnings)
        if online:
            try:
                ready = board_ready_or_exit(
                    config, None, command_clock(), then="", players=config.players
                )
                out.print(f"  {ready}")
            except typer.Exit:  # the line is printed; the next file is checked still
                bad = True
    raise typer.Exit(1 if bad else 0)


def _ask(question: str, check: Callable[[str], T], default: str | None = None) -> T:
    """Ask until the answer passes `check` (which raises ValueError with what is wrong)."""
    while True:
        answer = typer.prompt(question, default=default) if default is not None else None
        if answer is None:
            answer = typer.prompt(question)
        try:
            return check(str(answer).strip())
        except ValueError as exc:
            typer.echo(str(exc))


def _one_of(choices: list[str]) -> Callable[[str], str]:
    def check(answer: str) -> str:
        if answer not in choices:
            said = _("{answer!r}: one of {choices}")
            raise ValueError(said.format(answer=answer, choices=", ".join(choices)))
        return answer

    return check


def _counts(text: str, known: tuple[str, ...], groups: tuple[str, ...]) -> dict[str, int]:
    """`mafioso=2, commissar=1` → {"mafioso": 2, "commissar": 1}, every role id checked."""
    counts: dict[str, int] = {}
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        role, sep, number = (x.strip() for x in part.partition("="))
        if not sep or not number.isdigit():
            raise ValueError(_("{part!r}: write role=count, e.g. mafioso=2").format(part=part))
        if known and role.partition("@")[0] not in known and role not in groups:
            said = _("unknown role {role!r} (roles: {roles})")
            raise ValueError(said.format(role=role, roles=", ".join((*groups, *known))))
        counts[role] = counts.get(role, 0) + int(number)
    return counts


@app.command("new")
def new(path: Annotated[Path, typer.Argument(help="Where to write the game file.")]) -> None:
    """Write a game file by answering questions; each answer is checked as it is given.

    The game's language is asked first (by default the host's own, `--lang`/FORUMGM_LANG,
    else Russian, a game file's default), in the host's language, else English. The rest is
    asked in the host's language, else in the game's: a Russian host who chose none of his
    own reads every question in Russian, and the file is checked as `game validate` checks
    it, in its own language, so the lines around its problems should not be in another."""
    from engine.app.paths import writable
    from engine.app.service_cmd import command_clock

    trouble = writable(path)  # before the first question: no answers given for nothing
    if trouble is not None:
        typer.echo(trouble)
        raise typer.Exit(2)
    if path.exists() and not typer.confirm(
        _("{path} exists. Overwrite?").format(path=path), default=False
    ):
        raise typer.Exit(1)
    now = command_clock()()
    default_language = i18n.chosen() or "ru"
    language = _ask(_("Language (ru, en)"), _one_of(["ru", "en"]), default_language)
    i18n.for_game(language)  # the rest in the game's language, unless the host chose his own
    known = known_rulesets()
    asked = _("Ruleset ({choices})").format(choices=", ".join(known))
    ruleset_id = _ask(asked, _one_of(list(known)), "classic")
    ruleset = known[ruleset_id]
    title = typer.prompt(_("Title"), default="Мафия")
    engines = list(BOARD_ENGINES)
    asked = _("Board engine ({choices})").format(choices=", ".join(engines))
    engine = _ask(asked, _one_of(engines), "phpbb")
    if engine == "local":
        typer.echo(
            _("The local board is a rehearsal board: `forumgm board local init` creates it.")
        )

    def board_url(answer: str) -> str:
        trouble = url_problem(engine, answer)
        if trouble:
            raise ValueError(trouble)
        return answer

    local_default = "sqlite:///rehearsal-board.sqlite" if engine == "local" else None
    url = _ask(_("Board URL"), board_url, local_default)
    thread = _ask(
        _("Game thread id"), _nonempty(_("the thread id")), "1" if engine == "local" else None
    )
    gm_user = _ask(_("GM account name"), _nonempty(_("the GM account")), None)
    env = typer.prompt(
        _("Environment variable holding the GM password"), default="FORUMGM_GM_PASSWORD"
    )
    timezone = _ask(_("Time zone"), _zone, "Europe/Moscow")
    deadlines = _ask(
        _("Deadlines"), lambda a: (Schedule.parse(a, timezone), a)[1], _("every day 19:00")
    )
    schedule = Schedule.parse(deadlines, timezone)

    def start_time(answer: str) -> str:
        try:
            when = datetime.fromisoformat(answer)
        except ValueError:
            said = _("{answer!r}: write YYYY-MM-DD HH:MM, e.g. 2026-12-05 19:00")
            raise ValueError(said.format(answer=answer)) from None
        when = when.replace(tzinfo=schedule.tz) if when.tzinfo is None else when
        if when < now:
            raise ValueError(
                _("{answer} is already past: give a time to come").format(answer=answer)
            )
        return answer

    start = _ask(_("First phase opens at (YYYY-MM-DD HH:MM)"), start_time)
    names = _ask(_("Players, comma-separated"), _names)
    deal_lines, visible_lines = "", ""
    if ruleset.deal_option is not None:
        deal_lines = _deal(ruleset, names)
    if ruleset.visible_role_ids:
        visible_lines = _visible(ruleset.visible_role_ids, names)
    seed = _ask(_("Seed"), _whole_number, "1")
    review = _ask(
        _("Review (always, warnings, auto)"), _one_of(["always", "warnings", "auto"]), "warnings"
    )
    text = TEMPLATE.format(
        path=path,
        options=ruleset.game_file_options(names),
        ruleset=ruleset_id,
        title=title.replace('"', "'"),
        seed=seed,
        language=language,
        review=review,
        engine=engine,
        url=url,
        thread=thread,
        gm_user=gm_user.replace('"', "'"),
        password=f"env:{env}",
        timezone=timezone,
        deadlines=_deadlines_toml(schedule, deadlines),
        start=start,
        players=", ".join(_quoted(n) for n in names),
        visible=visible_lines,
        deal=deal_lines,
    )
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as exc:  # the answers are not lost: the file is printed whole
        said = _("cannot write {path} ({error}); here is the game file:")
        typer.echo(said.format(path=path, error=exc.strerror or exc) + "\n")
        typer.echo(text)
        typer.echo(_("Save it to a file of yours, then: forumgm game validate FILE"))
        raise typer.Exit(1) from None
    typer.echo(_("Wrote {path}.").format(path=path))
    try:
        config = load_game(path, now=now)
    except ConfigError as exc:
        typer.echo(_("It needs attention:"))
        for problem in exc.problems:
            typer.echo(f"  {problem}")
        raise typer.Exit(1) from None
    typer.echo(_("It is valid."))
    for warning in config.warnings:
        typer.echo(f"  {warning}")


def _deadlines_toml(schedule: Schedule, answer: str) -> str:
    """The `deadlines` value: the rule as written, or a TOML list of the given deadlines."""
    if schedule.explicit:
        return "[" + ", ".join(_quoted(part) for part in split_deadlines(answer)) + "]"
    return _quoted(answer)


def _quoted(name: str) -> str:
    return '"' + name.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _nonempty(what: str) -> Callable[[str], str]:
    def check(answer: str) -> str:
        if not answer:
            raise ValueError(_("{what} is needed").format(what=what))
        return answer

    return check


def _whole_number(answer: str) -> int:
    try:
        return int(answer)
    except ValueError:
        raise ValueError(_("{answer!r}: a whole number, e.g. 1").format(answer=answer)) from None


def _zone(answer: str) -> str:
    try:
        zone(answer)
    except ScheduleError as exc:
        raise ValueError(str(exc)) from None
    return answer


def _names(answer: str) -> list[str]:
    names = [n.strip() for n in answer.split(",") if n.strip()]
    if len(names) < 2:
        raise ValueError(_("a game needs at least two players, separated by commas"))
    seen: dict[str, str] = {}
    for name in names:
        if name.casefold() in seen:
            twice = seen[name.casefold()]
            same = repr(twice) if twice == name else _(" and ").join((repr(twice), repr(name)))
            raise ValueError(
                _("{names}: a name is listed twice (one name per player)").format(names=same)
            )
        seen[name.casefold()] = name
    return names


def _deal(ruleset: object, names: list[str]) -> str:
    """The [deal] lines; seats left over are honest citizens where the ruleset has them."""
    role_ids: tuple[str, ...] = getattr(ruleset, "role_ids", ())
    groups: tuple[str, ...] = getattr(ruleset, "deal_groups", ())
    filler = "citizen" if "citizen" in role_ids else None

    def check(answer: str) -> dict[str, int]:
        counts = _counts(answer, role_ids, groups)
        total = sum(counts.values())
        if total > len(names):
            raise ValueError(_roles_for(total, len(names)))
        if filler is None and total and total != len(names):
            said = _("{roles}: give one role per player")
            raise ValueError(said.format(roles=_roles_for(total, len(names))))
        return counts

    named = [r for r in role_ids if r != filler]
    if {"mafioso", "commissar"} <= set(role_ids):
        example = "mafioso=2, commissar=1"
    else:  # the ruleset's own roles: «manager=1, guarantor=1» for twelve-rooms
        example = ", ".join(f"{r}=1" for r in named[:2]) or _("role=count")
    if filler is not None:
        asked = _("Roles to deal, e.g. {example} (the other seats: {filler}; empty: none)")
    else:
        asked = _("Roles to deal, e.g. {example} (the other seats: none; empty: none)")
    counts = _ask(asked.format(example=example, filler=filler), check, "")
    if counts and filler is not None and sum(counts.values()) < len(names):
        counts[filler] = counts.get(filler, 0) + len(names) - sum(counts.values())
        said = _("The other seats are dealt as {role}: {n} in all.")
        typer.echo(said.format(role=filler, n=counts[filler]))
    return "\n".join(f"{_quoted(k) if '@' in k else k} = {v}" for k, v in counts.items())


def _roles_for(roles: int, players: int) -> str:
    """«6 roles for 5 players», each count in its own plural form."""
    said = ngettext("{n} role", "{n} roles", roles).format(n=roles)
    return said + " " + ngettext("for {n} player", "for {n} players", players).format(n=players)


def _visible(visible_ids: tuple[str, ...], names: list[str]) -> str:
    def check(answer: str) -> dict[str, str]:
        chosen: dict[str, str] = {}
        for part in (p.strip() for p in answer.split(",")):
            if not part:
                continue
            who, sep, role = (x.strip() for x in part.partition("="))
            if not sep or who not in names:
                said = _("{part!r}: write player=visible_role for a listed player")
                raise ValueError(said.format(part=part))
            if role not in visible_ids:
                said = _("unknown visible role {role!r} (known: {known})")
                raise ValueError(said.format(role=role, known=", ".join(visible_ids)))
            holder = next((p for p, r in chosen.items() if r == role), None)
            if holder is not None:
                said = _("{role} is given to {first} and {second}: one player per visible role")
                raise ValueError(said.format(role=role, first=holder, second=who))
            chosen[who] = role
        return chosen

    chosen = _ask(_("Visible roles, player=role, comma-separated (empty: none)"), check, "")
    pairs = ", ".join(f"{_quoted(k)} = {_quoted(v)}" for k, v in chosen.items())
    return f"visible_roles = {{ {pairs} }}\n" if chosen else "visible_roles = {}\n"


@app.command("start")
def start(
    path: Annotated[Path, typer.Argument(help="The game file.")],
    db: Annotated[str | None, typer.Option("--db", help="Store URL or SQLite file.")] = None,
    allow_past: AllowPast = False,
) -> None:
    """Deal roles and queue the opening post and every role PM for the host's approval."""
    from engine.app.service_cmd import (
        board_ready_or_exit,
        command_clock,
        config_or_exit,
        driver_for,
        store_or_exit,
    )

    clock = command_clock()
    config_or_exit(path)  # every problem of the file first, before a store is made
    store = store_or_exit(db)
    if (game_id := _started_game(store, path)) is not None:
        typer.echo(_("game {id} has already started").format(id=game_id))
        raise typer.Exit(1)
    # Only a game yet to start is held to its start time: a past one would be resolved at once.
    config: GameConfig = config_or_exit(path, now=clock(), allow_past=allow_past)
    for warning in config.warnings:
        typer.echo(f"{path}: {warning}")
    # The thread, the GM's login and every player's account before anything is queued or
    # stored: players with their roles and no thread to play in is what a missing thread did.
    typer.echo(board_ready_or_exit(config, store, clock, players=config.players))
    driver = driver_for(path, db, store, clock=clock)
    driver.start()
    drafts = driver.store.outbox(driver.game_id)
    waiting = sum(1 for i in drafts if i.status == "draft")
    typer.echo(
        _("game {id} started: {n} posts and PMs queued").format(id=driver.game_id, n=len(drafts))
    )
    if waiting:
        where = f" --db {db}" if db else ""
        typer.echo(
            _("{n} wait for approval: {command} --preview, then --approve").format(
                n=waiting, command=f"forumgm review {path}{where}"
            )
        )


def _account_or_exit(driver: GameDriver, name: str) -> None:
    """The substitute's board account exists (the board's member lookup), or one line and
    exit 1 before the seat changes: every PM to a seat with no account would fail."""
    import asyncio

    from forums.errors import BoardError

    if driver.login_guard is not None:
        driver.login_guard.automatic = False  # the host's own try, as `run --once`
    board = driver.board

    async def look() -> object:
        try:
            return await board.find_user(name)
        finally:
            await board.close()

    url = driver.config.url
    try:
        found = asyncio.run(look())
    except BoardError as exc:
        said = _(
            "cannot look {name!r} up on {url} ({error}): the seat did not change; try again "
            "when the board answers"
        )
        typer.echo(said.format(name=name, url=url, error=shown(error_line(exc))))
        raise typer.Exit(1) from None
    if found is None:
        said = _(
            "no account {name!r} on {url}: the substitute needs a board account (write the "
            "name as the board spells it); the seat did not change"
        )
        typer.echo(said.format(name=name, url=url))
        raise typer.Exit(1)


def _started_game(store: Store, path: Path) -> int | None:
    """The id of the game the file names, if it was started in this store."""
    from engine.app.service_cmd import config_or_exit

    config = config_or_exit(path)
    board = store.find_board(config.url, config.gm_user)
    game = store.find_game(board.id, config.thread) if board is not None else None
    if game is None or store.load_state(game.id) is None:
        return None
    return game.id


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
    db: Annotated[str | None, typer.Option("--db", help="Store URL or SQLite file.")] = None,
) -> None:
    """A substitute takes over a seat from now on: the former player's orders no longer count,
    every PM for the seat goes to the substitute, who gets the role PM (and the history)."""
    from engine.app.service_cmd import driver_for
    from engine.service.seats import HISTORY
    from engine.store.repo.base import StoreError

    if history not in HISTORY:
        said = _("one of {choices}").format(choices=", ".join(HISTORY))
        raise typer.BadParameter(said, param_hint="--history")
    driver = driver_for(path, db, started=True)
    asked = driver.clock()  # the seat changes hands when the host asked, not after the lookup
    _account_or_exit(driver, new)
    try:
        seat = driver.replace(old, new, history=history, at=asked)
    except StoreError as exc:
        typer.echo(i18n.shown(i18n.said_of(exc)))
        raise typer.Exit(1) from None
    said = _("{name} now plays seat {seat}")
    genders = driver.config.genders
    label = driver.slots().label(seat)
    typer.echo(said.format(name=label, new=new, seat=seat, seat_gen=_case(seat, "gen", genders)))
    item = driver.store.find_by_marker(driver.marker("handover", seat, new))
    if item is not None and item.status.value == "draft":
        typer.echo(_("The PM to the substitute waits until the game's start is approved."))
    elif history == "results":
        typer.echo(_("{name} gets the role PM and the seat history").format(name=new))
    else:
        typer.echo(_("{name} gets the role PM").format(name=new))
    from engine.app.game_file import write_replacement

    holders = driver.slots().holders(seat)
    previous = holders[holders.index(new) - 1]
    row = next(r for r in driver.store.players(driver.game_id) if r.name == new)
    since = (row.since or driver.clock()).astimezone(driver.config.schedule.tz)
    try:
        write_replacement(path, new, previous, since)
    except OSError as exc:
        said = _(
            "{path}: cannot write it ({error}): the store has the substitute; add under "
            "[players] replacements: {line}"
        )
        line = (
            f'"{new}" = {{ replaces = "{previous}", '
            f"at = {since.replace(microsecond=0).isoformat()} }}"
        )
        typer.echo(said.format(path=path, error=exc.strerror or exc, line=line))
        raise typer.Exit(1) from None
    said = _("{path}: [players] replacements now says {new} replaces {previous}")
    previous_acc = _case(previous, "acc", driver.config.genders)
    typer.echo(said.format(path=path, new=new, previous=previous, previous_acc=previous_acc))


@app.command("sub")
def sub(
    path: Annotated[Path, typer.Argument(help="The game file.")],
    old: Annotated[str, typer.Argument(help="The player leaving (or anyone who held the seat).")],
    hours: Annotated[
        float | None,
        typer.Option(
            help="Hours the player of the reserve has to accept (default: [activity] "
            "offer_hours, else 24).",
            min=0.1,
        ),
    ] = None,
    db: Annotated[str | None, typer.Option("--db", help="Store URL or SQLite file.")] = None,
) -> None:
    """Offer the seat to the next player of [players] reserve by PM (nothing of the role):
    when he answers «беру» / "accept" in time, he takes it as `game replace` does; «нет»
    or no answer passes it to the next."""
    from engine.app.service_cmd import driver_for
    from engine.service.substitutes import DEFAULT_HOURS, offer_seat
    from engine.store.repo.base import StoreError

    driver = driver_for(path, db, started=True)
    activity = driver.config.activity
    wait = hours or (activity.offer_hours if activity is not None else DEFAULT_HOURS)
    try:
        offer = offer_seat(driver, old, reason="host", now=driver.clock(), hours=wait)
    except StoreError as exc:
        typer.echo(i18n.shown(i18n.said_of(exc)))
        raise typer.Exit(1) from None
    from engine.clock import local_time

    until = local_time(offer.expires_at, driver.config.schedule.tz)
    said = _(
        "seat {seat} ({leaving}) offered to {candidate} until {until}; forumgm run sends the PM "
        "and takes the answer"
    )
    genders = driver.config.genders
    typer.echo(
        said.format(
            seat=offer.seat,
            seat_gen=_case(offer.seat, "gen", genders),
            leaving=offer.leaving,
            candidate=offer.candidate,
            candidate_dat=_case(offer.candidate, "dat", genders),
            until=until,
        )
    )


def _case(name: str, case: str, genders: dict[str, str]) -> str:
    """A player's name in a Russian case where the line is Russian («на месте Оли»): a
    translation may name the field `{seat_gen}` where the English has `{seat}`."""
    if i18n.current() != "ru":
        return name
    from engine.wording import inflect_name

    gender = genders.get(name)
    return inflect_name(name, case, "f" if gender == "f" else "m" if gender == "m" else None)

"""`forumgm simulate GAME.toml`: how a setup plays out over thousands of simulated games.

The game file's ruleset, seats, deal and options are played with simulated players (the demo's
bots) through the same rules that resolve real games, with no board and no store. The answer
is each side's win rate with its 95% interval, the length of a game, and how often each role
survives; `--vary` puts setups side by side.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table as RichTable

from engine import i18n
from engine.app.console import console, out
from engine.app.service_cmd import config_or_exit
from engine.i18n import L_, _, ngettext


def simulate(
    game: Annotated[Path, typer.Argument(help="The game file whose setup is played.")],
    games: Annotated[int, typer.Option(min=1, help="Games to play (of each setup).")] = 10_000,
    seed: Annotated[
        int, typer.Option(help="Seed of the run: the same seed gives the same figures.")
    ] = 1,
    workers: Annotated[
        int | None, typer.Option(min=1, help="Processes to play in (default: every core).")
    ] = None,
    vary: Annotated[
        list[str] | None,
        typer.Option(
            help="Play several setups side by side: deal.ROLE=2..4 or options.NAME=a,b "
            "(repeat for every combination)."
        ),
    ] = None,
    policy: Annotated[
        str,
        typer.Option(
            help="How players decide: smart (the demo's bots, the default), random "
            "(random legal orders), or per side, e.g. smart,mafia=random."
        ),
    ] = "smart",
    as_json: Annotated[bool, typer.Option("--json", help="Print the figures as JSON.")] = False,
) -> None:
    """Play the game file's setup thousands of times and print each side's chances."""
    import rulesets
    from engine.sim.play import SimError, kind_of
    from engine.sim.policy import Policy, PolicyError
    from engine.sim.run import default_workers
    from engine.sim.run import simulate as run
    from engine.sim.setup import SetupError, Vary, variants

    config = config_or_exit(game, allow_past=True)
    rulesets.find(config.ruleset)
    try:
        kind = kind_of(config.ruleset)
    except SimError as exc:
        out.print(f"{game}: {i18n.shown(i18n.said_of(exc))}.")
        raise typer.Exit(2) from None
    try:
        chosen = Policy.parse(policy)
        setups = variants(config, [Vary.parse(v) for v in vary or []])
        chosen.check_sides(
            p.faction or "" for s in setups for p in _dealt(s.ruleset, s.seats, s.options)
        )
    except (PolicyError, SetupError) as exc:
        out.print(f"{game}: {i18n.shown(i18n.said_of(exc))}")
        raise typer.Exit(2) from None
    workers = workers or default_workers()
    total = games * len(setups)
    started = time.perf_counter()
    summaries = _with_progress(
        total,
        not as_json or sys.stderr.isatty(),
        lambda advance: run(
            setups, chosen, games=games, seed=seed, workers=workers, advance=advance
        ),
    )
    seconds = time.perf_counter() - started
    report = {
        "file": str(game),
        "ruleset": config.ruleset,
        "players": len(config.players),
        "games": games,
        "seed": seed,
        "workers": workers,
        "seconds": round(seconds, 3),
        "policy": {
            "name": str(chosen),
            "source": kind.source,
            "sides": _policy_lines(kind.descriptions, chosen, setups),
        },
        "length_unit": kind.unit,
        "max_phases": kind.max_phases,
        "setups": [
            {"label": s.label, "changes": list(s.changes), **summary.as_json()}
            for s, summary in zip(setups, summaries, strict=True)
        ],
    }
    if as_json:
        typer.echo(json.dumps(report, ensure_ascii=False, indent=2))
        return
    _print(report, config.deal)


def _dealt(ruleset_id: str, seats: Any, options: Any) -> list[Any]:
    from engine.core.ruleset import get_ruleset

    state, _ = get_ruleset(ruleset_id).setup(seats, options, 0)
    return list(state.players)


def _with_progress(total: int, show: bool, work: Any) -> Any:
    if not show:
        return work(None)
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

    progress = Progress(
        "[progress.description]{task.description}",
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=console(stderr=True),
        transient=True,
        auto_refresh=False,  # no refresh thread: the worker processes fork from this one
    )
    with progress:
        task = progress.add_task(_("games"), total=total)

        def advance(n: int) -> None:
            progress.advance(task, n)
            progress.refresh()

        return work(advance)


def _policy_lines(
    descriptions: dict[str, dict[str, str]], policy: Any, setups: Any
) -> dict[str, str]:
    """What each side's players do under this policy, side by side."""
    sides: list[str] = []
    for s in setups:
        for p in _dealt(s.ruleset, s.seats, s.options):
            if (p.faction or "") not in sides:
                sides.append(p.faction or "")
    out_lines: dict[str, str] = {}
    for side in sides:
        level = policy.level(side)
        table = descriptions.get(level, {})
        key = side if side in table else ("clan" if side.startswith("mafia") else "*")
        text = table.get(key) or table.get("*") or ""
        # English in the JSON report; shown in the host's language (`_print`).
        out_lines[side or "everyone"] = L_("{level}: {text}", level=level, text=text)
    return out_lines


def _unit(unit: str) -> str:
    """What a game's length counts (engine.sim.play.kind_of), in the host's language."""
    return {
        "turns": _("turns"),
        "phases (days and nights)": _("phases (days and nights)"),
        "turns (turn 0 included)": _("turns (turn 0 included)"),
        "phases (the draft, days and nights)": _("phases (the draft, days and nights)"),
    }.get(unit, unit)


def _count(n: int) -> str:
    """10,000 in English, «10 000» in Russian (where a comma is the decimal mark)."""
    return f"{n:,}" if i18n.current() == "en" else f"{n:,}".replace(",", "\u00a0")


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _print(report: dict[str, Any], deal: dict[str, int]) -> None:
    setups = report["setups"]
    c = console()
    dealt = ", ".join(f"{role} {n}" for role, n in deal.items()) if deal else _("roles as given")
    # English keeps «worker(s)» as it always printed; Russian has its three forms.
    players = ngettext("{n} players", "{n} players", report["players"])
    workers = ngettext("{n} worker(s)", "{n} worker(s)", report["workers"])
    c.print(
        _(
            "{file}: {ruleset}, {players} ({dealt}); {games} games per setup, seed {seed}, "
            "{workers}, {seconds} s"
        ).format(
            file=report["file"],
            ruleset=report["ruleset"],
            players=players.format(n=report["players"]),
            dealt=dealt,
            games=_count(report["games"]),
            seed=report["seed"],
            workers=workers.format(n=report["workers"]),
            seconds=f"{report['seconds']:.1f}",
        )
    )
    policy = report["policy"]
    if len(setups) == 1 and setups[0]["changes"]:
        c.print(_("Setup varied: {label}").format(label=setups[0]["label"]))
    c.print(
        _("Players: --policy {name}, after {source}").format(
            name=policy["name"], source=policy["source"]
        )
    )
    for side, line in policy["sides"].items():
        c.print(f"  {_('everyone') if side == 'everyone' else side} — {i18n.shown(line)}")
    c.print()
    wins = _table(_("Win rate (95% interval), games won"), _("side"), setups, True)
    sides: list[str] = []
    for s in setups:
        sides += [side for side in s["wins"] if side not in sides]
    for side in sides:
        cells = []
        for s in setups:
            w = s["wins"].get(side)
            if w is None:
                cells.append("0")
                continue
            low, high = w["interval95"]
            cells.append(f"{_pct(w['rate'])}  ({_pct(low)}–{_pct(high)})  {_count(w['games'])}")
        wins.add_row(_side_label(side, report), *cells)
    c.print(wins)
    length = _table(
        _("Length, {unit}").format(unit=_unit(report["length_unit"])), "", setups, False
    )
    rows = [
        (_("mean ± sd"), lambda g: f"{g['mean']:.2f} ± {g['sd']:.2f}"),
        (_("median"), lambda g: str(g["median"])),
        (_("90% of games within"), lambda g: str(g["p90"])),
        (_("shortest – longest"), lambda g: f"{g['min']} – {g['max']}"),
    ]
    for label, cell in rows:
        length.add_row(label, *(cell(s["length"]) for s in setups))
    c.print(length)
    survival = _table(
        _("Survived to the end (of the players dealt the role)"), _("role"), setups, True
    )
    roles: list[str] = []
    for s in setups:
        roles += [r for r in s["survival"] if r not in roles]
    for role in roles:
        cells = []
        for s in setups:
            got = s["survival"].get(role)
            cells.append(
                _("{rate}  of {dealt}").format(rate=_pct(got["rate"]), dealt=_count(got["dealt"]))
                if got
                else "—"
            )
        survival.add_row(role, *cells)
    c.print(survival)


def _table(title: str, first: str, setups: list[dict[str, Any]], header: bool) -> RichTable:
    """A table with a column per setup (headed by what the setup varied, where several)."""
    many = len(setups) > 1
    table = RichTable(title=title, title_justify="left", show_header=header or many)
    table.add_column(first)
    for s in setups:
        table.add_column(s["label"] if many else "", justify="right")
    return table


def _side_label(side: str, report: dict[str, Any]) -> str:
    if side == "none":
        n = report["max_phases"]
        return ngettext("no winner in {n} phases", "no winner in {n} phases", n).format(n=n)
    return side

"""`forumgm scenario run`: exit 0 when every expectation holds, 1 on a difference, 2 on a bad file."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer

from engine.app.console import console
from engine.core.events import Event
from engine.scenario.loader import ScenarioError, load_scenario
from engine.scenario.runner import ScenarioResult, run_scenario

app = typer.Typer(help="Run scenario files: the executable rulebook.", no_args_is_help=True)


def _event_json(event: Event) -> dict[str, Any]:
    return event.as_dict()


def _result_json(result: ScenarioResult) -> dict[str, Any]:
    session = result.session
    return {
        "file": result.path,
        "passed": result.passed,
        "failures": [f.as_dict() for f in result.failures],
        "phases": [
            {
                "phase": str(log.phase.id),
                "deadline": log.phase.deadline.isoformat(),
                "events": [_event_json(e) for e in log.events],
                "parse_warnings": [
                    {"code": w.code, "player": w.player, "action": w.action, "message": w.message}
                    for w in log.warnings
                ],
                "in_play": log.in_play_after,
            }
            for log in result.phases
        ],
        "state": session.state.to_json() if session else None,
    }


@app.command("run")
def run(
    files: Annotated[list[Path], typer.Argument(help="Scenario YAML files.")],
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the resulting state and event log as JSON.")
    ] = False,
) -> None:
    """Run scenarios and compare each phase with its `expect`."""
    out = console(stderr=as_json)
    code = 0
    report: list[dict[str, Any]] = []
    for path in files:
        try:
            result = run_scenario(load_scenario(path))
        except ScenarioError as exc:
            out.print("INVALID", style="bold red", end=" ")
            out.print(str(exc))
            report.append({"file": str(path), "invalid": str(exc)})
            code = 2
            continue
        report.append(_result_json(result))
        if result.passed:
            out.print("PASS", style="green", end=" ")
            out.print(str(path))
            continue
        code = max(code, 1)
        out.print("FAIL", style="bold red", end=" ")
        out.print(str(path))
        for failure in result.failures:
            out.print(failure.render())
    if as_json:
        print(
            json.dumps(
                report if len(report) != 1 else report[0], ensure_ascii=False, indent=2, default=str
            )
        )
    raise typer.Exit(code)

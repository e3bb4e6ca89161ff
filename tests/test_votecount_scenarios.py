"""Every votecount scenario file is a test: the spec's examples and the project's own rulebook.

One pytest case per YAML file. A failing case shows the rendered differences, as
`forumgm scenario run` prints them. The spec's examples live outside the repository
(`../shared/spec/examples/votecount`); copies are kept in `tests/scenarios/votecount/spec/` so a
fresh clone tests them too.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.scenario.loader import load_scenario
from engine.scenario.runner import run_scenario

REPO = Path(__file__).resolve().parent.parent
SPEC_EXAMPLES = REPO.parent / "shared" / "spec" / "examples" / "votecount"
LOCAL_SCENARIOS = REPO / "tests" / "scenarios" / "votecount"


def _local_files() -> list[Path]:
    return sorted(LOCAL_SCENARIOS.rglob("*.yaml"))


def _spec_files() -> list[Path]:
    return sorted(SPEC_EXAMPLES.glob("*.yaml")) if SPEC_EXAMPLES.is_dir() else []


def _run(path: Path) -> None:
    result = run_scenario(load_scenario(path))
    if not result.passed:
        rendered = "\n".join(f.render() for f in result.failures)
        pytest.fail(f"{path.name}:\n{rendered}", pytrace=False)


@pytest.mark.parametrize("path", _local_files(), ids=lambda p: str(p.relative_to(LOCAL_SCENARIOS)))
def test_project_scenario(path: Path) -> None:
    _run(path)


@pytest.mark.parametrize(
    "path",
    _spec_files()
    or [
        pytest.param(
            None,
            marks=pytest.mark.skip(
                reason=f"{SPEC_EXAMPLES} is absent (no ../shared checkout); "
                "the copies in tests/scenarios/votecount/spec/ still run"
            ),
        )
    ],
    ids=lambda p: p.name if isinstance(p, Path) else "no-shared-spec",
)
def test_spec_example(path: Path) -> None:
    _run(path)


def test_spec_copies_are_current() -> None:
    """The copies in tests/scenarios/votecount/spec/ match the spec (comment line aside)."""
    if not SPEC_EXAMPLES.is_dir():
        pytest.skip(f"{SPEC_EXAMPLES} is absent (no ../shared checkout)")
    for original in _spec_files():
        copy = LOCAL_SCENARIOS / "spec" / original.name
        assert copy.exists(), f"missing copy of {original.name} in {copy.parent}"
        lines = copy.read_text(encoding="utf-8").splitlines(keepends=True)
        assert lines[0].startswith("# Copied"), f"{copy.name}: first line must name the source"
        assert "".join(lines[1:]) == original.read_text(encoding="utf-8"), (
            f"{copy.name} differs from {original}; copy it again"
        )


def test_there_are_enough_scenarios() -> None:
    own = [p for p in _local_files() if p.parent == LOCAL_SCENARIOS]
    assert len(own) >= 6

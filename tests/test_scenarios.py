"""Every scenario file is a test: the spec's examples and the project's own rulebook.

One pytest case per YAML file, for every ruleset with scenarios. A failing case shows the
rendered differences, as `forumgm scenario run` prints them. The spec's examples live
outside the repository (`../shared/spec/examples/<ruleset>`); copies are kept in
`tests/scenarios/<ruleset>/spec/` so a fresh clone tests them too.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.scenario.loader import load_scenario
from engine.scenario.runner import run_scenario

REPO = Path(__file__).resolve().parent.parent
SPEC_ROOT = REPO.parent / "shared" / "spec" / "examples"
LOCAL_ROOT = REPO / "tests" / "scenarios"

MINIMUM_OWN = {"classic": 18, "votecount": 6, "yakuza": 30, "minimafik": 30, "twelve-rooms": 30}
"""How many scenarios of its own each ruleset must keep (the issues ask for these)."""


def _local_files() -> list[Path]:
    return sorted(p for ruleset in MINIMUM_OWN for p in (LOCAL_ROOT / ruleset).rglob("*.yaml"))


def _spec_files() -> list[Path]:
    return sorted(p for ruleset in MINIMUM_OWN for p in (SPEC_ROOT / ruleset).glob("*.yaml"))


def _run(path: Path) -> None:
    result = run_scenario(load_scenario(path))
    if not result.passed:
        rendered = "\n".join(f.render() for f in result.failures)
        pytest.fail(f"{path.name}:\n{rendered}", pytrace=False)


@pytest.mark.parametrize("path", _local_files(), ids=lambda p: str(p.relative_to(LOCAL_ROOT)))
def test_project_scenario(path: Path) -> None:
    _run(path)


@pytest.mark.parametrize(
    "path",
    _spec_files()
    or [
        pytest.param(
            None,
            marks=pytest.mark.skip(
                reason=f"{SPEC_ROOT} is absent (no ../shared checkout); "
                "the copies in tests/scenarios/<ruleset>/spec/ still run"
            ),
        )
    ],
    ids=lambda p: f"{p.parent.name}/{p.name}" if isinstance(p, Path) else "no-shared-spec",
)
def test_spec_example(path: Path) -> None:
    _run(path)


@pytest.mark.parametrize("ruleset", sorted(MINIMUM_OWN))
def test_spec_copies_are_current(ruleset: str) -> None:
    """The copies in tests/scenarios/<ruleset>/spec/ match the spec (comment line aside)."""
    originals = sorted((SPEC_ROOT / ruleset).glob("*.yaml"))
    if not originals:
        pytest.skip(f"{SPEC_ROOT / ruleset} is absent (no ../shared checkout)")
    for original in originals:
        copy = LOCAL_ROOT / ruleset / "spec" / original.name
        assert copy.exists(), f"missing copy of {original.name} in {copy.parent}"
        lines = copy.read_text(encoding="utf-8").splitlines(keepends=True)
        assert lines[0].startswith("# Copied"), f"{copy.name}: first line must name the source"
        assert "".join(lines[1:]) == original.read_text(encoding="utf-8"), (
            f"{copy.name} differs from {original}; copy it again"
        )


@pytest.mark.parametrize(("ruleset", "minimum"), sorted(MINIMUM_OWN.items()))
def test_there_are_enough_scenarios(ruleset: str, minimum: int) -> None:
    own = [p for p in (LOCAL_ROOT / ruleset).glob("*.yaml")]
    assert len(own) >= minimum

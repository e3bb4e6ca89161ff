"""docs/security.md cannot drift: every test and file it names exists, every threat has a test.

The page lists each attack of issues 10 and 22 with what forumgm does about it and the tests
that pin it (`tests/….py::test_name`). A renamed or deleted test, or a section left without one,
fails here.
"""

from __future__ import annotations

import ast
import re
from functools import cache
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DOC = REPO / "docs" / "security.md"
_TEST = re.compile(r"`(tests/[\w/]+\.py)::(\w+)`")
_FILE = re.compile(r"`((?:tests|benchmarks|docs)/[\w./-]+\.(?:py|yaml|md))`")
_SECTION = re.compile(r"^## (\d+)\. (.+)$", re.MULTILINE)


@cache
def _functions(path: Path) -> frozenset[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return frozenset(
        node.name for node in tree.body if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
    )


def _sections() -> list[tuple[str, str]]:
    text = DOC.read_text(encoding="utf-8")
    heads = list(_SECTION.finditer(text))
    return [
        (f"{m.group(1)}. {m.group(2)}", text[m.end() : nxt.start() if nxt else len(text)])
        for m, nxt in zip(heads, [*heads[1:], None], strict=True)
    ]


def test_every_test_the_page_names_exists() -> None:
    named = _TEST.findall(DOC.read_text(encoding="utf-8"))
    assert len(named) >= 7  # at least one per section (checked below)
    missing = [
        f"{path}::{name}"
        for path, name in named
        if not (REPO / path).is_file() or name not in _functions(REPO / path)
    ]
    assert missing == [], f"docs/security.md names tests that do not exist: {missing}"


def test_every_file_the_page_names_exists() -> None:
    files = _FILE.findall(DOC.read_text(encoding="utf-8"))
    assert [f for f in files if not (REPO / f).is_file()] == []


def test_every_threat_of_issue_10_is_pinned_by_a_test() -> None:
    sections = _sections()
    assert len(sections) >= 8  # issue 10's seven, and issue 22's since
    numbers = [title.split(".")[0] for title, _ in sections]
    assert numbers == [str(n) for n in range(1, len(sections) + 1)]
    untested = [title for title, body in sections if not _TEST.search(body)]
    assert untested == []
    for title, body in sections:
        assert "**Attack.**" in body and "**Defence.**" in body, title

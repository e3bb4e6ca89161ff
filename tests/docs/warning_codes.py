"""Every warning code the code base can give the host, read from its source.

A warning is made in a few ways: `ParseWarning(code, …)`, a ruleset's `warn(order, code)` or
`reject(order, code)`, scraper's `_warning(code, …)`, an exception carrying a `code`
(`Reject(code)`), or a value given to a variable named `code` before one of those. This
module walks the syntax trees of engine/, scraper/ and rulesets/, takes the code argument of
each (both branches of a conditional), and resolves constants by name across the modules
(`w.LATE`, `codes.SWAP_BUSY`). Arguments that are variables (`code`, `exc.code`) are what
another place sets, and are found there. Two catalogues count whole: every constant of
engine/core/warnings.py (the common codes, some handed on in tuples), and the keys of each
ruleset's warning messages (`MESSAGES`, `_MESSAGES`: the codes its checks return).
`scenario_codes` is the cross-check: every code a scenario file expects must be among them.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SOURCES = ("engine", "scraper", "rulesets")
CODE_AT = {"ParseWarning": 0, "_warning": 0, "warn": 1, "reject": 1}
"""Callables that take a warning code, and the position of that argument."""


def _modules() -> Iterator[ast.Module]:
    for package in SOURCES:
        for path in sorted((ROOT / package).rglob("*.py")):
            yield ast.parse(path.read_text(encoding="utf-8"), str(path))


def _constants(trees: list[ast.Module]) -> dict[str, set[str]]:
    """Module-level NAME = "text" of every module (a name may hold a value in several)."""
    found: dict[str, set[str]] = {}
    for tree in trees:
        for node in tree.body:
            if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant):
                for target in node.targets:
                    if isinstance(target, ast.Name) and isinstance(node.value.value, str):
                        found.setdefault(target.id, set()).add(node.value.value)
    return found


def _code_classes(trees: list[ast.Module]) -> set[str]:
    """Exception classes that carry a code: their `__init__` sets `self.code` from a parameter."""
    classes = set()
    for tree in trees:
        for node in ast.walk(tree):
            if not isinstance(node, ast.ClassDef):
                continue
            for item in node.body:
                if isinstance(item, ast.FunctionDef) and item.name == "__init__":
                    for stmt in ast.walk(item):
                        if (
                            isinstance(stmt, ast.Assign)
                            and any(
                                isinstance(t, ast.Attribute) and t.attr == "code"
                                for t in stmt.targets
                            )
                            and isinstance(stmt.value, ast.Name)
                        ):
                            classes.add(node.name)
    return classes


def _name(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


def _values(node: ast.expr | None, constants: dict[str, set[str]]) -> set[str]:
    """The codes an argument can be: a literal, a named constant, either branch of `a if c else b`."""
    if node is None:
        return set()
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return {node.value}
    if isinstance(node, ast.IfExp):
        return _values(node.body, constants) | _values(node.orelse, constants)
    name = _name(node)
    if name is not None and name.isupper():
        return set(constants.get(name, ()))
    return set()


def _targets(node: ast.Assign | ast.AnnAssign) -> list[ast.expr]:
    return list(node.targets) if isinstance(node, ast.Assign) else [node.target]


def _argument(call: ast.Call, position: int) -> ast.expr | None:
    for keyword in call.keywords:
        if keyword.arg == "code":
            return keyword.value
    return call.args[position] if len(call.args) > position else None


CATALOGUES = frozenset({"MESSAGES", "_MESSAGES"})
COMMON = ROOT / "engine" / "core" / "warnings.py"


@cache
def emitted_codes() -> frozenset[str]:
    trees = list(_modules())
    constants = _constants(trees)
    makers = dict(CODE_AT) | dict.fromkeys(_code_classes(trees), 0)
    common = ast.parse(COMMON.read_text(encoding="utf-8"))
    codes: set[str] = set().union(*_constants([common]).values())
    for tree in trees:
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Assign | ast.AnnAssign)
                and isinstance(node.value, ast.Dict)
                and any(_name(t) in CATALOGUES for t in _targets(node))
            ):
                for key in node.value.keys:
                    codes |= _values(key, constants)
            if isinstance(node, ast.Call):
                name = _name(node.func)
                if name in makers:
                    codes |= _values(_argument(node, makers[name]), constants)
            elif isinstance(node, ast.Assign):
                for target in node.targets:
                    if isinstance(target, ast.Name) and target.id == "code":
                        codes |= _values(node.value, constants)
                    elif isinstance(target, ast.Tuple) and isinstance(node.value, ast.Tuple):
                        for part, value in zip(target.elts, node.value.elts, strict=False):
                            if isinstance(part, ast.Name) and part.id == "code":
                                codes |= _values(value, constants)
    return frozenset(codes)


def scenario_codes() -> set[str]:
    """The warning codes the scenario files expect (`parse_warnings: [...]`)."""
    found: set[str] = set()
    for path in (ROOT / "tests" / "scenarios").rglob("*.yaml"):
        for listed in re.findall(r"parse_warnings:\s*\[([^\]]*)\]", path.read_text("utf-8")):
            found |= {c.strip() for c in listed.split(",") if c.strip()}
    return found

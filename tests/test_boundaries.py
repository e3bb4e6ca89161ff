"""The import boundaries of architecture.md: rules run with no database and no network."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OURS = {"forums", "scraper", "engine", "rulesets"}
IO_LIBRARIES = {
    "httpx",
    "sqlalchemy",
    "alembic",
    "selectolax",
    "playwright",
    "apscheduler",
    "requests",
}


def imported_modules(package: str, root: Path = ROOT) -> dict[Path, set[str]]:
    found: dict[Path, set[str]] = {}
    for path in sorted((root / package).rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        names: set[str] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names.add(node.module)
        found[path] = names
    return found


def offenders(
    package: str, allowed: set[str], forbidden_roots: set[str], root: Path = ROOT
) -> list[str]:
    bad = []
    for path, names in imported_modules(package, root).items():
        for name in names:
            top = name.split(".")[0]
            if top in forbidden_roots and not any(
                name == a or name.startswith(a + ".") for a in allowed
            ):
                bad.append(f"{path.relative_to(root)} imports {name}")
    return bad


def test_engine_core_imports_no_io_and_nothing_of_ours() -> None:
    assert offenders("engine/core", {"engine.core"}, OURS | IO_LIBRARIES) == []


def test_rulesets_import_only_engine_core() -> None:
    assert offenders("rulesets", {"engine.core", "rulesets"}, OURS | IO_LIBRARIES) == []


def test_forums_import_nothing_of_ours() -> None:
    assert offenders("forums", {"forums"}, OURS) == []


def test_scraper_imports_only_forums_and_core() -> None:
    assert offenders("scraper", {"forums", "engine.core", "scraper"}, OURS) == []


def test_the_game_driver_sits_above_the_service_modules_it_uses() -> None:
    """posts, vote_count and replay take what they need as arguments: no import circle."""
    below = ("posts", "vote_count", "replay")
    for path, names in imported_modules("engine/service").items():
        if path.stem in below:
            assert "engine.service.driver" not in names, f"{path.name} imports the driver"


def test_the_checker_sees_a_violation(tmp_path: Path) -> None:
    """The checks above cannot pass vacuously: a planted import is reported."""
    pkg = tmp_path / "engine" / "core"
    pkg.mkdir(parents=True)
    (pkg / "bad.py").write_text("import httpx\nfrom forums.records import PostBody\n")
    found = offenders("engine/core", {"engine.core"}, OURS | IO_LIBRARIES, tmp_path)
    assert sorted(found) == [
        "engine/core/bad.py imports forums.records",
        "engine/core/bad.py imports httpx",
    ]


def board_engines(root: Path = ROOT) -> list[str]:
    """The engine packages under forums/ (phpbb, mybb, xenforo, local, …)."""
    return sorted(p.name for p in (root / "forums").iterdir() if (p / "__init__.py").is_file())


def engine_crossings(root: Path = ROOT) -> list[str]:
    """Imports of one board engine's package from another engine's, or from the shared
    modules of forums/ (the layer every engine builds on must not lean on one of them)."""
    engines = board_engines(root)
    bad = []
    for path in sorted((root / "forums").rglob("*.py")):
        inside = path.relative_to(root / "forums").parts
        own = inside[0] if len(inside) > 1 else None
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for node in ast.walk(tree):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module]
                if node.module == "forums":  # `from forums import phpbb`
                    names += [f"forums.{alias.name}" for alias in node.names]
            for name in names:
                parts = name.split(".")
                crossing = len(parts) > 1 and parts[0] == "forums" and parts[1] in engines
                if crossing and parts[1] != own:
                    bad.append(f"{path.relative_to(root)} imports {name}")
    return bad


def test_no_board_engine_imports_another() -> None:
    """An engine is its own package on the shared layer (forums/*.py): phpBB, MyBB and
    XenForo do not borrow each other's modules, and the layer borrows none of theirs."""
    assert {"phpbb", "mybb", "xenforo", "local"} <= set(board_engines())
    assert engine_crossings() == []


def test_the_engine_check_sees_a_crossing(tmp_path: Path) -> None:
    for engine in ("phpbb", "mybb"):
        (tmp_path / "forums" / engine).mkdir(parents=True)
        (tmp_path / "forums" / engine / "__init__.py").write_text("")
    (tmp_path / "forums" / "mybb" / "board.py").write_text(
        "from forums.phpbb.client import PhpbbClient\nfrom forums.mybb import forms\n"
    )
    (tmp_path / "forums" / "client.py").write_text("from forums import mybb\n")
    assert engine_crossings(tmp_path) == [
        "forums/client.py imports forums.mybb",
        "forums/mybb/board.py imports forums.phpbb.client",
    ]


PARSERS = {"LexborHTMLParser", "HTMLParser", "LexborNode", "Node"}
"""selectolax's parsers: a page parsed by one directly skips `forums.html.bounded_nesting`."""
OTHER_PARSERS = {"lxml", "bs4", "html5lib", "html.parser"}
"""(vBulletin's name search answers XML, read by `xml.etree`: no page, and expat bounds
entity expansion itself.)"""


def direct_parses(root: Path = ROOT) -> list[str]:
    """Where a module of forums/ other than forums/html.py builds a parser itself (calls
    `LexborHTMLParser(...)`) or imports another HTML parser."""
    bad = []
    for path in sorted((root / "forums").rglob("*.py")):
        if path == root / "forums" / "html.py":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                func = node.func
                name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
                if name in PARSERS:
                    bad.append(f"{path.relative_to(root)}:{node.lineno} calls {name}")
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module]
            else:
                continue
            for name in names:
                if any(name == p or name.startswith(p + ".") for p in OTHER_PARSERS):
                    bad.append(f"{path.relative_to(root)}:{node.lineno} imports {name}")
    return bad


def test_every_engine_parses_pages_through_the_bounded_parser() -> None:
    """Every page an adapter reads is parsed by `forums.html.parse_html` (or `tree_of`,
    `page_tree`), which bounds the nesting the parser walks: a post nested 20,000 deep is
    read in linear time on every engine (tests/forums/test_every_page_reader.py checks
    what it reads), so no module builds a parser of its own."""
    assert direct_parses() == []


def test_the_parser_check_sees_a_direct_parse(tmp_path: Path) -> None:
    (tmp_path / "forums" / "smf").mkdir(parents=True)
    (tmp_path / "forums" / "html.py").write_text("tree = LexborHTMLParser(page)\n")
    (tmp_path / "forums" / "smf" / "pages.py").write_text(
        "from selectolax.lexbor import LexborHTMLParser\nimport lxml.html\n"
        "tree = LexborHTMLParser(page)\n"
    )
    assert direct_parses(tmp_path) == [
        "forums/smf/pages.py:2 imports lxml.html",
        "forums/smf/pages.py:3 calls LexborHTMLParser",
    ]

"""docs/host-guide.md is true: every command in it runs, and its references match the code.

The guide is read in order. A fenced block with a file name (```toml file=game.toml) is
written into a fresh folder; each line of a ```sh block is run there as the CLI runs it
(`export`/`unset` change the environment for the lines after, `NAME=value forumgm …` for
one line; `< FILE` is the input; a trailing `# exit N` is the expected status, else 0). What a test cannot reach stands in:
the clock is 2026-11-30 12:00 MSK unless the guide sets `FORUMGM_NOW`; the board at
https://forum.example.org/ (board check, export) is the saved phpBB 3.3.10 board; a
foreground `run` stops after a second, as Ctrl-C would stop it.

The game file reference lists exactly the keys engine/config.py knows, section 4 each
registered ruleset's role ids, visible roles, teams and options with their defaults, and
section 7 every warning code the code base can give (tests/docs/warning_codes.py).
"""

from __future__ import annotations

import asyncio
import re
import shlex
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from typer.testing import CliRunner

from engine.app import board_cmd, tally_cmd
from engine.app.cli import app
from engine.app.game_file import known_rulesets
from engine.config import TABLES
from tests.docs.warning_codes import emitted_codes, scenario_codes
from tests.service.phpbb_fixture_board import FakePhpbb, helpers

ROOT = Path(__file__).resolve().parents[2]
GUIDE = ROOT / "docs" / "host-guide.md"
README = ROOT / "README.md"
NOW = "2026-11-30T12:00+03:00"
"""The moment the guide's commands run at, where it sets none (its dates are to come)."""
FORUM = "https://forum.example.org/"


@dataclass
class Block:
    kind: str
    file: str | None
    text: str
    line: int


def blocks() -> list[Block]:
    found = []
    pattern = re.compile(r"^```(\w+)(?: file=(\S+))?\n(.*?)^```$", re.M | re.S)
    text = GUIDE.read_text(encoding="utf-8")
    for match in pattern.finditer(text):
        line = text.count("\n", 0, match.start()) + 1
        found.append(Block(match.group(1), match.group(2), match.group(3), line))
    return found


def steps() -> Iterator[Block | tuple[int, str]]:
    """The guide in order: a file block to write, or (line number, command) to run."""
    for block in blocks():
        if block.file is not None:
            yield block
        elif block.kind == "sh":
            for n, line in enumerate(block.text.splitlines(), start=block.line + 1):
                if line.strip() and not line.lstrip().startswith("#"):
                    yield n, line


def commands() -> Iterator[tuple[int, str]]:
    for step in steps():
        if not isinstance(step, Block):
            yield step


# -- the stand-ins ---------------------------------------------------------------------


@pytest.fixture
def forum(monkeypatch: pytest.MonkeyPatch) -> FakePhpbb:
    """The saved phpBB board stands in for https://forum.example.org/."""
    fake = FakePhpbb("ru").with_login().with_thread().with_inbox()
    make = helpers.board_maker(fake, url=FORUM)
    monkeypatch.setattr(board_cmd, "make_board", make)
    monkeypatch.setattr(tally_cmd, "make_board", make)
    return fake


@pytest.fixture
def stopping_run(monkeypatch: pytest.MonkeyPatch) -> None:
    """A foreground `run` stops a second after it starts, as Ctrl-C stops it."""
    from engine.service.runner import Service

    original = Service.run

    async def run(self: Service, stop: asyncio.Event | None = None) -> None:
        stop = stop or asyncio.Event()
        asyncio.get_running_loop().call_later(1.0, stop.set)
        await original(self, stop)

    monkeypatch.setattr(Service, "run", run)


# -- the commands ----------------------------------------------------------------------


def _run_line(runner: CliRunner, env: dict[str, str], number: int, line: str, folder: Path) -> None:
    expected = 0
    status = re.search(r"#\s*exit (\d+)\s*$", line)
    if status:
        expected, line = int(status.group(1)), line[: status.start()]
    words = shlex.split(line, comments=True)
    given = {"FORUMGM_NOW": NOW, **env}
    while re.fullmatch(r"[A-Z_]+=.*", words[0]):  # NAME=value before a command: for it alone
        name, _, value = words.pop(0).partition("=")
        given[name] = value
    if words[0] == "export":
        name, _, value = words[1].partition("=")
        env[name] = value
        return
    if words[0] == "unset":
        env.pop(words[1], None)  # back to the stand-in for "now", never the real clock
        return
    assert words[0] == "forumgm", f"guide line {number}: only forumgm commands run: {line}"
    stdin = None
    if "<" in words:
        at = words.index("<")
        stdin = (folder / words[at + 1]).read_text(encoding="utf-8")
        words = words[:at] + words[at + 2 :]
    result = runner.invoke(app, words[1:], env=given, input=stdin)
    assert result.exit_code == expected, f"guide line {number}: {line}\n{result.output}"
    assert "Traceback" not in result.output, f"guide line {number}: {line}\n{result.output}"
    outputs.append((line, result.output))


outputs: list[tuple[str, str]] = []


def test_every_command_of_the_guide_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, forum: FakePhpbb, stopping_run: None
) -> None:
    monkeypatch.chdir(tmp_path)
    for name in ("FORUMGM_NOW", "FORUMGM_DATABASE_URL", "FORUMGM_GM_PASSWORD"):
        monkeypatch.delenv(name, raising=False)
    runner = CliRunner(env={"COLUMNS": "200"})
    env: dict[str, str] = {}
    outputs.clear()
    for step in steps():
        if isinstance(step, Block):
            assert step.file is not None
            (tmp_path / step.file).write_text(step.text, encoding="utf-8")
        else:
            _run_line(runner, env, *step, tmp_path)
    said = dict(outputs)
    # What the guide says the rehearsal shows, it shows.
    assert (
        "! #1 unknown_target Вася 'голосую за Генку' choices: Гена"
        in said["forumgm review game.toml --orders"]
    )
    assert "Ведущий: не принято" in said["forumgm board local show game.toml --inbox Вася"]
    assert "Итоги хода 1" in said["forumgm board local show game.toml --last 2"]
    assert "turn 2 (open)" in said["forumgm status"]
    assert "Ваша роль" in said["forumgm board local show game.toml --inbox Лёша"]
    assert (
        "Detected"
        not in said[f"forumgm board check {FORUM} --engine phpbb --user Ведущий --thread 2"]
    )
    assert "It is valid." in said["forumgm game new winter.toml < answers.txt"]
    assert "winner:" in said["forumgm demo --seed 1 --quiet"]


def test_every_command_the_prose_names_is_one_that_runs() -> None:
    """`forumgm game validate FILE` in a sentence is a command some ```sh block runs."""
    ran = [shlex.split(line, comments=True) for _, line in commands()]
    ran = [words[words.index("forumgm") + 1 :] for words in ran if "forumgm" in words]
    text = GUIDE.read_text(encoding="utf-8")
    for named in re.findall(r"`forumgm ([^`…]+)`", text):
        path = []
        for word in named.split():
            if not re.fullmatch(r"[a-z]+", word):
                break
            path.append(word)
        assert any(words[: len(path)] == path for words in ran), named


def test_the_readme_links_to_the_guide() -> None:
    assert "docs/host-guide.md" in README.read_text(encoding="utf-8")


# -- the references --------------------------------------------------------------------


def _section(title: str) -> str:
    text = GUIDE.read_text(encoding="utf-8")
    start = text.index(f"\n{title}\n")
    end = text.find("\n## ", start + 1) if title.startswith("## ") else -1
    nxt = text.find("\n### ", start + 1)
    stops = [i for i in (end, nxt) if i != -1]
    return text[start : min(stops)] if stops else text[start:]


def _first_column(section: str) -> list[str]:
    return re.findall(r"^\| `([^`]+)` \|", section, re.M)


def test_the_game_file_reference_lists_every_key() -> None:
    for table, keys in TABLES.items():
        if keys is None:
            assert f"### `[{table}]`" in GUIDE.read_text(encoding="utf-8") or table in (
                "roles",
                "deal",
            )
            continue
        assert sorted(_first_column(_section(f"### `[{table}]`"))) == sorted(keys), table
    assert "### `[roles]` and `[deal]`" in GUIDE.read_text(encoding="utf-8")


def test_the_signup_and_activity_tables_list_every_key() -> None:
    from engine.activity import ACTIVITY_KEYS
    from engine.signup import SIGNUP_KEYS

    assert sorted(_first_column(_section("### `[signup]`"))) == sorted(SIGNUP_KEYS)
    assert sorted(_first_column(_section("### `[activity]`"))) == sorted(ACTIVITY_KEYS)


def _listed(section: str, label: str) -> list[str]:
    found = re.search(rf"^- {label}: (.*)$", section, re.M)
    return re.findall(r"`([^`]+)`", found.group(1)) if found else []


def _toml(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "none"
    if isinstance(value, str):
        return f'"{value}"'
    if isinstance(value, dict):
        inner = ", ".join(f"{k} = {_toml(v)}" for k, v in value.items())
        return f"{{ {inner} }}" if inner else "{}"
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    return str(value)


@pytest.mark.parametrize("ruleset", sorted(known_rulesets()))
def test_each_ruleset_s_role_ids_and_options(ruleset: str) -> None:
    rules = known_rulesets()[ruleset]
    section = _section(f"### `{ruleset}`")
    assert _listed(section, "Role ids") == list(rules.role_ids)
    assert _listed(section, "Visible roles") == list(rules.visible_role_ids)
    assert _listed(section, "Teams") == list(rules.deal_groups)
    if rules.deal_option is not None:
        assert f"`[deal]` fills the option `{rules.deal_option}`" in section
    rows = re.findall(r"^\| `([^`]+)` \| `([^`]*)` \|", section, re.M)
    assert rows == [(k, _toml(v)) for k, v in rules.option_defaults.items()]


def test_every_warning_code_is_explained() -> None:
    explained = _first_column(_section("## 7. Warnings: what each code means and what to do"))
    assert len(explained) == len(set(explained)), "a code explained twice"
    codes = emitted_codes()
    assert scenario_codes() <= codes  # the source scan finds what the scenarios expect
    assert sorted(codes - set(explained)) == [], "codes the guide does not explain"
    assert sorted(set(explained) - codes) == [], "codes the guide explains that nothing gives"

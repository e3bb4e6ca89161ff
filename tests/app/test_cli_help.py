"""`--help` reads as written: a command list gives each command's first paragraph whole, on
one line (no sentence cut at the docstring's line breaks), and `[players]` is shown, not
taken for rich markup."""

from __future__ import annotations

from typer.testing import CliRunner

from engine.app.cli import COMMANDS, app

runner = CliRunner(env={"COLUMNS": "400"})


def _help(*words: str) -> str:
    result = runner.invoke(app, [*words, "--help"])
    assert result.exit_code == 0, result.output
    return result.output


def test_the_command_lists_give_whole_sentences_on_one_line() -> None:
    lines = _help().splitlines()
    row = {w.split()[1]: w for w in lines if len(w.split()) > 1 and w.split()[1] in COMMANDS}
    assert set(row) == set(COMMANDS)
    assert 'shows as "A (replaced B)", as it stood when the vote was cast.' in row["votes"]
    assert "the audit log — what `forumgm review` does." in row["dashboard"]
    assert "closed into [players]." in row["signup"]
    assert "with [activity] thresholds, who is quiet" in row["activity"]
    replace = next(w for w in _help("game").splitlines() if " replace " in w)
    assert "who gets the role PM (and the history)." in replace


def test_demo_says_which_rulesets_it_plays() -> None:
    demo = next(w for w in _help().splitlines() if " demo " in w)
    assert "`classic` by default, or yakuza, twelve-rooms or minimafik (--ruleset)" in demo
    assert "--ruleset" in _help("demo")


def test_brackets_in_a_commands_own_help_are_shown() -> None:
    assert "closed into [players]" in _help("signup")
    assert "(with a [signup] table)" in _help("signup", "run")

"""The parser's own frame around a mistyped command («Usage: …», «Try … for help», the
«Error» panel and its message) in the host's language: `--lang`/FORUMGM_LANG, read before
the command line is parsed."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from engine import i18n
from engine.app.cli import app
from engine.i18n import frame_text

runner = CliRunner(env={"COLUMNS": "200"})


def _said(*args: str, env: dict[str, str] | None = None) -> tuple[Result, str]:
    result = runner.invoke(app, list(args), env=env)
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output and not isinstance(result.exception, TypeError)
    return result, " ".join(result.output.split())


ENGLISH_FRAME = ("Usage:", "Try '", "for help", "Error", "Missing argument", "No such")


def test_a_missing_argument_is_framed_in_russian() -> None:
    _, text = _said("--lang", "ru", "game", "validate")
    assert "Использование: root game validate [OPTIONS]" in text, text
    assert "Справка: 'root game validate --help'." in text
    assert "Ошибка" in text and "Не указан аргумент 'files'." in text
    for word in ENGLISH_FRAME:
        assert word not in text, word


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (("game", "validate", "--bogus", "x.toml"), "Нет такого параметра: --bogus"),
        (("gme",), "Нет такой команды 'gme'. Возможно, имелась в виду 'game'?"),
        (("status", "--db"), "Параметру '--db' нужно значение."),
        (("game", "validate", "--allow-past=3", "x.toml"), "Параметр '--allow-past' пишется"),
        (("host", "log", "--limit", "много"), "Недопустимое значение '--limit': 'много' — не"),
        (("game", "new", "a.toml", "b.toml"), "Лишние аргументы: b.toml"),
        (("board", "local", "show", "--last", "-3"), "-3 вне пределов x>=0."),
    ],
)
def test_each_kind_of_mistake_is_said_in_russian(args: tuple[str, ...], said: str) -> None:
    _, text = _said("--lang", "ru", *args)
    assert said in text, text
    for word in ENGLISH_FRAME:
        assert word not in text, word


def test_the_hosts_standing_language_frames_a_mistake_in_the_roots_own_options(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`--bogus` is refused before `--lang`'s callback runs: FORUMGM_LANG (and a `--lang` on
    the command line) is read first."""
    monkeypatch.setenv(i18n.ENV, "ru")
    _, text = _said("--bogus")
    assert "Нет такого параметра: --bogus" in text and "Использование: root" in text
    monkeypatch.setenv(i18n.ENV, "en")
    _, text = _said("--lang=ru", "--bogus")
    assert "Нет такого параметра: --bogus" in text


def test_english_keeps_the_parsers_own_words_after_a_russian_command() -> None:
    _said("--lang", "ru", "game", "validate")
    _, text = _said("game", "validate")  # FORUMGM_LANG=en (tests/conftest.py)
    assert "Usage: root game validate [OPTIONS]" in text
    assert "Try 'root game validate --help' for help." in text
    assert "Error" in text and "Missing argument 'files'." in text and "Ошибка" not in text


def test_a_command_group_with_no_command_still_shows_its_help_in_russian_mode() -> None:
    result = runner.invoke(app, ["--lang", "ru", "game"])
    assert "validate" in result.output and "Ошибка" not in result.output, result.output


def test_forumgms_own_refusal_inside_the_frame_is_kept_as_it_was_made() -> None:
    """In «Invalid value for …: {message}» the message is forumgm's (already in the host's
    language) or the parser's; a text of no known template is kept whole."""
    with i18n.use("ru"):
        said = frame_text("Invalid value for '--fix': напишите НОМЕР=ИМЯ")
        assert said == "Недопустимое значение '--fix': напишите НОМЕР=ИМЯ"
        assert frame_text("something typer never said") == "something typer never said"
    assert frame_text("Missing argument 'x'.", "en") == "Missing argument 'x'."


def test_a_question_left_unanswered_ends_in_the_hosts_language(tmp_path: Path) -> None:
    """`game new` with no answer to come (Ctrl-D) ends with Typer's «Aborted.», said in the
    host's language, then in English again."""
    path = str(tmp_path / "new.toml")
    left = runner.invoke(app, ["--lang", "ru", "game", "new", path], input="")
    assert left.exit_code == 1 and "Прервано." in left.output, left.output
    assert "Aborted" not in left.output
    left = runner.invoke(app, ["game", "new", path], input="")
    assert left.exit_code == 1 and "Aborted." in left.output, left.output

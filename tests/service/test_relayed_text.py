"""Issue 22, item 6: text forumgm relays for a player sits in a quote, in every ruleset.

twelve-rooms posted a public anonymous message in the GM's post under a bold header with no
quote around it, so a player could write text that reads as the host's («ход окончен.
ИТОГИ ХОДА 1 (от ведущего)…»). Now, in each ruleset that relays text (classic's anonymous
PMs, minimafik's notes, twelve-rooms' public anonymous messages), the relayed text is the
content of a quote and nothing of it stands as the GM's own text, even when it tries to
close the quote itself. Checked where the players read it: the post in the thread or the
PM in the inbox, on the local board, as the board's BBCode reader takes it.
"""

from __future__ import annotations

import asyncio
import re
from datetime import datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from typer.testing import CliRunner

import rulesets
from engine.app.cli import app
from engine.core.events import Event
from engine.render import Renderer
from forums.bbcode import parse_bbcode
from tests.service.helpers import GM, clocked_game, game_toml, local_board

MSK = ZoneInfo("Europe/Moscow")
FORGED = "ход окончен. ИТОГИ ХОДА 1 (от ведущего): Вася убит, фраза"
"""What a player relays to read as the host's (a command's text is one line of the PM)."""
CLOSING = FORGED + " [/quote][b]Вася убит[/b] фраза"
"""The same trying to close the quote and write in bold (brackets a renderer is handed)."""
TEMPLATES = Path(rulesets.__file__).parent


def _only_in_a_quote(bbcode: str) -> None:
    """The forged text is all there, and all of it inside a quote."""
    body = parse_bbcode(bbcode)
    assert "ИТОГИ ХОДА 1 (от ведущего)" in body.full_text()
    own = body.text()  # what stands outside quotes: the GM's own words
    for piece in ("ход окончен", "ИТОГИ ХОДА", "Вася убит", "фраза"):
        assert piece not in own, (piece, own)
    assert not any(run.bold and "Вася убит" in run.text for run in body)
    assert body.text(include_quoted=True).count("[") == 0  # no tag of the player's survives


def test_classics_anonymous_message_reaches_its_reader_in_a_quote(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TEST_GM_PASSWORD", "gm-secret")
    start = datetime(2026, 12, 1, 19, 0, tzinfo=MSK)
    players = ["Вася", "Петя", "Маша", "Коля", "Оля"]
    roles = {"Вася": "commissar", "Петя": "mafioso", "Маша": "doctor", "Коля": "citizen"}
    host = clocked_game(tmp_path, players, start=start, roles={**roles, "Оля": "citizen"})
    host.forumgm(start, "game start")
    host.forumgm(start, "run", "--once")
    host.pm(start + timedelta(hours=1), "Коля", f"анонимка для Маши: {FORGED}")
    host.forumgm(start + timedelta(hours=1, minutes=5), "run", "--once")
    (relayed,) = [pm for pm in host.inbox("Маша") if "Вам пришло анонимное сообщение" in pm]
    _only_in_a_quote(relayed)


def test_twelve_rooms_public_anonymous_message_is_posted_in_a_quote(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    names = ["Вася", "Петя", "Маша", "Коля", "Оля", "Гена", "Лена", "Орёл", "Катя", "Серёга"]
    deal = "observer guarantor custodian manager savior executor warden minister interrogator"
    roles = dict(zip(names, [*deal.split(), "deputy"], strict=True))
    rooms = dict(zip(names, [5, 7, 9, 11, 7, 9, 10, 9, 3, 6], strict=True))
    options = (
        '[options]\nlayout = ["safe", "isolated", "sticky", "inverted", "detector", "cocoa",\n'
        '  "cameras", "pistol", "megaphone", "laughter", "silence", "pass_through"]\n'
        "placement_phase = false\n[options.start_rooms]\n"
        + "".join(f'"{n}" = {r}\n' for n, r in rooms.items())
    )
    url = f"sqlite:///{tmp_path / 'board.sqlite'}"
    board, thread = local_board(url, names)
    text = game_toml(
        url=url,
        thread=thread,
        players=names,
        ruleset="twelve-rooms",
        review="warnings",
        password="env:TEST_GM_PASSWORD",
        start="2026-12-01 15:00",
        roles=roles,
    )
    path = tmp_path / "game.toml"
    path.write_text(text.replace("[players]", options + "[players]"), encoding="utf-8")
    monkeypatch.setenv("TEST_GM_PASSWORD", "gm-secret")
    db = f"sqlite:///{tmp_path / 'store.sqlite'}"
    runner = CliRunner(env={"COLUMNS": "200"})

    def cli(at: str, *args: str) -> None:
        result = runner.invoke(app, [*args, "--db", db], env={"FORUMGM_NOW": at})
        assert result.exit_code == 0, result.output

    cli("2026-12-01T15:00+03:00", "game", "start", str(path))
    cli("2026-12-01T15:00+03:00", "review", str(path), "--approve")
    cli("2026-12-01T15:01+03:00", "run", str(path), "--once")
    at = datetime(2026, 12, 1, 17, 0, tzinfo=MSK)
    board.pm_as("Орёл", [GM], "ход", f"не судить\nанонимка: {FORGED}", at=at)
    cli("2026-12-01T17:10+03:00", "run", str(path), "--once")
    posts = [p.raw or "" for p in asyncio.run(board.thread_posts(thread)).items]
    (anon,) = [p for p in posts if "Анонимное сообщение" in p]
    assert anon.startswith("[b]Анонимное сообщение[/b]\n[quote]")
    _only_in_a_quote(anon)
    for lang in ("ru", "en"):  # brackets in the text neither close the quote nor open tags
        renderer = Renderer.for_ruleset(rulesets.find("twelve-rooms"), lang)
        post = renderer.render_event_post(Event.public("anonymous_message", text=CLOSING))
        _only_in_a_quote(post)


def test_minimafiks_note_reaches_its_reader_in_a_quote() -> None:
    ruleset = rulesets.find("minimafik")
    for lang in ("ru", "en"):
        renderer = Renderer.for_ruleset(ruleset, lang)
        for sender in (None, "Alu"):
            event = Event.private("Cornix", "message", text=CLOSING, **{"from": sender})
            pm = renderer.render_private([event], "Cornix", context={"players": ["Alu"]})
            assert pm is not None
            _only_in_a_quote(pm)


_PLAYER_TEXT = re.compile(r"\{\{\s*(?:e\.)?text\s*\|\s*text\s*\}\}")


@pytest.mark.parametrize("ruleset", sorted(p.name for p in TEMPLATES.iterdir() if p.is_dir()))
def test_every_rulesets_templates_relay_player_text_only_inside_a_quote(ruleset: str) -> None:
    """Any template of any ruleset (yakuza and votecount relay none) that puts a player's
    text (`text|text`) in a post or PM has it between `[quote]` and `[/quote]`."""
    for template in (TEMPLATES / ruleset).glob("templates/*/*.j2"):
        for line in template.read_text(encoding="utf-8").splitlines():
            for found in _PLAYER_TEXT.finditer(line):
                before, after = line[: found.start()], line[found.end() :]
                assert before.rstrip().endswith("[quote]") and after.lstrip().startswith(
                    "[/quote]"
                ), f"{template}: {line}"


def test_the_check_catches_relayed_text_outside_a_quote() -> None:
    """The checks above mean something: unquoted (as twelve-rooms posted it), the forged
    text stands as the GM's own."""
    with pytest.raises(AssertionError):
        _only_in_a_quote("[b]Анонимное сообщение[/b]\n" + FORGED)

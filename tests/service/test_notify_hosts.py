"""Issue 25 item 2: the hosts are told when to look — a PM on the board to each of
`[game] hosts` and an e-mail through `[notify] smtp` — once per phase and cause, however
often `forumgm run` is started again."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.app.rehearsal import Rehearsal
from tests.service.smtp_sink import smtp_sink

HOST = "Хост"


def notified_game(tmp_path: Path, *, smtp: bool = True) -> Rehearsal:
    """The rehearsal's classic game with a host account told by PM (and e-mail)."""
    g = Rehearsal(tmp_path)
    text = g.game.read_text(encoding="utf-8")
    text = text.replace("[board]", f'hosts = ["{HOST}"]\n[board]', 1)
    if smtp:
        text += (
            '[notify]\nsmtp = "env:TEST_FORUMGM_SMTP"\nemail_to = ["host@example.org"]\n'
            'email_from = "gm@example.org"\ndashboard = "https://mafia.example.org"\n'
        )
    g.game.write_text(text, encoding="utf-8")
    g("2026-12-01T17:00+03:00", "board", "local", "init", "GAME", "--account", HOST)
    g.host("2026-12-01T18:00+03:00", "game start")
    g.host("2026-12-01T18:45+03:00", "review", "--approve")
    g.host("2026-12-01T19:01+03:00", "run", "--once")
    g.pm("2026-12-01T19:10+03:00", "Коля", "голосую за Ксюшу")  # nobody: a held warning
    g.pm("2026-12-01T19:11+03:00", "Маша", "голосую за Петю")
    g.host("2026-12-01T19:30+03:00", "run", "--once")
    return g


def notices(g: Rehearsal) -> list[str]:
    inbox = g.inbox(HOST)
    return [part for part in inbox.split("--- PM ")[1:] if "forumgm:" in part]


def test_results_waiting_tell_the_host_once_by_pm_and_email_across_restarts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with smtp_sink() as sink:
        monkeypatch.setenv("TEST_FORUMGM_SMTP", sink.url)
        g = notified_game(tmp_path)
        assert notices(g) == [] and sink.messages == []  # nothing waits yet
        out = g.host("2026-12-02T19:01+03:00", "run", "--once")
        assert "waiting for review (1 warning(s))" in out
        for at in ("2026-12-02T19:05+03:00", "2026-12-02T19:20+03:00", "2026-12-02T20:00+03:00"):
            g.host(at, "run", "--once")  # a new process each time: nothing told twice
        told = notices(g)
        assert len(told) == 1, told
        pm = told[0]
        assert "forumgm: игра «game.toml» ждёт ведущего" in pm or "ждёт ведущего" in pm
        assert "Ход 1: итоги ждут вашей проверки (1 предупреждение)." in pm
        assert f"forumgm review {g.game} --db {g.db} --preview" in pm
        assert "https://mafia.example.org/games/1" in pm
        assert len(sink.messages) == 1
        mail = sink.messages[0]
        assert mail["To"] == "host@example.org" and mail["From"] == "gm@example.org"
        body = mail.get_content()
        assert "итоги ждут вашей проверки (1 предупреждение)" in body
        assert f"forumgm review {g.game} --db {g.db} --preview" in body
        assert "[b]" not in body and "fgm:" not in body
        # Nobody else is told: the players' inboxes hold no notice.
        assert "ждёт ведущего" not in g.inbox("Коля")
        # The next deadline passes while the results still wait: a second cause, told once.
        g.host("2026-12-03T19:05+03:00", "run", "--once")
        g.host("2026-12-03T19:10+03:00", "run", "--once")
        told = notices(g)
        assert len(told) == 2 and "--deadline shift" in told[1]
        assert len(sink.messages) == 2


def test_an_email_that_fails_is_tried_again_and_the_pm_is_not_sent_twice(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TEST_FORUMGM_SMTP", "smtp://127.0.0.1:9")  # nothing listens there
    g = notified_game(tmp_path)
    g.host("2026-12-02T19:01+03:00", "run", "--once")
    assert len(notices(g)) == 1
    with smtp_sink() as sink:
        monkeypatch.setenv("TEST_FORUMGM_SMTP", sink.url)
        g.host("2026-12-02T19:05+03:00", "run", "--once")
        g.host("2026-12-02T19:06+03:00", "run", "--once")
        assert len(sink.messages) == 1
    assert len(notices(g)) == 1


def test_a_step_failing_longer_than_the_threshold_tells_the_host(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    g = notified_game(tmp_path, smtp=False)
    away = tmp_path / "away"
    away.mkdir()
    files = sorted(tmp_path.glob("board.sqlite*"))  # with its WAL, if any
    for f in files:
        f.rename(away / f.name)  # the board is down
    for at in ("2026-12-01T20:00+03:00", "2026-12-01T20:10+03:00", "2026-12-01T20:40+03:00"):
        g.host(at, "run", "--once", code=1)
    for f in tmp_path.glob("board.sqlite*"):
        f.unlink()  # what the failed steps' SQLite made of the missing file
    for f in files:
        (away / f.name).rename(f)
    g.host("2026-12-01T20:41+03:00", "run", "--once")
    g.host("2026-12-01T20:42+03:00", "run", "--once")
    told = notices(g)
    assert len(told) == 1, told
    # 40 minutes by the commands' clocks (each runs on from its FORUMGM_NOW a little)
    # What failed, in the game's language (not the English of `run`'s log).
    assert re.search(r"Шаг игры не удаётся уже (39|40) мин: \S", told[0]), told[0]
    assert "step failed" not in told[0] and "шаг не удался" not in told[0]


def test_a_board_limit_of_hours_tells_the_hosts_at_once_and_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Discourse's personal messages a day spent (engine.publish keeps what waits): the
    hosts hear it by e-mail at once — not after failed_after, the steps go on meanwhile —
    and by a PM that waits behind the same limit; once a phase."""
    import asyncio
    from datetime import datetime

    from engine.app.service_cmd import driver_for
    from engine.service.notify import Notifier
    from tests.app.rehearsal import GM_PASSWORD, PASSWORD_ENV

    line = (
        "https://forum.example.org/: Discourse refuses a personal message for 20 h; 3 items "
        "wait for it, kept and sent when it lifts"
    )
    with smtp_sink() as sink:
        monkeypatch.setenv("TEST_FORUMGM_SMTP", sink.url)
        monkeypatch.setenv(PASSWORD_ENV, GM_PASSWORD)
        g = notified_game(tmp_path)
        driver = driver_for(g.game, g.db)
        notifier = Notifier(driver, db=g.db)
        now = datetime.fromisoformat("2026-12-01T20:00+03:00")
        asyncio.run(notifier.after_step("day 1: open until …", False, now))
        assert sink.messages == []  # no limit, nothing to tell
        driver.publisher.limit_met = line
        asyncio.run(notifier.after_step(f"step failed: {line}", True, now))
        asyncio.run(notifier.after_step("day 1: open until …", False, now))  # told already
        assert len(sink.messages) == 1
        body = sink.messages[0].get_content()
        assert "Форум не пропускает то, что отправляет ведущий" in body and line in body
    g.host("2026-12-01T20:05+03:00", "run", "--once")  # the local board has no such limit
    told = notices(g)
    assert len(told) == 1 and "ограничение учётной записи ведущего" in told[0], told

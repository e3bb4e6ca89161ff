"""Two games on one GM account: each takes only its own players' PMs from the shared inbox.

A classic game (orders and votes by PM) and a votecount game (votes in the thread) run from
one GM account on one board, with one player in both. The votecount game used to read the
classic orders, answer six players «Голос не принят: голоса принимаются только в игровой
теме» beside the classic game's own receipts, and hold its phase with spurious warnings.
Here every player gets only their own game's receipts; the player in both games routes a
PM with the game's tag in its subject, and a PM that names no game is asked about once and
held for both hosts, who settle it (`review --typed` / `--ignore`).
"""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

from typer.testing import CliRunner

from engine.app.cli import app
from forums.local import LocalBoard
from tests.service.helpers import GM, game_toml, local_board

MSK = ZoneInfo("Europe/Moscow")
CLASSIC = ["Вася", "Петя", "Маша", "Коля", "Оля"]
VOTECOUNT = ["Оля", "Гена", "Лена", "Орёл", "Катя"]
ROLES = {"Вася": "commissar", "Петя": "mafioso", "Маша": "doctor", "Коля": "citizen"}
runner = CliRunner(env={"COLUMNS": "200", "TEST_GM_PASSWORD": "gm-secret"})

Game = tuple[str, list[str], str, dict[str, str] | None, str]
"""A game of the account: its name, players, ruleset, roles and [game] lines."""
Cli = Callable[..., str]


def _two_games(
    tmp_path: Path, accounts: list[str], titles: tuple[str, str], specs: tuple[Game, Game]
) -> tuple[LocalBoard, tuple[str, str], dict[str, Path], Cli, str]:
    """Two games of one GM account on the local board: the board, their threads, their game
    files, the CLI on one store (each command must succeed) and that store's URL."""
    url = f"sqlite:///{tmp_path / 'board.sqlite'}"
    board, first = local_board(url, accounts, title=titles[0])
    threads = (first, board.create_thread(titles[1], GM))
    games = {}
    for thread, (name, players, ruleset, roles, extra) in zip(threads, specs, strict=True):
        path = tmp_path / f"{name}.toml"
        text = game_toml(
            url=url,
            thread=thread,
            players=players,
            ruleset=ruleset,
            review="warnings",
            password="env:TEST_GM_PASSWORD",
            roles=roles,
            game_extra=extra,
        )
        path.write_text(text, encoding="utf-8")
        games[name] = path
    db = f"sqlite:///{tmp_path / 'store.sqlite'}"

    def cli(*words: str, at: str) -> str:
        result = runner.invoke(app, [*words, "--db", db], env={"FORUMGM_NOW": at})
        assert result.exit_code == 0, result.output
        return result.output

    return board, threads, games, cli, db


def test_each_game_answers_only_its_own_players(tmp_path: Path) -> None:
    board, threads, games, cli, _db = _two_games(
        tmp_path,
        [*CLASSIC, *VOTECOUNT[1:], "Дима"],
        ("Мафия", "Голосовалка"),
        (
            (
                "classic",
                CLASSIC,
                "classic",
                {**ROLES, "Оля": "citizen"},
                'title = "Мафия"\ntag = "М1"',
            ),
            ("votecount", VOTECOUNT, "votecount", None, 'title = "Голосовалка"\ntag = "Г2"'),
        ),
    )

    def pm(sender: str, subject: str, text: str, minute: int) -> None:
        board.pm_as(sender, [GM], subject, text, at=datetime(2026, 12, 1, 20, minute, tzinfo=MSK))

    for path in games.values():
        cli("game", "start", str(path), at="2026-12-01T18:00+03:00")
        cli("review", str(path), "--approve", at="2026-12-01T18:00+03:00")
    both = [str(p) for p in games.values()]
    cli("run", *both, "--once", at="2026-12-01T19:01+03:00")
    sent_before = len(board.pms_after(board.user(GM), "sent", 0))  # type: ignore[arg-type]

    pm("Вася", "Re: Ваша роль", "проверка Пети", 1)
    pm("Коля", "ход", "голосую за Петю", 2)
    pm("Маша", "ход", "лечу Колю", 3)
    pm("Гена", "голос", "голос за Лену", 4)  # votecount: votes go in the thread
    pm("Оля", "Ход [М1]", "голосую за Петю", 5)  # plays in both: the tag says which
    pm("Оля", "вопрос", "голосую за Машу", 6)  # names no game
    board.post_as("Гена", threads[1], "голос за Лену", at=datetime(2026, 12, 1, 20, 7, tzinfo=MSK))
    cli("run", *both, "--once", at="2026-12-01T20:10+03:00")
    cli("run", *both, "--once", at="2026-12-01T20:12+03:00")  # nothing is asked or sent twice

    sent = board.pms_after(board.user(GM), "sent", 0)[sent_before:]  # type: ignore[arg-type]
    to = Counter(m.recipients[0] for m in sent)
    receipts = [
        (m.recipients[0], m.body.full_text()) for m in sent if m.subject.startswith("Ведущий:")
    ]
    assert not any("только в игровой теме" in t for n, t in receipts if n != "Гена"), receipts
    texts = dict(receipts)
    assert len(texts) == len(receipts)  # one receipt each: no game answers another's PMs
    assert set(texts) == {"Вася", "Коля", "Маша", "Оля", "Гена"}
    assert "Проверка" in texts["Вася"] and "Голос за Петю принят" in texts["Коля"]
    assert "Голос за Петю принят" in texts["Оля"]  # the tagged PM, by the classic game
    # Each game's PMs carry its tag: a reply («Re: …») names the game by itself.
    tags = {m.recipients[0]: m.subject for m in sent if m.subject.startswith("Ведущий:")}
    assert tags["Вася"].endswith("[М1]") and tags["Гена"].endswith("[Г2]")
    assert "только в игровой теме" in texts["Гена"]  # his own game's receipt
    questions = [m for m in sent if m.subject.startswith("Для какой игры ваше сообщение?")]
    assert [m.recipients[0] for m in questions] == ["Оля"]
    assert questions[0].subject == "Для какой игры ваше сообщение? (М1, Г2)"
    assert "«М1» или «Г2»" in questions[0].body.full_text()
    assert to == Counter({"Вася": 1, "Коля": 1, "Маша": 1, "Оля": 2, "Гена": 1})

    classic = cli("review", str(games["classic"]), at="2026-12-01T20:13+03:00")
    votecount = cli("review", str(games["votecount"]), at="2026-12-01T20:13+03:00")
    assert "Гена" not in classic and "Коля" not in votecount and "Вася" not in votecount
    unclear = {
        name: next(line for line in out.splitlines() if "pm_game_unclear" in line)
        for name, out in (("classic", classic), ("votecount", votecount))
    }
    assert all("Оля 'голосую за Машу'" in line for line in unclear.values())
    assert "pm_game_unclear" not in "".join(
        line for line in classic.splitlines() if "Ход [М1]" in line
    )
    # The host of each game settles it: the classic game counts it, the other lets it go.
    mine = unclear["classic"].split()[1].lstrip("#")
    cli(
        "review",
        str(games["classic"]),
        "--typed",
        f"{mine}=голосую за Машу",
        at="2026-12-01T20:14+03:00",
    )
    theirs = unclear["votecount"].split()[1].lstrip("#")
    cli("review", str(games["votecount"]), "--ignore", theirs, at="2026-12-01T20:14+03:00")
    votes = cli("review", str(games["classic"]), "--votes", at="2026-12-01T20:15+03:00")
    rows = [[c.strip() for c in line.split("│")[1:3]] for line in votes.splitlines() if "│" in line]
    assert ["Оля", "Маша"] in rows, votes
    # What still holds the votecount game is its own player's PM vote, nothing of the other.
    held = [
        line.split()[2:4]
        for line in cli("review", str(games["votecount"]), at="2026-12-01T20:15+03:00").splitlines()
        if line.startswith("!")
    ]
    assert held == [["pm_vote_ignored", "Гена"]]


def test_a_tag_is_a_whole_word_and_the_answer_to_which_game_is_read(tmp_path: Path) -> None:
    """Issue 24 §7: the tag «МА» matched «Мафия Б: вопрос» as a substring, and a reply to
    the bot's question keeps its subject (no tag): the answer in the body was never read."""
    b_roles = {"Оля": "commissar", "Гена": "mafioso", "Лена": "doctor", "Орёл": "citizen"}
    board, _threads, games, cli, _db = _two_games(
        tmp_path,
        [*CLASSIC, *VOTECOUNT[1:]],
        ("Мафия А", "Мафия Б"),
        (
            ("a", CLASSIC, "classic", {**ROLES, "Оля": "citizen"}, 'title = "Мафия А"\ntag = "МА"'),
            ("b", VOTECOUNT, "classic", {**b_roles, "Катя": "citizen"}, 'tag = "МБ"'),
        ),
    )

    for path in games.values():
        cli("game", "start", str(path), at="2026-12-01T18:00+03:00")
        cli("review", str(path), "--approve", at="2026-12-01T18:00+03:00")
    both = [str(p) for p in games.values()]
    cli("run", *both, "--once", at="2026-12-01T19:01+03:00")
    before = len(board.pms_after(board.user(GM), "sent", 0))  # type: ignore[arg-type]
    when = datetime(2026, 12, 1, 20, 1, tzinfo=MSK)
    board.pm_as("Оля", [GM], "Мафия МБ: проверка", "проверка Гены", at=when)
    cli("run", *both, "--once", at="2026-12-01T20:05+03:00")
    sent = board.pms_after(board.user(GM), "sent", 0)[before:]  # type: ignore[arg-type]
    # «МБ» names game B; «МА» is not a word of that subject (only the start of «Мафия»).
    assert not any(m.subject.startswith("Для какой игры") for m in sent), sent
    assert "pm_game_unclear" not in cli("review", both[0], at="2026-12-01T20:06+03:00")
    assert "проверка" in cli("review", both[1], "--orders", at="2026-12-01T20:06+03:00")

    board.pm_as("Оля", [GM], "вопрос", "голосую за Петю", at=when.replace(minute=7))
    cli("run", *both, "--once", at="2026-12-01T20:08+03:00")
    sent = board.pms_after(board.user(GM), "sent", 0)[before:]  # type: ignore[arg-type]
    [question] = [m for m in sent if m.subject.startswith("Для какой игры")]
    assert question.subject == "Для какой игры ваше сообщение? (МА, МБ)"
    reply = f"Re: {question.subject}"
    board.pm_as("Оля", [GM], reply, "Для МА\nголосую за Петю", at=when.replace(minute=9))
    cli("run", *both, "--once", at="2026-12-01T20:10+03:00")
    votes = cli("review", both[0], "--votes", at="2026-12-01T20:11+03:00")
    rows = [[c.strip() for c in line.split("│")[1:3]] for line in votes.splitlines() if "│" in line]
    assert ["Оля", "Петя"] in rows, votes


def test_a_finished_game_keeps_its_players_messages(tmp_path: Path) -> None:
    """Issue 24 §6: once game A ended, game B read A's players' PMs as strangers' messages
    (its `status` showed their text, an anonymous message's included) and held a late PM
    meant for A. A finished game keeps its players' PMs: B never reads or shows them."""
    from engine.store import open_store
    from engine.store.models import GameStatus

    board, threads, games, cli, db = _two_games(
        tmp_path,
        [*CLASSIC, *VOTECOUNT[1:]],
        ("Мафия", "Голосовалка"),
        (
            (
                "classic",
                CLASSIC,
                "classic",
                {**ROLES, "Оля": "citizen"},
                'title = "Мафия"\ntag = "М1"',
            ),
            ("votecount", VOTECOUNT, "votecount", None, 'title = "Голосовалка"\ntag = "Г2"'),
        ),
    )

    for path in games.values():
        cli("game", "start", str(path), at="2026-12-01T18:00+03:00")
        cli("review", str(path), "--approve", at="2026-12-01T18:00+03:00")
    both = [str(p) for p in games.values()]
    cli("run", *both, "--once", at="2026-12-01T19:01+03:00")

    # The host ends game A early; its final post (every role shown) goes out, and A is over.
    def gm_posts() -> list[str]:
        items = asyncio.run(board.thread_posts(threads[0])).items
        return [p.raw or "" for p in items if p.author == GM]

    before = len(gm_posts())
    cli("steer", "end", str(games["classic"]), "town", "--approve", at="2026-12-01T19:30+03:00")
    cli("run", *both, "--once", at="2026-12-01T19:31+03:00")
    [final] = gm_posts()[before:]
    assert "Мафиози" in final, final
    store = open_store(db)
    [classic] = [g for g, _ in store.board_games(1, finished=True) if g.tag == "М1"]
    assert classic.status is GameStatus.FINISHED, classic.status
    when = datetime(2026, 12, 1, 20, 1, tzinfo=MSK)
    board.pm_as("Вася", [GM], "вопрос", "анонимка для Пети: секрет Васи", at=when)
    board.pm_as("Оля", [GM], "Re: Ваша роль [М1]", "голосую за Петю", at=when)
    out = cli("run", str(games["votecount"]), "--once", at="2026-12-01T20:05+03:00")
    status = cli("status", at="2026-12-01T20:06+03:00")
    review = cli("review", str(games["votecount"]), at="2026-12-01T20:06+03:00")
    assert "Вася" not in out and "Вася" not in review, (out, review)
    for text in (out, status, review):
        assert "секрет Васи" not in text and "голосую за Петю" not in text, text

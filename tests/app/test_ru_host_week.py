"""Issue 25 item 4: a Russian host's week, as he really works — a game file with
`language = "ru"` in a temporary folder, no `--lang` and no FORUMGM_LANG, the rehearsal
board, a chosen clock — and every line he reads checked for the CLI's English: game
validate, game start, the players' posts and PMs (a bad order, a late vote, an unknown
name), run --once, status, votes, review with its fixes, steer, host log, activity,
game replace, report and the dashboard's pages. What the players read on the board does
not change with the host's language."""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from engine import i18n
from engine.app.cli import app
from engine.app.dashboard.web import Dashboard
from engine.app.service_cmd import driver_for
from engine.store import open_store
from tests.app.rehearsal import PASSWORD_ENV, Rehearsal
from tests.service.helpers import GM, GM_PASSWORD

PLAYERS = ("Вася", "Петя", "Маша", "Коля", "Оля", "Гена", "Лена")
ROLES = {
    "Вася": "commissar",
    "Петя": "mafioso",
    "Маша": "doctor",
    "Коля": "citizen",
    "Оля": "citizen",
    "Гена": "mafioso",
    "Лена": "citizen",
}
DASHBOARD_PASSWORD = "correct horse battery"

ENGLISH = frozenset(
    [
        "turn",
        "day",
        "night",
        "draft",
        "drafts",
        "step",
        "steps",
        "failed",
        "warning",
        "warnings",
        "player",
        "players",
        "phase",
        "approved",
        "posted",
        "running",
        "open",
        "paused",
        "published",
        "finished",
        "deadline",
        "deadlines",
        "status",
        "outbox",
        "ruleset",
        "voter",
        "vote",
        "votes",
        "weight",
        "removed",
        "replaced",
        "results",
        "result",
        "wait",
        "waits",
        "waiting",
        "measure",
        "applied",
        "review",
        "reviewed",
        "game",
        "games",
        "queued",
        "sent",
        "told",
        "hosts",
        "nothing",
        "left",
        "not",
        "the",
        "is",
        "of",
        "to",
        "for",
        "and",
        "with",
        "by",
        "was",
        "were",
        "no",
        "none",
        "total",
    ]
)
"""Words of the CLI's English: a line the Russian host reads holds none of them."""

_NOT_WORDS = (
    re.compile(r"forumgm(?: [\w/.:-]+)+"),  # a command to type, as the host types it
    re.compile(r"--[\w-]+"),  # an option
    re.compile(r"\S+://\S*"),  # a store's, a board's or a post's address
    re.compile(r"(?<![\w.])/\S+"),  # a file's path
    re.compile(r"#\d+ [a-z_]+"),  # a warning's number and code (what --fix names)
    re.compile(r"\b[a-z]+_[a-z_]+\b"),  # a code with an underscore
    re.compile(r"\[\w+\](?: \w+)?"),  # a game file's section and key
    re.compile(r"'[^']*'"),  # the host's or a player's words, quoted
    re.compile(r"[\w-]+\.toml\b"),  # a game file's name (the dashboard's title of a game)
)
KNOWN_LEFT = ("состояние: turn",)
"""Lines still in part English, left to the engineer of the audit log's detail: a
publication's stored step line («состояние: turn 2: open until …»)."""


def english_words(text: str) -> list[str]:
    """The CLI's English words in `text`, commands, options, paths and codes left out."""
    for pattern in _NOT_WORDS:
        text = pattern.sub(" ", text)
    return [w for w in re.findall(r"[A-Za-z]+", text) if w.lower() in ENGLISH]


def test_the_check_finds_english_and_leaves_commands_paths_and_codes() -> None:
    assert english_words("game 1: turn 1: results wait for the host") == [
        "game",
        "turn",
        "results",
        "wait",
        "for",
        "the",
    ]
    assert english_words("host measure #2 not applied: Коля is not in play") != []
    assert (
        english_words(
            "ждут одобрения: 1; forumgm review /tmp/x/game.toml --db /tmp/x/s.sqlite --preview, "
            "затем --approve; ! #1 unknown_target Вася 'проверка Генки'; local://pm/8"
        )
        == []
    )


class Week:
    """The rehearsal of tests/app/rehearsal.py with a Russian game file; each command's
    output is kept by its command line (what the host read)."""

    def __init__(self, folder: Path, host_lang: str | None = None) -> None:
        folder.mkdir(exist_ok=True)
        self.r = Rehearsal(folder, players=PLAYERS, roles=ROLES, review="always")
        text = self.r.game.read_text(encoding="utf-8")
        extra = f'language = "ru"\nhosts = ["{GM}"]\n'
        self.r.game.write_text(text.replace("[game]\n", "[game]\n" + extra, 1), "utf-8")
        self.host_lang = host_lang
        self.read: list[tuple[str, str]] = []

    def __call__(self, at: str, *args: str, code: int = 0, input: str | None = None) -> str:
        words = [str(self.r.game) if a == "GAME" else a for a in args]
        if self.host_lang is not None:
            words = ["--lang", self.host_lang, *words]
        result = self.r.runner.invoke(
            app, words, env={"FORUMGM_NOW": at, "FORUMGM_LANG": None}, input=input
        )
        assert result.exit_code == code, (args, result.output)
        self.read.append((" ".join(args), result.output))
        return result.output

    def host(self, at: str, command: str, *args: str, code: int = 0) -> str:
        return self(at, *command.split(), "GAME", *args, "--db", self.r.db, code=code)

    def player(self, at: str, how: str, name: str, text: str, code: int = 0) -> str:
        return self(at, "board", "local", how, "GAME", "--as", name, text, code=code)

    def board(self) -> str:
        """All the players read: the thread and every inbox, without the markers."""
        shown = [self("2026-12-01T00:00+03:00", "board", "local", "show", "GAME")]
        for name in PLAYERS:
            shown.append(
                self("2026-12-01T00:00+03:00", "board", "local", "show", "GAME", "--inbox", name)
            )
        # The `--- #1 Ведущий at …` headers are `board local show`'s, in the host's language:
        # what the players read is the text under them.
        text = "\n".join(x for x in "\n".join(shown).splitlines() if not x.startswith("--- "))
        return re.sub(r"fgm:[0-9a-f]+", "fgm:…", text)

    def play(self) -> None:
        """A week of the host's commands, in order."""
        bad = self.r.folder / "broken.toml"
        good = self.r.game.read_text(encoding="utf-8")
        bad.write_text(
            good.replace("Europe/Moscow", "Europe/Mosco").replace("every day 19:00", "evry day"),
            "utf-8",
        )
        self("2026-12-01T17:00+03:00", "game", "validate", str(bad), code=1)
        self("2026-12-01T17:00+03:00", "game", "validate", "GAME")
        self("2026-12-01T17:00+03:00", "board", "local", "init", "GAME")
        self("2026-12-01T17:00+03:00", "board", "local", "init", "GAME", "--account", "Лёша")
        self.host("2026-12-01T18:00+03:00", "game start")
        self.host("2026-12-01T18:01+03:00", "review", "--preview")
        self.host("2026-12-01T18:45+03:00", "review", "--approve")
        self("2026-12-01T18:50+03:00", "run", "--once", "GAME", "--db", self.r.db)
        self.player("2026-12-01T18:52+03:00", "pm", "Коля", "голосую за Петю")
        self.player("2026-12-01T19:10+03:00", "pm", "Вася", "проверка Генки")
        self.player("2026-12-01T19:11+03:00", "pm", "Маша", "лечу Ксюшу")
        self.player("2026-12-01T19:12+03:00", "post", "Лена", "голосую за Гену")
        self.player("2026-12-01T19:13+03:00", "pm", "Ксюша", "можно к вам?", code=2)
        self("2026-12-01T19:15+03:00", "run", "--once", "GAME", "--db", self.r.db)
        self("2026-12-01T19:16+03:00", "status", "--db", self.r.db)
        self.host("2026-12-01T19:16+03:00", "votes")
        self.host("2026-12-01T19:17+03:00", "review", "--orders", "--votes")
        self.host("2026-12-01T19:18+03:00", "activity")
        self.host("2026-12-01T19:20+03:00", "steer deadline", "--extend", "1d")
        self.host("2026-12-01T19:20+03:00", "steer deadline", "--extend", "soon", code=2)
        self.host("2026-12-01T19:21+03:00", "steer pause")
        self.host("2026-12-01T19:21+03:00", "steer pause", code=2)
        self("2026-12-01T19:22+03:00", "run", "--once", "GAME", "--db", self.r.db)
        self("2026-12-01T19:22+03:00", "status", "--db", self.r.db)
        self.host("2026-12-01T20:21+03:00", "steer resume")
        self.host("2026-12-01T20:22+03:00", "steer remove", "Коля")
        self.host("2026-12-01T20:22+03:00", "steer remove", "Генка", code=2)
        self.host("2026-12-01T20:23+03:00", "steer say", "Всем привет")
        self.host("2026-12-01T20:24+03:00", "game replace", "Оля", "Лёша")
        self.host("2026-12-01T20:24+03:00", "game replace", "Вася", "Никто", code=1)
        self.host("2026-12-01T20:25+03:00", "review", "--preview")
        self.host("2026-12-01T20:25+03:00", "review", "--approve")
        self("2026-12-01T20:26+03:00", "run", "--once", "GAME", "--db", self.r.db)
        self.player("2026-12-03T20:30+03:00", "pm", "Гена", "голосую за Машу")  # late
        self("2026-12-03T20:31+03:00", "run", "--once", "GAME", "--db", self.r.db)
        review = self.host("2026-12-03T20:32+03:00", "review")
        ids = re.findall(r"^[!·] #(\d+) ", review, re.M)
        assert ids, review
        self.host("2026-12-03T20:33+03:00", "review", "--fix", f"{ids[0]}=Гена")
        for other in ids[1:2]:
            self.host("2026-12-03T20:33+03:00", "review", "--ignore", other)
        for other in ids[2:3]:
            self.host("2026-12-03T20:33+03:00", "review", "--typed", f"{other}=голосую за Петю")
        self.host("2026-12-03T20:34+03:00", "review", "--fix", "999=Петя", code=2)
        self.host("2026-12-03T20:35+03:00", "review", "--approve")
        self.host("2026-12-03T20:36+03:00", "review", "--publish")
        self.host("2026-12-03T20:37+03:00", "review", "--log")
        self("2026-12-03T20:37+03:00", "host", "log", "--db", self.r.db)
        self.host("2026-12-03T20:38+03:00", "steer end", "aliens", code=2)
        self.host("2026-12-03T20:38+03:00", "steer end", "draw")
        self.host("2026-12-03T20:39+03:00", "review", "--approve")
        self("2026-12-03T20:40+03:00", "run", "--once", "GAME", "--db", self.r.db)
        self("2026-12-03T20:40+03:00", "status", "--db", self.r.db)
        report = self.r.folder / "report.html"
        self.host("2026-12-03T20:41+03:00", "report", "--out", str(report))


@pytest.fixture
def week(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Week]:
    monkeypatch.delenv(i18n.ENV, raising=False)  # tests/conftest.py speaks English
    played = Week(tmp_path)
    played.play()
    yield played
    i18n.choose(None)


def test_every_line_the_russian_host_reads_in_his_week_is_russian(week: Week) -> None:
    leaks = [
        (command, line, english_words(line))
        for command, output in week.read
        for line in output.splitlines()
        if english_words(line) and not any(k in line for k in KNOWN_LEFT)
    ]
    assert leaks == [], "\n".join(f"{c}: {line!r} {w}" for c, line, w in leaks)
    said = dict(reversed(week.read))  # the first output of each command line
    status = "".join(out for c, out in week.read if c == f"status --db {week.r.db}")
    assert "игра" in status and "ход 1 (идёт)" in status and "на паузе с" in status
    votes = said[f"votes GAME --db {week.r.db}"]
    assert "ход 1" in votes and "turn 1" not in votes
    assert "голоса, ход 1" in said[f"review GAME --orders --votes --db {week.r.db}"]
    preview = said[f"review GAME --preview --db {week.r.db}"]
    assert "--- пост в тему (черновик)" in preview
    logged = said[f"review GAME --log --db {week.r.db}"]
    assert "выбывание игрока" in logged and "ход 1" in logged
    refused = said["board local pm GAME --as Ксюша можно к вам?"]
    assert refused.startswith("нет пользователя 'Ксюша'")


def test_the_dashboard_of_the_week_is_russian_without_a_language_asked(
    week: Week, monkeypatch: pytest.MonkeyPatch
) -> None:
    week(
        "2026-12-03T20:42+03:00",
        "host",
        "set-password",
        "--user",
        "host",
        "--password-stdin",
        "--db",
        week.r.db,
        input=DASHBOARD_PASSWORD + "\n",
    )
    assert week.read[-1][1].startswith("Пароль")  # the store's games are Russian
    monkeypatch.setenv("FORUMGM_NOW", "2026-12-03T20:42+03:00")
    monkeypatch.setenv(PASSWORD_ENV, GM_PASSWORD)
    store = open_store(f"sqlite:///{week.r.db}")
    browser = TestClient(
        Dashboard(store, [driver_for(week.r.game, week.r.db, store)]).app(),
        base_url="http://127.0.0.1:8765",
    )
    form = browser.get("/login").text
    token = re.search(r'name="csrf" value="([^"]+)"', form)
    assert token is not None
    browser.post(
        "/login",
        data={"csrf": token.group(1), "name": "host", "password": DASHBOARD_PASSWORD},
    )
    for path in ("/", "/games/1", "/games/1/log", "/log"):
        page = browser.get(path)
        assert page.status_code == 200, path
        body = re.sub(r"(?s)<(script|style)\b.*?</\1>", " ", page.text)
        text = html.unescape(re.sub(r"<[^>]+>", "\n", body))
        lines = [x.strip() for x in text.splitlines() if x.strip()]
        leaks = [x for x in lines if english_words(x) and not any(k in x for k in KNOWN_LEFT)]
        assert leaks == [], (path, leaks)
        assert '<html lang="ru">' in page.text


def test_what_the_players_read_does_not_change_with_the_hosts_language(
    week: Week, tmp_path: Path
) -> None:
    english_host = Week(tmp_path / "en", host_lang="en")
    english_host.play()
    assert "game 1: turn 1" in "\n".join(out for _, out in english_host.read)  # his English
    russian = week.board().replace(str(week.r.folder), "FOLDER")
    english = english_host.board().replace(str(english_host.r.folder), "FOLDER")
    assert "Итоги хода 1" in russian and "игра окончена" in russian.lower()
    assert russian == english


def test_a_missing_gm_password_is_said_in_the_games_russian(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(i18n.ENV, raising=False)
    week = Week(tmp_path)
    week("2026-12-01T17:00+03:00", "board", "local", "init", "GAME")
    week.r.runner.env[PASSWORD_ENV] = None  # the host forgot to export it
    said = week.host("2026-12-01T18:00+03:00", "game start", code=2)
    assert f"переменная окружения {PASSWORD_ENV} с паролем ведущего 'Ведущий' не задана" in said
    refused = week.player("2026-12-01T18:01+03:00", "post", "Вася", "привет", code=2)
    assert "с паролем ведущего" in refused and english_words(refused) == []
    i18n.choose(None)


def test_a_mistyped_store_and_an_empty_log_are_said_in_russian(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(i18n.ENV, raising=False)
    week = Week(tmp_path)
    week("2026-12-01T17:00+03:00", "board", "local", "init", "GAME")
    missing = str(tmp_path / "nowhere.sqlite")
    said = week("2026-12-01T17:01+03:00", "report", "GAME", "--db", missing, code=1)
    assert said.startswith("хранилища ") and english_words(said) == []
    week.host("2026-12-01T18:00+03:00", "game start")
    empty = week("2026-12-01T18:01+03:00", "host", "log", "--game", "7", "--db", week.r.db)
    assert "когда" in empty and english_words(empty) == []
    # the parser's frame is in the game's language too, once the command has read the file
    typo = week.host("2026-12-01T18:02+03:00", "review", "--fix", "Петя", code=2)
    assert "напишите НОМЕР=ИМЯ (номер предупреждения)" in typo
    assert "Недопустимое значение" in typo and "Invalid value" not in typo, typo
    i18n.choose(None)


def test_a_pm_that_cannot_go_out_is_said_in_russian_by_run_and_status(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import sqlite3

    monkeypatch.delenv(i18n.ENV, raising=False)
    week = Week(tmp_path)
    week("2026-12-01T17:00+03:00", "board", "local", "init", "GAME")
    week.host("2026-12-01T18:00+03:00", "game start")
    week.host("2026-12-01T18:01+03:00", "review", "--approve")
    board = sqlite3.connect(tmp_path / "board.sqlite")  # Оля's account renamed on the board
    board.execute("UPDATE local_users SET name = 'Ольга', name_key = 'ольга' WHERE name = 'Оля'")
    board.commit()
    board.close()
    ran = week("2026-12-01T18:50+03:00", "run", "--once", "GAME", "--db", week.r.db, code=1)
    assert "не удалось отправить ЛС (NotFound: нет пользователя 'Оля')" in ran
    status = week("2026-12-01T18:51+03:00", "status", "--db", week.r.db)
    assert re.search(r"игра 1: ЛС [0-9a-f]+ не отправлено, попыток \d+: NotFound", status)
    assert [line for line in (ran + status).splitlines() if english_words(line)] == []
    i18n.choose(None)


def test_the_dashboard_command_refuses_in_the_games_russian(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(i18n.ENV, raising=False)
    week = Week(tmp_path)
    week("2026-12-01T17:00+03:00", "board", "local", "init", "GAME")
    week.host("2026-12-01T18:00+03:00", "game start")
    said = week("2026-12-01T18:01+03:00", "dashboard", "GAME", "--db", week.r.db, code=2)
    assert said.startswith("Учётной записи ведущего ещё нет") and english_words(said) == []
    i18n.choose(None)

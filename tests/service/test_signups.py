"""A sign-up thread on the local board, run by a host through `forumgm signup`, into
`game start`: joins, a double join, a name that reads like another's, a leave, an edit that
turns «+» into «-», a cap with a reserve, joins after the close."""

from __future__ import annotations

import json
import re
import tomllib
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

from typer.testing import CliRunner

from forums.local import LocalBoard
from tests.service.helpers import GM, GM_PASSWORD, PASSWORD_ENV, cli_app

MSK = ZoneInfo("Europe/Moscow")
ACCOUNTS = ["Вася", "Петя", "Маша", "Коля", "Оля", "Дима", "Лена", "Oля", "Саша", "Женя"]
# "Oля" starts with a Latin O: another account that reads like «Оля».

GAME = """# the host's notes: a classic game for November's regulars
[game]
ruleset = "classic"
title = "Осенняя мафия"
seed = 5
review = "auto"
[board]
engine = "local"
url = "{url}"
thread = "1"
gm_user = "{gm}"
password = "env:{env}"
[schedule]
timezone = "Europe/Moscow"
deadlines = "every day 19:00"
start = "2026-12-01 19:00"
[signup]
thread = "2"
cap = 5      # five seats
reserve = 2
closes = "2026-11-30 19:00"
[players]
players = []  # the sign-ups fill it
[deal]
mafioso = 1
commissar = 1
citizen = 3
"""


def at(day: int, hour: int, minute: int = 0) -> datetime:
    return datetime(2026, 11, day, hour, minute, tzinfo=MSK)


class Host:
    """A host rehearsing the sign-ups: the game file in a folder, its board made by
    `forumgm board local init`, players writing through `forumgm board local post`."""

    def __init__(self, tmp_path: Path) -> None:
        url = f"sqlite:///{tmp_path / 'board.sqlite'}"
        self.path = tmp_path / "game.toml"
        self.path.write_text(GAME.format(url=url, gm=GM, env=PASSWORD_ENV), encoding="utf-8")
        self.db = f"sqlite:///{tmp_path / 'store.sqlite'}"
        accounts = [w for name in ACCOUNTS for w in ("--account", name)]
        made = self.board_cli(at(27, 12), "init", *accounts)
        assert "game thread 1, sign-up thread 2." in made
        self.board = LocalBoard(url, GM, GM_PASSWORD)
        self.thread = "2"

    def board_cli(self, when: datetime, command: str, *words: str, stdin: str = "") -> str:
        env = {"FORUMGM_NOW": when.isoformat(), PASSWORD_ENV: GM_PASSWORD, "COLUMNS": "200"}
        args = ["board", "local", command, str(self.path), *words]
        result = CliRunner().invoke(cli_app(), args, env=env, input=stdin)
        assert result.exit_code == 0, result.output
        return result.output

    def post(self, who: str, text: str, when: datetime) -> str:
        # The text "-" reads standard input (a lone «-» is a leave, written there).
        said = self.board_cli(when, "post", "--signup", "--as", who, "-", stdin=text)
        found = re.match(r"post (\d+) by .* in thread 2 at ", said)
        assert found, said
        return found.group(1)

    def edit(self, who: str, post_id: str, text: str, when: datetime) -> None:
        self.board_cli(when, "edit", post_id, "--as", who, "-", stdin=text)

    def cli(self, when: datetime, *words: str, code: int = 0) -> str:
        env = {"FORUMGM_NOW": when.isoformat(), PASSWORD_ENV: GM_PASSWORD, "COLUMNS": "200"}
        args = [words[0], words[1], str(self.path), *words[2:], "--db", self.db]
        result = CliRunner().invoke(cli_app(), args, env=env)
        assert result.exit_code == code, result.output
        return result.output

    def gm_said(self) -> list[str]:
        """The GM's posts in the sign-up thread as players read them."""
        return [
            p.body.full_text() for p in self.board.posts_after(self.thread, 0) if p.author == GM
        ]

    def listed(self, when: datetime) -> dict[str, tuple[str, int]]:
        data = json.loads(self.cli(when, "signup", "list", "--json"))
        return {e["name"]: (e["status"], e["place"]) for e in data}


def test_a_signup_thread_into_game_start(tmp_path: Path) -> None:
    host = Host(tmp_path)
    env = {"FORUMGM_NOW": "2026-11-28T09:00+03:00", PASSWORD_ENV: GM_PASSWORD}
    early = CliRunner().invoke(cli_app(), ["game", "validate", str(host.path)], env=env)
    assert early.exit_code == 1
    assert "players is empty: the sign-ups fill it when they close" in early.output
    host.post("Вася", "+", at(28, 10))
    petya = host.post("Петя", "в игре!", at(28, 10, 5))
    host.post("Маша", "+ с удовольствием", at(28, 10, 10))
    host.post("Вася", "+", at(28, 10, 15))  # twice
    host.post("Коля", "[quote]+[/quote]а я подумаю", at(28, 10, 20))  # a quoted «+» is not his
    host.post("Коля", "+", at(28, 10, 25))
    host.post("Оля", "/in", at(28, 10, 30))
    host.post("Дима", "+", at(28, 10, 40))
    host.post("Лена", "+", at(28, 10, 50))  # the reserve: Дима, Лена
    host.post("Oля", "+", at(28, 11))  # reads like Оля: waits for the host
    said = host.cli(at(28, 11, 30), "signup", "run", "--once")
    assert "answered" in said and "posted" in said
    answer = host.gm_said()[-1]
    for line in (
        "Вася — в списке (1)",
        "Петя — в списке (2)",
        "Оля — в списке (5)",
        "Дима — в резерве (1)",
        "Лена — в резерве (2)",
        "Oля — имя читается так же, как Оля: запись ждёт решения ведущего",
        "Вася — вы уже в списке (1), место то же",
    ):
        assert line in answer, answer
    assert "Коля — в списке (4)" in answer
    listed = host.cli(at(28, 11, 31), "signup", "list")
    assert "'Oля' reads like 'Оля'" in listed

    # A leave: the first of the reserve moves up. An edit turns Петя's join into a leave.
    host.post("Коля", "-", at(28, 12))
    host.edit("Петя", petya, "-", at(28, 13))
    host.cli(at(28, 13, 30), "signup", "run", "--once")
    answer = host.gm_said()[-1]
    assert "Коля — больше не в списке" in answer
    assert "Петя — больше не в списке" in answer
    assert "Дима — из резерва в список (4)" in answer
    assert "Лена — из резерва в список (5)" in answer
    assert "Oля" not in answer  # still waits for the host
    # The host refuses the look-alike: a game file with both would not pass game validate.
    host.cli(at(28, 13, 40), "signup", "refuse", "Oля")
    assert host.gm_said()[-1].startswith("Oля — ведущий не принял запись")
    # Nothing new, nothing said again.
    before = len(host.gm_said())
    host.cli(at(28, 14), "signup", "run", "--once")
    assert len(host.gm_said()) == before

    # After the close: a join goes to the end of the reserve while it has room, then is late.
    host.post("Саша", "+", at(30, 20))
    host.post("Женя", "+", at(30, 20, 5))
    host.post("Коля", "+", at(30, 20, 7))  # the reserve is full now: late
    host.post("Маша", "-", at(30, 20, 10))  # a player of the closed list: the host is told
    said = host.cli(at(30, 21), "signup", "run", "--once")
    assert "the sign-ups are closed" in said
    assert "[players] now lists 5 player(s) and 2 in reserve" in said  # Саша, Женя
    posts = host.gm_said()
    assert any(
        "Саша — в резерве (1)" in p and "Женя — в резерве (2)" in p and "Коля — набор закрыт" in p
        for p in posts
    )
    final = next(p for p in posts if "Набор закрыт." in p)
    assert "1. Вася\n2. Маша\n3. Оля\n4. Дима\n5. Лена" in final
    assert "1. Саша\n2. Женя" in final
    seen = host.board_cli(at(30, 21, 5), "show", "--thread", "2")  # what players read
    assert "Саша — в резерве (1)" in seen and "Набор закрыт." in seen
    listed = host.cli(at(30, 21, 5), "signup", "list")
    assert "Маша wants out of the closed list" in listed
    assert host.listed(at(30, 21, 6))["Маша"] == ("in", 2)

    written = host.path.read_text(encoding="utf-8")
    assert written.startswith("# the host's notes")
    assert "cap = 5      # five seats" in written
    doc = tomllib.loads(written)
    assert doc["players"]["players"] == ["Вася", "Маша", "Оля", "Дима", "Лена"]
    assert doc["players"]["reserve"] == ["Саша", "Женя"]

    # Running again writes nothing twice and posts nothing more.
    before = len(host.gm_said())
    again = host.cli(at(30, 22), "signup", "run", "--once")
    assert "was written at the close already" in again
    assert len(host.gm_said()) == before

    env = {"FORUMGM_NOW": "2026-12-01T18:00+03:00", PASSWORD_ENV: GM_PASSWORD}
    started = CliRunner().invoke(
        cli_app(), ["game", "start", str(host.path), "--db", host.db], env=env
    )
    assert started.exit_code == 0, started.output
    assert "started: 6 posts and PMs queued" in started.output  # the opening and 5 roles


def test_approval_and_a_member_that_is_gone(tmp_path: Path) -> None:
    host = Host(tmp_path)
    text = host.path.read_text(encoding="utf-8").replace(
        "reserve = 2\n", "reserve = 2\napprove = true\n"
    )
    host.path.write_text(text, encoding="utf-8")
    for n, who in enumerate(["Вася", "Петя", "Маша"]):
        host.post(who, "+", at(28, 10, n))
    host.cli(at(28, 11), "signup", "run", "--once")
    assert "Вася — запись ждёт решения ведущего" in host.gm_said()[-1]
    host.cli(at(28, 12), "signup", "approve", "Маша", "Вася")
    host.cli(at(28, 12, 1), "signup", "refuse", "Петя")
    approved, refused = host.gm_said()[-2:]
    assert "Вася — в списке (1)" in approved and "Маша — в списке (2)" in approved
    assert "Петя" not in approved
    assert "Петя — ведущий не принял запись" in refused
    # The close checks every account on the board: one the board no longer knows (deleted,
    # renamed) stops the writing.
    import asyncio

    from engine.app.signup_cmd import _write
    from engine.config import load_signup_config
    from engine.service.signup import SignupKeeper
    from engine.store import open_store
    from forums.records import User

    class Gone(LocalBoard):
        async def find_user(self, name: str) -> User | None:
            return None if name == "Маша" else await super().find_user(name)

    config = load_signup_config(host.path, environ={PASSWORD_ENV: GM_PASSWORD})
    store = open_store(host.db)
    keeper = SignupKeeper(
        store, Gone(host.board.db, GM, GM_PASSWORD), config, clock=lambda: at(29, 13)
    )
    store.set_signup_times(keeper.signup_id, closed_at=at(29, 12))
    assert [e.name for e in keeper.current().of("in")] == ["Вася", "Маша"]
    assert asyncio.run(_write(keeper, host.path)) == 1
    assert tomllib.loads(host.path.read_text(encoding="utf-8"))["players"]["players"] == []
    said = host.cli(at(29, 14), "signup", "close")
    assert "[players] now lists 2 player(s)" in said
    assert "the game file needs attention before game start" in said  # [deal] is for 5
    assert tomllib.loads(host.path.read_text(encoding="utf-8"))["players"]["players"] == [
        "Вася",
        "Маша",
    ]


def test_a_crash_after_the_board_took_the_answer_posts_nothing_twice(tmp_path: Path) -> None:
    """The answer went out and the process died before the store knew: the next step finds
    its marker on the board and records it, and the list is posted on schedule in English."""
    import asyncio

    from engine.config import load_signup_config
    from engine.publish import marker_line
    from engine.service.signup import SignupKeeper
    from engine.store import open_store

    host = Host(tmp_path)
    text = host.path.read_text(encoding="utf-8")
    text = text.replace('ruleset = "classic"\n', 'ruleset = "classic"\nlanguage = "en"\n')
    text = text.replace("reserve = 2\n", 'reserve = 2\npost_list = "every day"\n')
    host.path.write_text(text, encoding="utf-8")
    host.post("Вася", "/in", at(28, 10))
    config = load_signup_config(host.path, environ={PASSWORD_ENV: GM_PASSWORD})
    store = open_store(host.db)
    now = at(28, 11)
    keeper = SignupKeeper(
        store, LocalBoard(host.board.db, GM, GM_PASSWORD), config, clock=lambda: now
    )
    asyncio.run(keeper.read(now))
    keeper.answer(now)
    (queued,) = store.signup_messages(keeper.signup_id, unsent=True)
    assert queued.bbcode == "[b]Вася[/b] — in (1)"
    # The send started, the board took it, the process died.
    store.signup_message_status(queued.id, "sending", now)
    host.board.post_as(GM, "2", queued.bbcode + marker_line(queued.marker), at=now)
    said = host.cli(at(28, 11, 5), "signup", "run", "--once")
    assert "posted 1 message(s)" in said  # the list (post_list), not the answer again
    posts = host.gm_said()
    assert sum("Вася — in (1)" in p for p in posts) == 1
    assert "Players (1/5)\n1. Вася" in posts[-1]
    assert "Sign up: “+”, leave: “-”." in posts[-1]
    # The next day's list, once.
    host.cli(at(29, 11, 10), "signup", "run", "--once")
    host.cli(at(29, 11, 20), "signup", "run", "--once")
    assert sum("Players (1/5)" in p for p in host.gm_said()) == 2


def test_a_board_that_refuses_the_login_is_one_line(tmp_path: Path) -> None:
    host = Host(tmp_path)
    host.post("Вася", "+", at(28, 10))
    env = {"FORUMGM_NOW": at(28, 11).isoformat(), PASSWORD_ENV: "wrong", "COLUMNS": "200"}
    args = ["signup", "run", str(host.path), "--once", "--db", host.db]
    result = CliRunner().invoke(cli_app(), args, env=env)
    assert result.exit_code == 1, result.output
    assert "the board: LoginFailed" in result.output
    assert "nothing was lost: run again to retry" in result.output
    assert "Traceback" not in result.output
    said = host.cli(at(28, 11, 5), "signup", "run", "--once")  # the right password: it goes on
    assert "answered 1 join(s)/leave(s)" in said


def test_sign_ups_that_close_after_the_start_are_a_problem(tmp_path: Path) -> None:
    host = Host(tmp_path)
    text = host.path.read_text(encoding="utf-8").replace("2026-11-30 19:00", "2026-12-02 19:00")
    text = text.replace("players = []", 'players = ["Вася", "Петя", "Маша", "Коля", "Оля"]')
    host.path.write_text(text, encoding="utf-8")
    env = {"FORUMGM_NOW": "2026-11-28T09:00+03:00", PASSWORD_ENV: GM_PASSWORD}
    said = CliRunner().invoke(cli_app(), ["game", "validate", str(host.path)], env=env)
    assert said.exit_code == 1
    assert (
        "line 21: [signup] closes 2026-12-02 19:00 MSK is after the game's start "
        "2026-12-01 19:00 MSK" in said.output
    )

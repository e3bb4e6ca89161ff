"""A host's game on a live board: the game file in a folder, the CLI at chosen moments (the
board's clock set to each), the players as real accounts, and the check that forumgm's
reading of the thread is the board's own database's."""

from __future__ import annotations

import html
import os
import re
import subprocess
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from typer.testing import CliRunner

from engine.app.cli import app
from forums.records import Post
from tests.live.boards import GM_PASSWORD, LiveBoard
from tests.live.members import Member

PASSWORD_ENV = "LIVE_GM_PASSWORD"
ROOT = Path(__file__).resolve().parents[2]


def game_file(
    board: LiveBoard,
    thread: str,
    players: Sequence[str],
    *,
    ruleset: str,
    roles: Mapping[str, str] | None = None,
    review: str = "always",
    start: str = "2026-12-01 19:00",
    deadlines: str = "every day 19:00",
    extra: str = "",
) -> str:
    names = ", ".join(f'"{n}"' for n in players)
    text = f"""[game]
ruleset = "{ruleset}"
seed = 5
review = "{review}"
language = "ru"
{extra}
[board]
engine = "{board.engine}"
url = "{board.url}"
allow_insecure_http = true  # a board on 127.0.0.1
thread = "{thread}"
gm_user = "{board.gm}"
password = "env:{PASSWORD_ENV}"

[schedule]
timezone = "Europe/Moscow"
deadlines = "{deadlines}"
start = "{start}"

[players]
players = [{names}]
"""
    if roles:
        text += "[roles]\n" + "".join(f'"{n}" = "{r}"\n' for n, r in roles.items())
    return text


@dataclass
class LiveGame:
    """One game on a live board, run through the CLI as a host runs it."""

    board: LiveBoard
    folder: Path
    thread: str
    text: str
    name: str = "game"
    password: str = GM_PASSWORD
    members: dict[str, Member] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.path = self.folder / f"{self.name}.toml"
        self.path.write_text(self.text, encoding="utf-8")
        self.db = str(self.folder / "store.sqlite")

    def at(self, moment: datetime) -> None:
        """The board's clock (and so what players send now) is at `moment`."""
        assert self.board.clock is not None
        self.board.clock.set(moment)

    def forumgm(self, moment: datetime, *words: str, code: int = 0, game: bool = True) -> str:
        """`forumgm WORDS [GAME] --db STORE` at `moment` (FORUMGM_NOW and the board's clock)."""
        self.at(moment)
        args = [*words, *([str(self.path)] if game else []), "--db", self.db]
        env = {"FORUMGM_NOW": moment.isoformat(), PASSWORD_ENV: self.password, "COLUMNS": "250"}
        result = CliRunner().invoke(app, args, env=env)
        assert result.exit_code == code, (result.output, result.exception)
        return result.output

    def killed_after_post(self, moment: datetime, *words: str) -> int:
        """`forumgm WORDS GAME --db STORE` at `moment` in a child process that is killed
        (SIGKILL) as soon as the board has taken its first post; the child's return code."""
        self.at(moment)
        assert self.board.clock is not None
        env = {
            **os.environ,
            "FORUMGM_NOW": moment.isoformat(),
            PASSWORD_ENV: self.password,
            "PYTHONPATH": str(ROOT),
        }
        args = [*words, str(self.path), "--db", self.db]
        child = [sys.executable, "-m", "tests.live.crash_child", str(self.board.clock.path)]
        done = subprocess.run(
            [*child, *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300
        )
        self.board.clock.offset = float(self.board.clock.path.read_text(encoding="ascii"))
        return done.returncode

    def member(self, name: str) -> Member:
        if name not in self.members:
            self.members[name] = Member(self.board, name)
        return self.members[name]

    def post(self, moment: datetime, name: str, text: str) -> str:
        self.at(moment)
        return self.member(name).post(self.thread, text)

    def pm(self, moment: datetime, name: str, text: str, subject: str = "ход") -> str:
        self.at(moment)
        return self.member(name).pm([self.board.gm], subject, text)

    def inbox(self, name: str) -> list[str]:
        """The text of each PM in `name`'s inbox, read as `name`: "subject\\ntext"."""
        return [f"{m.subject}\n{m.body.full_text()}" for m in self.member(name).inbox()]

    def close(self) -> None:
        for member in self.members.values():
            member.close()


def gm_reader(board: LiveBoard, password: str = GM_PASSWORD) -> Member:
    """The GM's account, to read the thread as he sees it (deleted posts too)."""
    return Member(board, board.gm, password)


# -- the adapter against the board's database ---------------------------------------------


@dataclass(frozen=True)
class Stored:
    """A post as the board's database holds it."""

    id: str
    author: str
    posted_at: datetime
    text: str
    edited_at: datetime | None
    deleted: bool


POSTS = {
    "phpbb": "SELECT p.post_id, u.username, p.post_time, p.post_text, p.post_edit_time, "
    "p.post_visibility != 1 FROM phpbb_posts p JOIN phpbb_users u ON u.user_id = p.poster_id "
    "WHERE p.topic_id = ? ORDER BY p.post_time, p.post_id",
    "mybb": "SELECT pid, username, dateline, message, edittime, visible != 1 FROM mybb_posts "
    "WHERE tid = ? ORDER BY dateline, pid",
    # FluxBB deletes a post for good: no row stays.
    "fluxbb": "SELECT id, poster, posted, message, edited, 0 FROM posts WHERE topic_id = ? "
    "ORDER BY posted, id",
    # SMF: deleted posts are gone (no recycle board), unapproved ones wait with approved = 0.
    "smf": "SELECT m.id_msg, COALESCE(u.real_name, m.poster_name), m.poster_time, m.body, "
    "m.modified_time, m.approved != 1 FROM smf_messages m LEFT JOIN smf_members u "
    "ON u.id_member = m.id_member WHERE m.id_topic = ? ORDER BY m.poster_time, m.id_msg",
}
"""Each engine's posts of a topic: id, author, time, text, edit time, deleted."""


def _smf_text(text: str) -> str:
    """SMF keeps the BBCode with HTML's entities and <br> for a line break."""
    return html.unescape(re.sub(r"<br\s*/?>", "\n", text))


STORED_TEXT: dict[str, Callable[[str], str]] = {"smf": _smf_text}


def stored_posts(board: LiveBoard, thread: str) -> list[Stored]:
    text = STORED_TEXT.get(board.engine, str)
    return [
        Stored(
            str(r[0]),
            r[1],
            datetime.fromtimestamp(r[2], UTC),
            text(r[3]),
            datetime.fromtimestamp(r[4], UTC) if r[4] else None,
            bool(r[5]),
        )
        for r in board.rows(POSTS[board.engine], int(thread))
    ]


def _plain(text: str, *, xml: bool = False) -> str:
    """Text without BBCode and without white space, to compare what the page shows with
    what is stored; `xml`: phpBB's stored form (its parsed XML, entities escaped)."""
    if xml:
        text = html.unescape(re.sub(r"<[^>]+>", "", text))
    text = re.sub(r"\[/?[a-z*]+([= ][^\]]*)?\]", "", text)
    return "".join(text.split())


def agree(board: LiveBoard, thread: str, read: Sequence[Post]) -> None:
    """Every post forumgm read is the board's: same id, author, time (to the minute the
    page shows, in the board's zone), text and edit notice; none is missing."""
    stored = {s.id: s for s in stored_posts(board, thread)}
    seen = [p for p in read if not p.deleted]
    assert [p.id for p in seen] == [s.id for s in stored.values() if not s.deleted], (
        "the adapter read other posts than the board holds"
    )
    for post in read:
        row = stored[post.id]
        assert post.author == row.author, (post.id, post.author, row.author)
        if post.deleted:
            assert row.deleted, post.id
            continue
        shown = post.posted_at.astimezone(UTC)
        assert abs((shown - row.posted_at).total_seconds()) < 60, (post.id, shown, row.posted_at)
        assert shown.replace(second=0) == row.posted_at.replace(second=0, microsecond=0), (
            post.id,
            shown,
            row.posted_at,
        )
        shown_text = post.body.text(
            include_quoted=True, include_struck=True, include_spoilers=True, include_code=True
        )
        kept = _plain(row.text, xml=board.engine == "phpbb")
        assert _plain(shown_text) == kept, (post.id, shown_text, row.text)
        if row.edited_at is None:
            assert post.edit is None or post.edit.at is None, (post.id, post.edit)
        else:
            assert post.edit is not None and post.edit.at is not None, (post.id, row.edited_at)
            edited = post.edit.at.astimezone(UTC)
            assert edited.replace(second=0) == row.edited_at.replace(second=0), (post.id, edited)


def gm_thread(board: LiveBoard, thread: str, password: str = GM_PASSWORD) -> list[Post]:
    """The thread as the GM reads it, through a fresh login."""
    gm = gm_reader(board, password)
    try:
        return gm.thread(thread)
    finally:
        gm.close()

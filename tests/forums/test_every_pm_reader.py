"""What a player can write into a private message cannot change how any engine reads it.

Orders and PM votes come in private messages: a message whose text is nested deep, or copies
the words of the engine's login and error pages and of its scripts, or types an edit or
another sender's line, must read as the same message from the same sender, with the orders
as written. Checked on the saved message page of every engine that reads PMs by pages
(phpBB, MyBB, XenForo's conversations, SMF's folder, vBulletin 3/4); vBulletin 5 and
Discourse read messages as JSON, whose text is read as on a thread
(tests/forums/test_every_page_reader.py); FluxBB and PunBB have no private messages.
"""

from __future__ import annotations

import html as htmllib
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import pytest

from forums.mybb.pms import parse_pm_view as mybb_pm
from forums.phpbb.pms import parse_pm_view as phpbb_pm
from forums.records import PostBody, PrivateMessage
from forums.smf import pages as smf
from forums.vbulletin.pms import parse_pm_view as vb_pm
from forums.xenforo.conversations import parse_conversation_view
from tests.forums.test_every_page_reader import NOTICES, SCRIPTS, SHAPES, _words

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
NOW = datetime(2026, 12, 5, 20, 0, tzinfo=UTC)
N = 20_000


@dataclass(frozen=True)
class Message:
    """(id, sender, subject, body) of each message a page holds."""

    id: str
    sender: str
    subject: str
    body: PostBody


@dataclass(frozen=True)
class Engine:
    """One engine's saved message page: where its first message's text opens, its reader."""

    page: str
    url: str
    body: str
    read: Callable[[str, str], Sequence[Message]]
    own_words: tuple[str, ...]

    def html(self) -> str:
        return (FIXTURES / self.page).read_text(encoding="utf-8-sig")

    def with_text(self, written: str) -> str:
        page = self.html()
        found = re.search(self.body, page)
        assert found, self.page
        return page[: found.end()] + written + page[found.end() :]


def _one(pm: PrivateMessage) -> Sequence[Message]:
    return [Message(pm.id, pm.sender, pm.subject, pm.body)]


def _xf(html: str, url: str) -> Sequence[Message]:
    view = parse_conversation_view(html, url, participants=("Alu", "Ведущий"), tz=None, now=NOW)
    return [Message(m.id, m.sender, m.subject, m.body) for m in view.messages]


def _smf(html: str, url: str) -> Sequence[Message]:
    folder = smf.parse_pm_folder(html, url, tz=UTC, now=NOW)
    shown = list(folder.messages.values())  # in the page's order
    return [Message(m.id, m.sender, m.subject, m.body) for m in shown]


ENGINES = {
    "phpbb": Engine(
        "phpbb/3.3.10/en/pm_view_N1a.html",
        "http://127.0.0.1:8081/ucp.php?i=pm&mode=view&f=0&p=12",
        r'<div class="content">',
        lambda h, u: _one(phpbb_pm(h, u, tz=UTC, now=NOW)),
        (
            "phpbb/3.3.10/en/login_page.html",
            "phpbb/3.3.10/en/pm_inbox_not_logged_in.html",
            "phpbb/3.3.10/en/pm_form_token_invalid.html",
        ),
    ),
    "mybb": Engine(
        "mybb/1.8.37/private_read_N1a.html",
        "http://127.0.0.1:8082/private.php?action=read&pmid=23",
        r'<div class="post_body[^"]*" id="pid_\d*">',
        lambda h, u: _one(mybb_pm(h, u, tz=UTC, now=NOW)),
        (
            "mybb/1.8.37/login_page.html",
            "mybb/1.8.37/private_not_logged_in.html",
            "mybb/1.8.37/private_bad_post_key.html",
        ),
    ),
    "xenforo": Engine(
        "xenforo/synthetic/synthetic-conversation-view.html",
        "https://forum.example.org/conversations/1/",
        r'<div class="bbWrapper">',
        _xf,
        ("xenforo/synthetic/synthetic-login.html", "xenforo/synthetic/synthetic-error.html"),
    ),
    "smf": Engine(
        "smf/2.1.4/pm_inbox_en.html",
        "http://127.0.0.1:8080/index.php?action=pm;f=inbox;sort=date;desc",
        r'<div class="inner" id="msg_\d+">',
        _smf,
        ("smf/2.1.4/pm_guest_en.html", "smf/2.1.4/pm_per_hour_en.html"),
    ),
    "vbulletin": Engine(
        "vbulletin/templated/pm_showpm.html",
        "https://forums.animesuki.com/private.php?do=showpm&pmid=901234",
        r'<div id="post_message_\d*">',
        lambda h, u: _one(vb_pm(h, u, tz=UTC, now=NOW)),
        ("vbulletin/templated/not_logged_in.html", "vbulletin/templated/pm_flood.html"),
    ),
}


def _orders(body: PostBody) -> tuple[bool, bool]:
    struck = "".join(r.text for r in body.runs if r.struck)
    rest = "".join(r.text for r in body.runs if not r.struck)
    return (
        "kill Bob" in struck and "kill Bob" not in rest,
        "check Ann" in rest and "check Ann" not in struck,
    )


def _same_but_the_first_text(hostile: Sequence[Message], plain: Sequence[Message]) -> None:
    assert [(m.id, m.sender, m.subject) for m in hostile] == [
        (m.id, m.sender, m.subject) for m in plain
    ]
    assert [m.body for m in hostile[1:]] == [m.body for m in plain[1:]]


@pytest.mark.parametrize("engine", ENGINES.values(), ids=ENGINES.keys())
@pytest.mark.parametrize("shape", SHAPES.values(), ids=SHAPES.keys())
def test_a_deeply_nested_message_reads_its_orders_as_written(
    engine: Engine, shape: tuple[str, str]
) -> None:
    opens, closes = shape
    written = opens * N + "<s>kill Bob</s> check Ann" + closes * N
    plain = engine.read(engine.html(), engine.url)
    hostile = engine.read(engine.with_text(written), engine.url)
    _same_but_the_first_text(hostile, plain)
    assert _orders(hostile[0].body) == (True, True)


@pytest.mark.parametrize("engine", ENGINES.values(), ids=ENGINES.keys())
def test_a_message_copying_login_error_and_script_words_is_the_same_message(
    engine: Engine,
) -> None:
    copied = [_words(p) for p in engine.own_words]
    written = "<br>".join(htmllib.escape(w) for w in [*copied, *SCRIPTS, *NOTICES])
    plain = engine.read(engine.html(), engine.url)
    hostile = engine.read(engine.with_text(written + "<br>check Ann"), engine.url)
    _same_but_the_first_text(hostile, plain)
    text = "".join(r.text for r in hostile[0].body.runs)
    assert "check Ann" in text and NOTICES[0] in text

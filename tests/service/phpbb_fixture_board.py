"""The saved phpBB 3.3.10 board for service tests: a `PhpbbBoard` over respx and the saved pages.

Built on `tests/forums/phpbb/helpers_http.py` (loaded by path: that folder is not a package).
What the service needs beyond the adapter tests: an inbox, the GM's sent folders, the reply
form and its 302, and the page the board shows after posting. Derived pages say what changed.
`game_config` is the saved game as a host's game file (votecount, its day 1 deadline).
"""

from __future__ import annotations

import importlib.util
import json
import sys
from datetime import datetime
from pathlib import Path
from types import ModuleType
from typing import Any

from engine.config import GameConfig, parse_config
from forums.phpbb import PhpbbBoard

_HELPERS = Path(__file__).resolve().parents[1] / "forums" / "phpbb" / "helpers_http.py"


def _load_helpers() -> ModuleType:
    # Reuse the module test_board.py already imported (same name) rather than a second copy.
    if "helpers_http" in sys.modules:
        return sys.modules["helpers_http"]
    spec = importlib.util.spec_from_file_location("helpers_http", _HELPERS)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["helpers_http"] = module
    spec.loader.exec_module(module)
    return module


helpers = _load_helpers()
FakePhpbb = helpers.FakePhpbb
FakeTime = helpers.FakeTime
BASE: str = helpers.BASE
USER: str = helpers.USER
PASSWORD: str = helpers.PASSWORD
MOSCOW = helpers.MOSCOW
FIXTURES: Path = helpers.FIXTURES

# The GM's sent PMs whose view pages were not captured (only PM 18's was): the sent
# folders are served without their rows (derived pages).
SENT_NO_VIEW = {str(n) for n in range(1, 12)} | {"19"}
NEW_POST = {"ru": "65", "en": "66"}
"""The id the board gave the GM's live post in each language's after_post_viewtopic.html."""


def thread_truth() -> dict[str, Any]:
    data: dict[str, Any] = json.loads((FIXTURES / "thread_truth.json").read_text("utf-8"))
    return data


GAME = """\
[game]
ruleset = "votecount"
title = "Мафия #7: Город в тумане"
language = "{lang}"
review = "warnings"
receipts = false
opening_post = false  # the saved thread has the host's own opening post (P01)

[board]
engine = "{engine}"
url = "{url}"
allow_insecure_http = true  # the saved boards are served at http://127.0.0.1
thread = "{thread}"
gm_user = "Ведущий"
password = "env:FORUMGM_TEST_GM"

[schedule]
timezone = "Europe/Moscow"
deadlines = ["{deadline}"]
start = "2026-11-26 19:00"

[players]
players = [{players}]
"""
"""The saved thread played as a `votecount` game whose one deadline ends day 1 (`game_config`)."""


def game_config(
    lang: str = "ru",
    *,
    engine: str = "phpbb",
    url: str = BASE,
    thread: str = "2",
    players: list[dict[str, Any]] | None = None,
) -> GameConfig:
    """`GAME` on the saved board (or an engine's copy of the same game at `url`, with its own
    truth file's `players`)."""
    truth = thread_truth()
    names = ", ".join(f'"{p["username"]}"' for p in players or truth["players"])
    day1 = datetime.fromisoformat(truth["deadlines"]["day1"]).astimezone(MOSCOW)
    values = {"engine": engine, "url": url, "thread": thread, "lang": lang}
    return parse_config(GAME.format(players=names, deadline=f"{day1:%Y-%m-%d %H:%M}", **values))


def saved_board(lang: str = "ru") -> Any:
    """The board as the GM sees it: login, the thread (7 pages), inbox, sent folders, reply."""
    fake = FakePhpbb(lang).with_login().with_thread().with_inbox()
    page, html = helpers.page, helpers.html
    outbox = page(lang, "pm_outbox.html")
    if lang == "en":
        # Alu had read PM 18 before the en capture, so only the sentbox lists it; a folder
        # with every row taken out has no "empty" notice, so 18's row stays in the outbox
        # too (copied from 19's: the folders overlap as they do between two reads).
        outbox = helpers.with_pm_row_copied(outbox, "19", "18", "Результат проверки")
    fake.on(
        "GET", "/ucp.php?i=pm&folder=outbox", html(helpers.without_pm_rows(outbox, SENT_NO_VIEW))
    )
    fake.on(
        "GET",
        "/ucp.php?i=pm&folder=sentbox",
        html(helpers.without_pm_rows(page(lang, "pm_sentbox.html"), SENT_NO_VIEW)),
    )
    # PM 18 was captured opened from the sentbox (f=-1); the ru outbox still lists it, so
    # the same saved view answers its outbox link (f=-2) too.
    for folder in ("-1", "-2"):
        fake.on("GET", f"/ucp.php?i=pm&mode=view&f={folder}&p=18", "pm_view_sent_N1g.html")
    fake.on("GET", "/posting.php?mode=reply&t=2", "posting_reply_form.html")
    # The reply POST answers as the saved submission did: an empty 302 to the new post.
    new = NEW_POST[lang]
    fake.on(
        "POST",
        "/posting.php?mode=reply&t=2",
        helpers.redirect(f"{BASE}viewtopic.php?p={new}#p{new}"),
    )
    fake.on("GET", f"/viewtopic.php?p={new}", "after_post_viewtopic.html")
    return fake


def make_board(fake: Any, time: Any | None = None, *, url: str = BASE) -> PhpbbBoard:
    """The adapter on the fake board (configured at `url`); its clock is the capture's, so
    «Сегодня» reads right."""
    time = time or FakeTime()
    return PhpbbBoard(
        url,
        USER,
        PASSWORD,
        client=fake.client(),
        tz=MOSCOW,
        clock=time,
        sleep=time.sleep,
        allow_insecure_http=True,  # the saved board is served at http://127.0.0.1
    )

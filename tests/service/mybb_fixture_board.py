"""The saved MyBB 1.8.37 board for service tests: a `MybbBoard` over respx and the saved pages.

The same scripted game as the phpBB board, as the real MyBB board served it (thread 1, 62
posts on 7 pages, its own truth file). Built on `tests/forums/mybb/helpers_mybb.py` (loaded
by path: that folder is not a package). Beyond the adapter tests the service needs the
inbox, Sent Items, the reply form, the answer to the reply and the page after posting.
Folder pages without the rows of PMs whose view pages were not captured are derived.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

from forums.mybb import MybbBoard

_HELPERS = Path(__file__).resolve().parents[1] / "forums" / "mybb" / "helpers_mybb.py"


def _load_helpers() -> ModuleType:
    # Reuse the module the adapter tests already imported (same name) rather than a copy.
    if "helpers_mybb" in sys.modules:
        return sys.modules["helpers_mybb"]
    spec = importlib.util.spec_from_file_location("helpers_mybb", _HELPERS)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["helpers_mybb"] = module
    spec.loader.exec_module(module)
    return module


helpers = _load_helpers()
BASE: str = helpers.BASE
USER: str = helpers.USER
PASSWORD: str = helpers.PASSWORD

NEW_POST = "64"
"""The id the board gave the GM's live post (after_post_showthread.html)."""


def thread_truth() -> dict[str, Any]:
    return helpers.truth("thread_truth.json")  # type: ignore[no-any-return]


def saved_board(lang: str = "ru") -> Any:
    """The board as the GM sees it: login, the thread, inbox, Sent Items, reply.

    MyBB's pages are the same whatever the game's language (the board's UI is English)."""
    fake = helpers.with_sent(helpers.with_inbox(helpers.FakeMybb().with_login().with_thread()))
    fake.on("GET", "/newreply.php?tid=1", "newreply_form")
    # The reply POST answers as the saved submission did: MyBB's friendly redirect page.
    fake.on("POST", "/newreply.php?tid=1&processed=1", "newreply_submit_response")
    fake.on("GET", f"/showthread.php?tid=1&pid={NEW_POST}&mode=linear", "after_post_showthread")
    return fake


def make_board(fake: Any, time: Any | None = None) -> MybbBoard:
    """The adapter on the fake board; its clock is the capture's, so relative times read right."""
    board: MybbBoard = helpers.mybb_board(fake, time)
    return board

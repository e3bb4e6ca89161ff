"""One review, two faces: every public function of `engine.app.review.Review` is reached from
`forumgm review` and from the dashboard alike, so neither can do what the other cannot.

Each face is driven as a host uses it (the CLI's options; the dashboard's pages and forms) on
a game of its own, while every public function of `Review` notes that it was called from
outside the review (calls the review makes to itself do not count). A function added to
`Review` fails this test until both faces offer it.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from engine.app.review import Review
from tests.app.dashboard_client import csrf_of, host_client
from tests.app.review_game import ReviewGame, make_review_game


def public_functions() -> set[str]:
    return {
        name
        for name, attr in vars(Review).items()
        if not name.startswith("_") and (inspect.isfunction(attr) or isinstance(attr, property))
    }


class Reached:
    """The public functions of `Review` called from outside it since the last `take`."""

    def __init__(self) -> None:
        self.names: set[str] = set()
        self.depth = 0

    def wrap(self, name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        def note() -> None:
            if self.depth == 0:
                self.names.add(name)

        if inspect.iscoroutinefunction(fn):

            @functools.wraps(fn)
            async def async_wrapper(*args: Any, **kwargs: Any) -> Any:
                note()
                self.depth += 1
                try:
                    return await fn(*args, **kwargs)
                finally:
                    self.depth -= 1

            return async_wrapper

        @functools.wraps(fn)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            note()
            self.depth += 1
            try:
                return fn(*args, **kwargs)
            finally:
                self.depth -= 1

        return wrapper

    def take(self) -> set[str]:
        names, self.names = self.names, set()
        return names


@pytest.fixture
def reached(monkeypatch: pytest.MonkeyPatch) -> Iterator[Reached]:
    r = Reached()
    for name in public_functions():
        attr = vars(Review)[name]
        if isinstance(attr, property):
            assert attr.fget is not None
            monkeypatch.setattr(Review, name, property(r.wrap(name, attr.fget)))
        else:
            monkeypatch.setattr(Review, name, r.wrap(name, attr))
    yield r


def _ids(g: ReviewGame) -> dict[str, str]:
    """Player → warning id, and "order" → the id of Маша's order."""
    listing = g.cli("review", str(g.path), "--orders").output
    ids = {}
    for line in listing.splitlines():
        words = line.split()
        if len(words) > 3 and words[0] == "!" and words[1].startswith("#"):
            ids[words[3]] = words[1].lstrip("#")
        if len(words) > 2 and words[0].startswith("#") and words[1] == "Маша:":
            ids["order"] = words[0].lstrip("#")
    return ids


def test_the_cli_and_the_dashboard_reach_every_review_function(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, reached: Reached
) -> None:
    everything = public_functions()
    assert {"fix", "ignore", "typed", "drop", "retarget", "approve", "publish"} <= everything

    cli_game = make_review_game(tmp_path / "cli", monkeypatch)
    ids = _ids(cli_game)
    reached.take()
    # Orders first: once no warning holds the results, a "warnings" game approves them itself
    # and overrides are closed.
    calls = [
        ["--orders", "--votes", "--preview", "--log", "--picture", str(tmp_path / "map.svg")],
        ["--set", f"{ids['order']}=Коля", "--fix", f"{ids['Коля']}=Петя"],
        ["--drop", ids["order"], "--ignore", ids["Вася"]],
        ["--typed", f"{ids['Оля']}=голосую за Машу", "--approve", "--publish"],
    ]
    for words in calls:
        result = cli_game.cli("review", str(cli_game.path), *words)
        assert result.exit_code == 0, result.output
    # The deadline choice exists only once the announced deadline passed (it has not here):
    # the face offers it all the same, and says there is nothing to choose.
    result = cli_game.cli("review", str(cli_game.path), "--deadline", "shift")
    assert result.exit_code == 2 and "nothing to choose" in result.output
    from_cli = reached.take()

    web_game = make_review_game(tmp_path / "web", monkeypatch)
    ids = _ids(web_game)
    c = host_client(web_game, monkeypatch)
    reached.take()
    for path in ("/", "/games/1/log", "/games/1/picture.svg"):
        c.get(path)
    forms = [
        ("retarget", {"order": ids["order"], "name": "Коля"}),
        ("drop", {"order": ids["order"]}),
        ("fix", {"warning": ids["Коля"], "name": "Петя"}),
        ("ignore", {"warning": ids["Вася"]}),
        ("typed", {"warning": ids["Оля"], "text": "голосую за Машу"}),
        ("approve", {"confirm_held": "yes"}),
        ("publish", {}),
    ]
    for action, fields in forms:
        token = csrf_of(c.get("/games/1").text)
        r = c.post(f"/games/1/{action}", data={"csrf": token, **fields})
        assert r.status_code == 200 and 'class="flash ok"' in r.text, (action, r.text)
    token = csrf_of(c.get("/games/1").text)
    r = c.post("/games/1/deadline", data={"csrf": token, "choice": "shift"})
    assert "nothing to choose" in r.text
    from_web = reached.take()

    assert everything - from_cli == set(), "forumgm review cannot reach these"
    assert everything - from_web == set(), "the dashboard cannot reach these"

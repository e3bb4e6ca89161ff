"""The dashboard of a review game (tests/app/review_game.py) in Starlette's TestClient.

The host sets a password with `forumgm host set-password`, the app is built over the game
file as `forumgm dashboard` builds it (same store, same clock: FORUMGM_NOW), and logs in
through the login form like a browser would.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from engine.app.cli import app as cli_app
from engine.app.dashboard.web import Dashboard
from engine.app.service_cmd import driver_for
from engine.store import open_store
from tests.app.review_game import AFTER_DEADLINE, ReviewGame, runner

HOST = "host"
PASSWORD = "correct horse battery"
_CSRF = re.compile(r'name="csrf" value="([^"]+)"')


def set_password(g: ReviewGame, password: str = PASSWORD, user: str = HOST) -> None:
    result = runner.invoke(
        cli_app,
        ["host", "set-password", "--user", user, "--password-stdin", "--db", g.db],
        input=password + "\n",
    )
    assert result.exit_code == 0, result.output


def make_dashboard(
    g: ReviewGame,
    monkeypatch: pytest.MonkeyPatch,
    *,
    at: str = AFTER_DEADLINE,
    paths: list[Path] | None = None,
    **options: Any,
) -> Dashboard:
    """The dashboard `forumgm dashboard` builds over `g` (`options`: `Dashboard`'s own)."""
    monkeypatch.setenv("FORUMGM_NOW", at)
    store = open_store(g.db)
    drivers = [driver_for(p, g.db, store) for p in (paths or [g.path])]
    return Dashboard(store, drivers, **options)


def csrf_of(html: str) -> str:
    found = _CSRF.search(html)
    assert found is not None, html
    return found.group(1)


def client(
    dash: Dashboard, address: str = "testclient", base_url: str = "http://127.0.0.1:8765"
) -> TestClient:
    """A browser on the dashboard, connecting from `address`."""
    return TestClient(dash.app(), base_url=base_url, client=(address, 50000))


def host_client(
    g: ReviewGame,
    monkeypatch: pytest.MonkeyPatch,
    *,
    logged_in: bool = True,
    at: str = AFTER_DEADLINE,
) -> TestClient:
    """The host's browser on the dashboard of `g`: the password set with `forumgm host
    set-password`, the dashboard made at `at`, and (unless not `logged_in`) logged in."""
    set_password(g)
    c = client(make_dashboard(g, monkeypatch, at=at))
    if logged_in:
        log_in(c)
    return c


def log_in(c: TestClient, password: str = PASSWORD, user: str = HOST, next: str = "/") -> str:
    """Log in through the form; returns the response's location (or its status)."""
    token = csrf_of(c.get("/login").text)
    r = c.post(
        "/login",
        data={"csrf": token, "name": user, "password": password, "next": next},
        follow_redirects=False,
    )
    return r.headers.get("location", str(r.status_code))

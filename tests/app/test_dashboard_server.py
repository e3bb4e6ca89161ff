"""`forumgm dashboard` as a host starts it (uvicorn on 127.0.0.1, tests/app/served_dashboard.py),
attacked as issue 22 found it: a stranger guessing the host's password, with made-up
X-Forwarded-For addresses, and a page reaching it under another host name.

Clients connect from 127.0.0.1 (where everything through an SSH tunnel or a proxy on the
machine arrives) and from 127.0.0.2 (loopback too: the kernel lets a client pick its source
address there), so they are two clients as on a real network.
"""

from __future__ import annotations

import shutil
import subprocess
import time
from pathlib import Path

import httpx
import pytest

from engine.store import open_store
from tests.app.dashboard_client import HOST, PASSWORD, csrf_of, set_password
from tests.app.review_game import ReviewGame, make_review_game
from tests.app.served_dashboard import served_dashboard

HERE, ELSEWHERE = "127.0.0.1", "127.0.0.2"


def _browser(url: str, address: str = HERE) -> httpx.Client:
    """A browser on `url` connecting from `address`."""
    transport = httpx.HTTPTransport(local_address=address, verify=False)
    return httpx.Client(base_url=url, transport=transport, timeout=30, follow_redirects=False)


def _log_in(c: httpx.Client, password: str, **headers: str) -> httpx.Response:
    token = csrf_of(c.get("/login").text)
    form = {"csrf": token, "name": HOST, "password": password, "next": "/games/1"}
    return c.post("/login", data=form, headers=headers)


def _logins(g: ReviewGame) -> list[tuple[str, str, dict[str, str]]]:
    """(action, by, detail) of the audit log's logins, oldest first."""
    entries = open_store(g.db).host_actions(None)
    return [(e.action, e.by, e.detail) for e in reversed(entries) if e.action.startswith("login")]


@pytest.fixture
def game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> ReviewGame:
    g = make_review_game(tmp_path, monkeypatch)
    set_password(g)
    return g


def test_a_stranger_cannot_lock_the_host_out(game: ReviewGame) -> None:
    """Issue 22: five wrong passwords for the default account name made the host's right one
    get 429 for ten minutes from any address (and the stranger could do it again every ten
    minutes). uvicorn believed X-Forwarded-For from 127.0.0.1: the audit log recorded made-up
    addresses, and a stranger there could be a new client with every try."""
    g = game
    with served_dashboard(g) as url:
        stranger = _browser(url, HERE)
        for n in range(5):
            made_up = {"x-forwarded-for": f"203.0.113.{n}"}
            fifth_sent = time.monotonic()
            assert _log_in(stranger, f"guess number {n}", **made_up).status_code == 401
        host = _browser(url, ELSEWHERE)
        r = _log_in(host, PASSWORD)
        assert r.status_code == 303 and r.headers["location"] == "/games/1"
        assert host.get("/games/1").status_code == 200
        # The stranger's sixth try (made up as another client again) is checked no sooner
        # than 1 s after the fifth (held for its turn if it comes sooner), then answered.
        made_up = {"x-forwarded-for": "198.51.100.6"}
        assert _log_in(stranger, "guess number 6", **made_up).status_code == 401
        assert time.monotonic() - fifth_sent >= 1.0
        # The host behind the stranger's address (one NAT, one tunnel): slowed (2 s after the
        # sixth), not refused.
        same_address = _browser(url, HERE)
        assert _log_in(same_address, PASSWORD).status_code == 303
        assert time.monotonic() - fifth_sent >= 3.0
        assert same_address.get("/games/1").status_code == 200
    logins = _logins(g)
    assert [(a, by, d["client"]) for a, by, d in logins] == [
        *[("login_failed", HOST, HERE)] * 5,  # never the made-up addresses
        ("login", HOST, ELSEWHERE),
        ("login_failed", HOST, HERE),
        ("login", HOST, HERE),
    ]
    assert all("waited" not in d for _, _, d in logins[:6])  # the first five: at once


def test_another_host_name_gets_400_from_the_server(game: ReviewGame) -> None:
    """Issue 22 (DNS rebinding): a page whose name points at 127.0.0.1 reached the login form.
    The dashboard answers only the names it was started for."""
    g = game
    with served_dashboard(g, "--host-name", "mafia.example.org") as url:
        browser = _browser(url)
        port = url.rpartition(":")[2]
        rebound = {"host": f"rebound.example:{port}"}
        assert browser.get("/login", headers=rebound).status_code == 400
        form = {"csrf": "x" * 43, "name": HOST, "password": "guess number 1"}
        assert browser.post("/login", data=form, headers=rebound).status_code == 400
        for name in ("mafia.example.org", "localhost", "127.0.0.1"):
            assert browser.get("/login", headers={"host": f"{name}:{port}"}).status_code == 200
    assert _logins(g) == []  # the refused requests reached no handler


def test_behind_the_named_proxy_its_addresses_and_https_are_believed(game: ReviewGame) -> None:
    """`--proxy 127.0.0.1`: requests from it carry the client's address (the audit log has it)
    and its word that the browser used https (the cookie is Secure); from anywhere else the
    same headers are ignored."""
    g = game
    with served_dashboard(g, "--proxy", "127.0.0.1") as url:
        proxy = _browser(url)
        said = {"x-forwarded-for": "198.51.100.7", "x-forwarded-proto": "https"}
        page = proxy.get("/login", headers=said)
        assert "secure" in page.headers["set-cookie"].lower()
        form = {"csrf": csrf_of(page.text), "name": HOST, "password": "guess number 1"}
        cookie = {"cookie": page.headers["set-cookie"].split(";")[0]}
        assert proxy.post("/login", data=form, headers={**said, **cookie}).status_code == 401
        stranger = _browser(url, ELSEWHERE)
        assert "secure" not in stranger.get("/login", headers=said).headers["set-cookie"].lower()
        assert _log_in(stranger, "guess number 2", **said).status_code == 401
    assert [d["client"] for _, _, d in _logins(g)] == ["198.51.100.7", ELSEWHERE]


def test_over_tls_the_session_cookie_is_secure(game: ReviewGame, tmp_path: Path) -> None:
    openssl = shutil.which("openssl")
    if openssl is None:
        pytest.skip("openssl is not installed: no certificate for the TLS run")
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(
        [
            openssl,
            "req",
            "-x509",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-days",
            "1",
            "-subj",
            "/CN=127.0.0.1",
            "-keyout",
            str(key),
            "-out",
            str(cert),
        ],
        check=True,
        capture_output=True,
    )
    options = ("--tls-cert", str(cert), "--tls-key", str(key))
    with served_dashboard(game, *options, scheme="https") as url, _browser(url) as browser:
        assert "secure" in browser.get("/login").headers["set-cookie"].lower()
        r = _log_in(browser, PASSWORD)
        assert r.status_code == 303 and "secure" in r.headers["set-cookie"].lower()
        assert browser.get("/games/1").status_code == 200

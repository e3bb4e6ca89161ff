"""The dashboard over HTTP (Starlette's TestClient): login, the session, CSRF, escaping, and the
host's decisions ending on the board as players see it."""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from httpx import Response
from starlette.testclient import TestClient

from engine.app.dashboard.guard import SESSION_COOKIE, LoginLimiter
from engine.app.dashboard.web import Dashboard
from engine.app.review import Review
from engine.store import open_store
from tests.app.dashboard_client import (
    PASSWORD,
    client,
    csrf_of,
    host_client,
    log_in,
    make_dashboard,
    set_password,
)
from tests.app.review_game import XSS, ReviewGame, review_game
from tests.service.helpers import GM, game_toml, local_board

__all__ = ["review_game"]


@dataclass
class Web:
    """A review game's dashboard with the host logged in."""

    g: ReviewGame
    dash: Dashboard
    c: TestClient

    def warning_ids(self) -> dict[str | None, int]:
        rv = Review(self.dash.drivers[0], by="t", via="test")
        return {w.warning.player: w.id for w in rv.warnings()}

    def ignore_from(self, origin: str) -> Response:
        """Ignore Вася's warning with this session's token, sent with this Origin header."""
        token = csrf_of(self.c.get("/games/1").text)
        return self.c.post(
            "/games/1/ignore",
            data={"csrf": token, "warning": str(self.warning_ids()["Вася"])},
            headers={"origin": origin},
            follow_redirects=False,
        )

    def act(self, action: str, **fields: str) -> str:
        """Post a game page form as the host; the messages of the page it lands on."""
        token = csrf_of(self.c.get("/games/1").text)
        r = self.c.post(f"/games/1/{action}", data={"csrf": token, **fields})
        assert r.status_code == 200, r.text
        flashes = re.findall(r'<p class="flash (\w+)" role="status">([^<]*)</p>', r.text)
        assert flashes, r.text
        return " ".join(f"{kind}: {html.unescape(text)}" for kind, text in flashes)


@pytest.fixture
def web(review_game: ReviewGame, monkeypatch: pytest.MonkeyPatch) -> Web:
    set_password(review_game)
    dash = make_dashboard(review_game, monkeypatch)
    c = client(dash)
    assert log_in(c) == "/"
    return Web(review_game, dash, c)


def _actions(g: ReviewGame) -> list[tuple[str, str, str]]:
    """(by, via, action) of the audit log, oldest first."""
    return [(e.by, e.via, e.action) for e in reversed(open_store(g.db).host_actions(None))]


def test_wrong_password_is_refused_and_logged(
    review_game: ReviewGame, monkeypatch: pytest.MonkeyPatch
) -> None:
    g = review_game
    c = host_client(g, monkeypatch, logged_in=False)
    home = c.get("/", follow_redirects=False)
    assert home.status_code == 303 and home.headers["location"] == "/login?next=/"
    assert c.get("/games/1", follow_redirects=False).status_code == 303
    token = csrf_of(c.get("/login").text)
    r = c.post("/login", data={"csrf": token, "name": "host", "password": "wrong password"})
    assert r.status_code == 401 and "Wrong name or password." in r.text
    r = c.post("/login", data={"csrf": token, "name": "nobody", "password": PASSWORD})
    assert r.status_code == 401
    assert c.get("/", follow_redirects=False).status_code == 303  # still not logged in
    assert ("host", "dashboard", "login_failed") in _actions(g)
    assert ("nobody", "dashboard", "login_failed") in _actions(g)
    assert log_in(c) == "/"
    assert c.get("/").status_code == 200
    assert _actions(g)[-1] == ("host", "dashboard", "login")


def test_a_login_name_with_control_characters_is_a_wrong_name(
    review_game: ReviewGame, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A NUL in the name field (a hand-made request): no account, logged with U+FFFD in its
    place (on PostgreSQL, which refuses NUL in a query, it was a 500)."""
    g = review_game
    c = host_client(g, monkeypatch, logged_in=False)
    token = csrf_of(c.get("/login").text)
    r = c.post("/login", data={"csrf": token, "name": "ho\x00st", "password": PASSWORD})
    assert r.status_code == 401 and "Wrong name or password." in r.text
    assert _actions(g)[-1] == ("ho\ufffdst", "dashboard", "login_failed")


def test_session_cookie_is_httponly_strict_and_pages_forbid_scripts_from_elsewhere(
    review_game: ReviewGame, monkeypatch: pytest.MonkeyPatch
) -> None:
    g = review_game
    c = host_client(g, monkeypatch, logged_in=False)
    token = csrf_of(c.get("/login").text)
    r = c.post(
        "/login",
        data={"csrf": token, "name": "host", "password": PASSWORD, "next": "//evil.example/x"},
        follow_redirects=False,
    )
    assert r.status_code == 303 and r.headers["location"] == "/"  # never off our own site
    cookie = r.headers["set-cookie"].lower()
    assert (
        cookie.startswith(SESSION_COOKIE) and "httponly" in cookie and "samesite=strict" in cookie
    )
    page = c.get("/games/1")
    policy = page.headers["content-security-policy"]
    assert "script-src 'self'" in policy and "frame-ancestors 'none'" in policy
    assert "unsafe-inline" not in policy
    assert page.headers["x-frame-options"] == "DENY"
    assert csrf_of(page.text) != token  # a new token after logging in


def test_every_post_without_the_csrf_token_is_refused(web: Web) -> None:
    g, c, ids = web.g, web.c, web.warning_ids()
    before = _actions(g)
    posts = ["/logout", "/login"] + [
        f"/games/1/{a}"
        for a in (
            "fix",
            "ignore",
            "typed",
            "drop",
            "retarget",
            "approve",
            "publish",
            "approve-publish",
        )
    ]
    fields = {"warning": str(ids["Коля"]), "name": "Петя", "order": "1", "text": "голосую за Машу"}
    for path in posts:
        for extra in ({}, {"csrf": "x" * 43}):
            r = c.post(path, data={**fields, **extra}, follow_redirects=False)
            assert r.status_code == 403, (path, extra, r.status_code)
            assert "CSRF" in r.text
    # With the right token but from another site's page: refused as well.
    r = web.ignore_from("http://evil.example")
    assert r.status_code == 403
    assert _actions(g) == before  # nothing was done
    page = c.get("/games/1").text
    assert page.count("holds the results</span>") == 3
    assert len(g.thread_texts()) == 1


def test_an_origin_that_is_no_address_is_refused(web: Web) -> None:
    """An Origin header no browser sends ("http://[", which urlsplit cannot read): refused
    like another site's (it was a 500)."""
    before = _actions(web.g)
    r = web.ignore_from("http://[")
    assert r.status_code == 403 and "another site" in r.text
    assert _actions(web.g) == before


def _limited(dash: Dashboard, now: list[datetime]) -> Dashboard:
    """`dash` with its throttle on the clock `now[0]`, refusing every wait (`hold=0`), so the
    answers say how long each client must wait instead of waiting."""
    dash.limiter = LoginLimiter(dash.store, hold=0, clock=lambda: now[0])
    return dash


def _refused_for(c: TestClient, password: str = PASSWORD) -> str:
    """Log in from `c`, which must wait: the wait the answer gives."""
    token = csrf_of(c.get("/login").text)
    r = c.post("/login", data={"csrf": token, "name": "host", "password": password})
    assert r.status_code == 429, r.status_code
    found = re.search(r"Too many wrong passwords from your address: try again in ([^.]+)\.", r.text)
    assert found is not None, r.text
    wait = found.group(1)
    seconds = int(wait.removesuffix(" s")) if wait.endswith(" s") else 60 * int(wait[:-4])
    assert r.headers["retry-after"] == str(seconds)
    return found.group(1)


def test_a_strangers_wrong_passwords_slow_down_only_his_own_address(
    review_game: ReviewGame, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 22: five wrong passwords for `host` made the host's right one get 429 for ten
    minutes from any address. Now they slow the address they came from, spaced 1 s, 2 s, …,
    the host elsewhere gets in at once, and a restarted dashboard forgets nothing."""
    g = review_game
    set_password(g)
    now = [datetime(2026, 12, 2, 16, 0, tzinfo=UTC)]
    dash = _limited(make_dashboard(g, monkeypatch), now)
    stranger = client(dash, "198.51.100.7")
    for _ in range(5):  # the first five cost nothing
        assert log_in(stranger, password="guess guess") == "401"
    assert _refused_for(stranger) == "1 s"  # even the right password waits its turn there
    assert log_in(client(dash, "192.0.2.10")) == "/"  # the host, elsewhere: at once
    now[0] += timedelta(seconds=1)
    assert log_in(stranger, password="guess guess") == "401"
    assert _refused_for(stranger) == "2 s"
    # A restart (a new dashboard over the store) keeps the count.
    restarted = _limited(make_dashboard(g, monkeypatch), now)
    stranger = client(restarted, "198.51.100.7")
    assert _refused_for(stranger) == "2 s"
    assert log_in(client(restarted, "192.0.2.10")) == "/"
    # The host behind the stranger's address (one NAT): slowed, never refused for long;
    # the right password forgets the address's count.
    now[0] += timedelta(seconds=2)
    assert log_in(client(restarted, "198.51.100.7")) == "/"
    assert log_in(stranger, password="guess guess") == "401"
    refused = [e for e in open_store(g.db).host_actions(None) if e.action == "login_refused"]
    assert [(e.by, e.detail) for e in reversed(refused)] == [
        ("host", {"client": "198.51.100.7", "wait": "1 s"}),
        ("host", {"client": "198.51.100.7", "wait": "2 s"}),
        ("host", {"client": "198.51.100.7", "wait": "2 s"}),
    ]


def test_the_throttle_spaces_checks_up_to_five_minutes_and_forgets_after_an_hour(
    review_game: ReviewGame, monkeypatch: pytest.MonkeyPatch
) -> None:
    g = review_game
    set_password(g)
    now = [datetime(2026, 12, 2, 16, 0, tzinfo=UTC)]
    dash = _limited(make_dashboard(g, monkeypatch), now)
    assert dash.limiter is not None
    spacing = [dash.limiter.spacing(n).total_seconds() for n in range(1, 16)]
    assert spacing == [0, 0, 0, 0, 1, 2, 4, 8, 16, 32, 64, 128, 256, 300, 300]
    stranger = client(dash, "198.51.100.7")
    for wait in spacing[:-1]:  # each attempt as soon as it may be checked
        assert log_in(stranger, password="guess guess") == "401"
        now[0] += timedelta(seconds=wait)
    assert log_in(stranger, password="guess guess") == "401"
    assert _refused_for(stranger) == "5 min"
    # Another address of the stranger's IPv6 /64 is the same client; another /64 is not.
    v6 = client(dash, "2001:db8:1:2::1")
    for _ in range(5):
        assert log_in(v6, password="guess guess") == "401"
    assert _refused_for(client(dash, "2001:db8:1:2::beef")) == "1 s"
    assert log_in(client(dash, "2001:db8:1:3::1")) == "/"
    now[0] += timedelta(hours=1, seconds=300)
    assert log_in(stranger, password="guess guess") == "401"  # an hour later: forgotten
    assert log_in(stranger) == "/"


def test_logging_out_ends_the_session_on_the_server(
    review_game: ReviewGame, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 22: a session cookie saved before logging out still opened the game page after."""
    g = review_game
    c = host_client(g, monkeypatch)
    assert c.get("/games/1", follow_redirects=False).status_code == 200
    saved, token = c.cookies[SESSION_COOKIE], csrf_of(c.get("/games/1").text)
    r = c.post("/logout", data={"csrf": token}, follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == "/login"
    c.cookies.clear()
    c.cookies.set(SESSION_COOKIE, saved)  # the cookie as it was before logging out
    r = c.get("/games/1", follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == "/login?next=/games/1"
    c.cookies.clear()
    c.cookies.set(SESSION_COOKIE, saved)
    rv = Review(make_dashboard(g, monkeypatch).drivers[0], by="t", via="t")
    ids = {w.warning.player: w.id for w in rv.warnings()}
    r = c.post("/games/1/ignore", data={"csrf": token, "warning": str(ids["Вася"])})
    assert r.status_code == 403 and "log in first" in r.text
    assert _actions(g)[-2:] == [("host", "dashboard", "login"), ("host", "dashboard", "logout")]
    c.cookies.clear()
    assert log_in(c) == "/"  # logging in again works


def _session_cookie(r: Response) -> str:
    cookies = [v for k, v in r.headers.multi_items() if k == "set-cookie"]
    ours = [v.lower() for v in cookies if v.startswith(f"{SESSION_COOKIE}=")]
    assert ours, cookies
    return ours[-1]


def test_the_session_cookie_is_secure_over_https(
    review_game: ReviewGame, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Over TLS, or from the proxy the host named saying https, the cookie is `Secure`; over
    plain HTTP, or when anyone else says https, it is not (the browser would drop it)."""
    g = review_game
    set_password(g)
    dash = make_dashboard(g, monkeypatch, proxies=("127.0.0.1",))
    assert "secure" in _session_cookie(
        client(dash, base_url="https://127.0.0.1:8765").get("/login")
    )
    assert "secure" not in _session_cookie(client(dash).get("/login"))
    https = {"x-forwarded-proto": "https", "x-forwarded-for": "203.0.113.50"}
    proxied = client(dash, "127.0.0.1")
    assert "secure" in _session_cookie(proxied.get("/login", headers=https))
    assert "secure" not in _session_cookie(client(dash, "192.0.2.1").get("/login", headers=https))
    # Logging in through the proxy records the address it forwards for; from elsewhere, the
    # header is a made-up address and is not believed.
    page = proxied.get("/login", headers=https)
    # The browser speaks https to the proxy, which passes its cookie on over http.
    cookie = {"cookie": f"{SESSION_COOKIE}={page.cookies[SESSION_COOKIE]}"}
    form = {"csrf": csrf_of(page.text), "name": "host", "password": PASSWORD}
    r = proxied.post("/login", data=form, headers={**https, **cookie}, follow_redirects=False)
    assert r.status_code == 303 and "secure" in _session_cookie(r)
    other = client(dash, "192.0.2.1")
    token = csrf_of(other.get("/login").text)
    form = {"csrf": token, "name": "host", "password": "guess guess"}
    assert other.post("/login", data=form, headers=https).status_code == 401
    logins = [e for e in open_store(g.db).host_actions(None) if e.action.startswith("login")]
    assert [e.detail["client"] for e in reversed(logins)] == ["203.0.113.50", "192.0.2.1"]


@pytest.mark.parametrize(
    "host_header", ["rebound.example", "rebound.example:8765", "127.0.0.1.rebound.example", ""]
)
def test_a_request_for_another_host_name_gets_400_before_any_handler(
    review_game: ReviewGame, monkeypatch: pytest.MonkeyPatch, host_header: str
) -> None:
    """Issue 22 (DNS rebinding): a page whose name came to point at 127.0.0.1 reached the
    login form, and with it the throttle. Only the names the dashboard serves get an answer."""
    g = review_game
    set_password(g)
    c = client(make_dashboard(g, monkeypatch))
    token = csrf_of(c.get("/login").text)
    before = _actions(g)
    bad = {"host": host_header}
    for r in (
        c.get("/login", headers=bad),
        c.get("/static/dashboard.css", headers=bad),
        c.post("/login", headers=bad, data={"csrf": token, "name": "host", "password": "x" * 9}),
    ):
        assert r.status_code == 400 and "does not answer to that host name" in r.text
        assert "set-cookie" not in r.headers and r.headers["x-frame-options"] == "DENY"
    assert _actions(g) == before  # no handler ran: no failed login, nothing throttled
    assert open_store(g.db).login_throttle("testclient") is None
    for good in ("localhost:8765", "LOCALHOST.", "127.0.0.1", "[::1]:8765"):
        assert c.get("/login", headers={"host": good}).status_code == 200, good


def test_a_changed_password_ends_older_sessions(
    review_game: ReviewGame, monkeypatch: pytest.MonkeyPatch
) -> None:
    g = review_game
    c = host_client(g, monkeypatch, logged_in=False)
    assert log_in(c) == "/"
    assert c.get("/", follow_redirects=False).status_code == 200
    set_password(g, "another long password")
    assert c.get("/", follow_redirects=False).status_code == 303
    assert log_in(c) == "401"
    assert log_in(c, password="another long password") == "/"


def test_player_text_is_shown_as_text(web: Web) -> None:
    g, c = web.g, web.c
    page = c.get("/games/1").text
    assert (
        "голосую за &lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(2)&gt;" in page
    )
    assert "<script>alert" not in page and "<img src=x" not in page
    assert XSS not in page
    # Names in the audit log (a CLI host's system user, a login name typed by anyone).
    hostile = '<img src=x onerror="alert(3)">'
    open_store(g.db).record_action("fix", by=hostile, via="cli", game_id=1, detail={"x": hostile})
    for path in ("/games/1/log", "/log"):
        log = c.get(path).text
        assert hostile not in log and "&lt;img src=x onerror=&#34;alert(3)&#34;&gt;" in log


def test_fix_ignore_typed_then_approve_and_publish_to_the_board(web: Web) -> None:
    g, c, ids, act = web.g, web.c, web.warning_ids(), web.act

    assert (
        act("fix", warning="999", name="Петя")
        == "error: no warning #999 in turn 1 (its warnings: #1, #2, #3)"
    )
    assert "is not a choice" in act("fix", warning=str(ids["Коля"]), name="Ксюша")
    assert (
        act("fix", warning=str(ids["Коля"]), name="Петя")
        == f"ok: Warning #{ids['Коля']} settled: Петя"
    )
    assert "ignored" in act("ignore", warning=str(ids["Вася"]))
    assert "error: no order read in 'доброе утро'" in act(
        "typed", warning=str(ids["Оля"]), text="доброе утро"
    )
    # Approving with a warning still holding the results needs the host to say so.
    assert "still hold the results" in act("approve-publish")
    assert "Оля: vote Маша" in act("typed", warning=str(ids["Оля"]), text="голосую за Машу")
    page = c.get("/games/1").text
    assert page.count("holds the results</span>") == 0 and "fixed: typed: голосую за Машу" in page
    assert re.search(r'<td class="name">Коля</td><td class="name">Петя</td><td>1</td>', page)
    assert "<strong>Итоги хода 1</strong>" in page  # the preview, as HTML
    assert len(g.thread_texts()) == 1
    result = act("approve-publish")
    assert result.startswith("ok: Approved") and "Published" in result
    results = g.thread_texts()[-1]  # the thread as players read it
    assert "Итоги хода 1" in results and "Коля → Петя" in results and "Оля → Маша" in results
    assert "script" not in results
    mine = [(by, via, a) for by, via, a in _actions(g) if via == "dashboard"]
    assert [a for _, _, a in mine] == ["login", "fix", "ignore", "typed", "approve", "publish"]
    assert all(by == "host" for by, _, _ in mine)
    log = g.cli("host", "log").output  # the same audit log as the command line's
    assert "dashboard" in log and "typed=голосую за Машу" in log
    late = act("fix", warning=str(ids["Коля"]), name="Маша")
    assert late.startswith("error:") and "published" in late


def test_a_malformed_form_gets_one_clear_message(web: Web) -> None:
    """Fields a browser would not send, as a hand-made request sends them: each one line
    on the game page, nothing done (a superscript "²" is a digit int() refuses: it was a 500)."""
    g, act, ids = web.g, web.act, web.warning_ids()
    before = _actions(g)
    assert act("fix", warning="²", name="Петя") == "error: warning must be a number, not '²'"
    assert act("drop", order="1e3") == "error: order must be a number, not '1e3'"
    assert act("fix", warning=str(ids["Коля"])) == (
        "error: no player chosen: pick one from the list, then send the form again"
    )
    assert act("typed", warning=str(ids["Оля"]), text="  ") == "error: the form has no typed order"
    assert _actions(g) == before


def test_a_long_message_keeps_the_session_cookie_small(web: Web) -> None:
    """A typed order of 1,000 words is refused with a message that quotes it: the message is
    on the next page, and the session cookie stays under the 4 KB a browser keeps (it carried
    the message: 8 KB, so a browser dropped it and the host saw nothing)."""
    c, ids = web.c, web.warning_ids()
    typed = " ".join(["доброе утро"] * 500)
    token = csrf_of(c.get("/games/1").text)
    sent = c.post(
        "/games/1/typed",
        data={"csrf": token, "warning": str(ids["Оля"]), "text": typed},
        follow_redirects=False,
    )
    assert sent.status_code == 303 and len(sent.headers.get("set-cookie", "")) < 4096
    page = html.unescape(c.get(sent.headers["location"]).text)
    assert f"no order read in '{typed}'" in page
    assert f"no order read in '{typed}'" not in html.unescape(c.get("/games/1").text)


def _started_with(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, names: list[str]) -> ReviewGame:
    """A classic game of `names` (commissar, mafioso, the rest citizens) on the local board,
    started at 18:00 on 1 December; its start waits for the host's approval."""
    url = f"sqlite:///{tmp_path / 'board.sqlite'}"
    board, thread = local_board(url, names)
    path = tmp_path / "game.toml"
    roles = dict(zip(names, ["commissar", "mafioso"] + ["citizen"] * len(names), strict=False))
    path.write_text(
        game_toml(url=url, thread=thread, players=names, review="warnings", roles=roles),
        encoding="utf-8",
    )
    g = ReviewGame(path, f"sqlite:///{tmp_path / 'store.sqlite'}", board, thread)
    monkeypatch.setenv("FORUMGM_GM_PASSWORD", "unused")
    monkeypatch.setenv("UNUSED", "gm-secret")
    assert g.cli("game", "start", str(path), at="2026-12-01T18:00+03:00").exit_code == 0
    return g


def test_a_nickname_that_is_html_stays_a_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A player registered as markup: the players, the vote table and the preview of the
    opening post and role PMs all show it as text."""
    nick = "<img src=x onerror=alert(4)>"
    g = _started_with(tmp_path, monkeypatch, ["Вася", "Петя", nick])
    c = host_client(g, monkeypatch, at="2026-12-01T20:00+03:00")
    page = c.get("/games/1").text
    assert "<img src=x" not in page
    escaped = "&lt;img src=x onerror=alert(4)&gt;"
    for where in (
        f'<td class="name">{escaped}</td>',  # the vote table
        f'<li class="alive">{escaped}</li>',  # the players
        f'<td class="name" data-label="Player">{escaped}</td>',  # their activity
        f"<strong>{escaped}</strong>",  # the opening post's preview
        f'PM to <span class="name">{escaped}</span>',  # the role PM's preview
    ):
        assert where in page, where


def test_a_nickname_with_two_spaces_is_picked_as_it_is(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A browser sends an <option> without a value as its text with each run of spaces made
    one: "Анна  Ли" came back "Анна Ли", no player's name. The options carry the name."""
    names = ["Вася", "Петя", "Анна  Ли"]
    g = _started_with(tmp_path, monkeypatch, names)
    for words, at in (
        (("review", str(g.path), "--approve"), "2026-12-01T18:00+03:00"),
        (("run", str(g.path), "--once"), "2026-12-01T19:01+03:00"),
    ):
        assert g.cli(*words, at=at).exit_code == 0
    g.board.pm_as(
        "Вася", [GM], "ход", "голосую за Петю", at=datetime(2026, 12, 1, 17, 0, tzinfo=UTC)
    )
    assert g.cli("run", str(g.path), "--once", at="2026-12-01T20:30+03:00").exit_code == 0
    c = host_client(g, monkeypatch, at="2026-12-01T20:31+03:00")
    page = c.get("/games/1").text
    row = re.search(r'<tr id="o(\d+)">(.*?)</tr>', page, re.DOTALL)
    assert row is not None, page
    options = re.findall(r'<option(?: value="([^"]*)")?>([^<]*)</option>', row.group(2))
    # What a browser sends for each option: its value, or else its text, spaces collapsed.
    sent = [
        html.unescape(value) if value else " ".join(html.unescape(text).split())
        for value, text in options
    ]
    assert sent == names
    token = csrf_of(page)
    r = c.post("/games/1/retarget", data={"csrf": token, "order": row.group(1), "name": sent[2]})
    assert f"Order #{row.group(1)} now names Анна  Ли" in html.unescape(r.text)


def test_a_seat_that_changed_hands_reads_as_in_tally(web: Web) -> None:
    """Issue 11.1: in the vote table a replaced seat is "A (replaced B)", as `forumgm review
    --votes`, `tally` and `votes` print it; the name a vote gave is the seat's."""
    g, c, ids = web.g, web.c, web.warning_ids()
    fixed = g.cli("review", str(g.path), "--fix", f"{ids['Коля']}=Петя")  # Коля → Петя
    assert fixed.exit_code == 0, fixed.output
    g.board.add_user("Новичок", None)  # `game replace` looks the account up on the board
    replaced = g.cli("game", "replace", str(g.path), "Петя", "Новичок")
    assert replaced.exit_code == 0, replaced.output
    votes = c.get("/games/1").text.split('id="votes"', 1)[1].split("</section>", 1)[0]
    row = re.search(r"<td class=\"name\">Коля</td><td class=\"name\">([^<]*)</td>", votes)
    assert row is not None and html.unescape(row.group(1)) == "Новичок (replaced Петя)"
    assert '<span class="name">Новичок (replaced Петя)</span> 1' in votes

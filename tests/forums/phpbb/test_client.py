"""PhpbbClient politeness and the page kinds of forms.py, over the saved 3.3.10 pages."""

from __future__ import annotations

import asyncio
import json

import httpx
import pytest
from helpers_http import BASE, FIXTURES, FakePhpbb, FakeTime, captcha_login_page, html, page

from forums import BoardUnavailable, LayoutChanged
from forums.phpbb import forms
from forums.phpbb.client import USER_AGENT, PhpbbClient, redact
from forums.phpbb.forms import PageKind, classify


def client(fake: FakePhpbb, time: FakeTime, **options: float) -> PhpbbClient:
    return PhpbbClient(
        BASE,
        client=fake.client(),
        sleep=time.sleep,
        monotonic=lambda: time().timestamp(),
        allow_insecure_http=True,  # the saved board is served at http://127.0.0.1
        **options,  # type: ignore[arg-type]
    )


def test_requests_are_spaced_by_min_delay_and_name_forumgm() -> None:
    fake = FakePhpbb("en").on("GET", "/index.php", "index.html")
    time = FakeTime()
    http = client(fake, time, min_delay=1.5)

    async def go() -> None:
        for _ in range(3):
            await http.get(http.url("index.php"))
        await http.aclose()

    asyncio.run(go())
    assert time.slept == [1.5, 1.5]
    assert all(r.headers["User-Agent"] == USER_AGENT for r in fake.requests)
    assert "forumgm" in USER_AGENT


def test_429_honours_retry_after_and_5xx_backs_off() -> None:
    fake = FakePhpbb("en").on(
        "GET",
        "/index.php",
        html("slow down", 429, **{"Retry-After": "7"}),
        html("oops", 502),
        "index.html",
    )
    time = FakeTime()
    http = client(fake, time, min_delay=0, backoff=1)
    response = asyncio.run(http.get(http.url("index.php")))
    assert response.status_code == 200
    assert time.slept == [7, 2]


def test_bounded_retries_then_board_unavailable() -> None:
    fake = FakePhpbb("en").on("GET", "/index.php", html("down", 503))
    time = FakeTime()
    http = client(fake, time, min_delay=0, max_tries=3)
    with pytest.raises(BoardUnavailable, match="HTTP 503 after 3 tries"):
        asyncio.run(http.get(http.url("index.php")))
    assert len(fake.requests) == 3


def test_a_post_that_reached_the_board_is_not_repeated() -> None:
    fake = FakePhpbb("en").on("POST", "/posting.php?mode=reply&t=2", html("error", 500))
    time = FakeTime()
    http = client(fake, time, min_delay=0)
    with pytest.raises(BoardUnavailable):
        asyncio.run(http.post(http.url("posting.php", {"mode": "reply", "t": 2}), {"a": "b"}))
    assert len(fake.requests) == 1


def test_sid_goes_into_urls_only_when_the_board_wants_it() -> None:
    http = PhpbbClient(BASE, client=httpx.AsyncClient(), allow_insecure_http=True)
    http.sid = "0123456789abcdef0123456789abcdef"
    assert http.url("viewtopic.php", {"t": 2}) == f"{BASE}viewtopic.php?t=2"
    http.sid_in_urls = True
    assert http.url("viewtopic.php?sid=old", {"t": 2}).endswith("t=2&sid=" + http.sid)
    assert "0123" not in redact(http.url("index.php"))


# -- forms ----------------------------------------------------------------------------------

KINDS = {
    "login_page.html": PageKind.LOGIN_FORM,
    "login_failed_wrong_password.html": PageKind.LOGIN_FAILED,
    "pm_inbox_not_logged_in.html": PageKind.NOT_LOGGED_IN,
    "posting_reply_not_logged_in.html": PageKind.NOT_LOGGED_IN,
    "pm_inbox_session_expired.html": PageKind.SESSION_EXPIRED,
    "posting_flood_error.html": PageKind.FLOOD,
    "posting_form_token_invalid.html": PageKind.FORM_INVALID,
    "pm_form_token_invalid.html": PageKind.FORM_INVALID,
    "posting_reply_form.html": PageKind.POSTING_FORM,
    "posting_quote_form.html": PageKind.POSTING_FORM,
    "pm_compose_form.html": PageKind.POSTING_FORM,
    "pm_sent_confirmation.html": PageKind.POSTED,
    "viewtopic_p1.html": PageKind.TOPIC,
    "after_post_viewtopic.html": PageKind.TOPIC,
    "pm_inbox.html": PageKind.PM_FOLDER,
    "pm_outbox.html": PageKind.PM_FOLDER,
    "pm_sentbox.html": PageKind.PM_FOLDER,
    "pm_view_N1c.html": PageKind.PM_VIEW,
    "pm_view_sent_N1g.html": PageKind.PM_VIEW,
    "memberlist.html": PageKind.MEMBERLIST,
    "index.html": PageKind.INDEX,
    "viewtopic_print_p1.html": PageKind.UNKNOWN,
}
URLS = {
    e["file"]: "http://127.0.0.1:8081" + e["url"]
    for e in json.loads((FIXTURES / "capture_log.json").read_text(encoding="utf-8"))
}


@pytest.mark.parametrize("lang", ["ru", "en"])
@pytest.mark.parametrize("name", sorted(KINDS))
def test_classify_the_saved_pages(lang: str, name: str) -> None:
    assert classify(page(lang, name), URLS[f"{lang}/{name}"]) is KINDS[name]


def test_classify_a_captcha_login() -> None:
    assert classify(captcha_login_page("ru"), f"{BASE}ucp.php?mode=login") is PageKind.CAPTCHA


def test_login_form_fields_and_sid() -> None:
    url = URLS["en/login_page.html"]
    form = forms.parse_form(page("en", "login_page.html"), url, forms.Selectors.login_form)
    assert form.action == f"{BASE}ucp.php?mode=login&sid=ea064af69f7f3833d10c7d2a03bf6ea0"
    assert form.form_token == "bb7919cc8384d1d820c5dc1a921088f704554a9f"
    assert form.creation_time == 1796006587
    assert form.sid == "ea064af69f7f3833d10c7d2a03bf6ea0"
    assert form.hidden["redirect"] == "index.php"  # the last of two, as PHP reads them
    assert forms.sid_from_html(page("en", "login_page.html")) == form.sid


def test_reply_form_fields() -> None:
    url = URLS["ru/posting_reply_form.html"]
    form = forms.parse_form(page("ru", "posting_reply_form.html"), url, forms.Selectors.post_form)
    assert form.action == f"{BASE}posting.php?mode=reply&t=2"
    assert form.hidden["topic_cur_post_id"] == "64"
    assert form.checked["attach_sig"] == "on"
    assert form.texts["subject"].startswith("Re: Мафия #7")
    assert form.lastclick is None


def test_message_boxes_and_ids() -> None:
    assert "so soon" in forms.message_box(page("en", "posting_flood_error.html"))
    html_ = page("ru", "pm_sent_confirmation.html")
    assert forms.pm_id_from_confirmation(html_, BASE) == "22"
    assert forms.post_id_from_location(f"{BASE}viewtopic.php?p=66#p66") == "66"
    assert forms.logged_in_as(page("ru", "index.html")) == "Ведущий"
    assert forms.logged_in_user_id(page("ru", "index.html"), BASE) == "58"
    assert forms.logged_in_as(page("ru", "index_guest.html")) is None
    with pytest.raises(LayoutChanged):
        forms.parse_form("<html></html>", BASE, forms.Selectors.login_form)


def test_memberlist() -> None:
    listing = forms.parse_memberlist(page("ru", "memberlist.html"), f"{BASE}memberlist.php")
    names = {u.name: u.id for u in listing.users}
    assert names["Ведущий"] == "58" and names["Том & Джерри"] == "69" and names["Admin"] == "2"
    assert len(listing.users) == 13 and (listing.page, listing.pages) == (1, 1)

"""The page kinds of every saved MyBB page, their forms and boxes, and the client's politeness."""

from __future__ import annotations

import asyncio

import pytest
from helpers_mybb import BASE, FakeMybb, FakeTime, html, load_saved_page, page

from forums import BoardUnavailable, User
from forums.guard import ForeignOrigin, redact
from forums.mybb import forms
from forums.mybb.forms import PageKind, classify
from forums.phpbb.client import PhpbbClient

KINDS = {
    "after_post_showthread": PageKind.TOPIC,
    "archive_thread_p1": PageKind.UNKNOWN,
    "forumdisplay": PageKind.UNKNOWN,
    "index": PageKind.INDEX,
    "index_guest": PageKind.INDEX,
    "login_failed_wrong_password": PageKind.LOGIN_FAILED,
    "login_page": PageKind.LOGIN_FORM,
    "login_success_redirect": PageKind.POSTED,
    "logout_result": PageKind.POSTED,
    "memberlist": PageKind.MEMBERLIST,
    "newreply_bad_post_key": PageKind.FORM_INVALID,
    "newreply_flood_error": PageKind.FLOOD,
    "newreply_form": PageKind.POSTING_FORM,
    "newreply_form_before_submit": PageKind.POSTING_FORM,
    "newreply_not_logged_in": PageKind.NOT_LOGGED_IN,
    "newreply_quote_form": PageKind.POSTING_FORM,
    "newreply_submit_response": PageKind.POSTED,
    "printthread_p1": PageKind.UNKNOWN,
    "private_bad_post_key": PageKind.FORM_INVALID,
    "private_compose_form": PageKind.POSTING_FORM,
    "private_compose_to_user": PageKind.POSTING_FORM,
    "private_inbox": PageKind.PM_FOLDER,
    "private_inbox_after_reading": PageKind.PM_FOLDER,
    "private_inbox_player_Alu": PageKind.PM_FOLDER,
    "private_not_logged_in": PageKind.NOT_LOGGED_IN,
    "private_read_N1a": PageKind.PM_VIEW,
    "private_read_sent_N1g": PageKind.PM_VIEW,
    "private_reply_form": PageKind.POSTING_FORM,
    "private_sent": PageKind.PM_FOLDER,
    "private_sent_confirmation": PageKind.POSTED,
    "private_session_expired": PageKind.NOT_LOGGED_IN,
    "showthread_p1": PageKind.TOPIC,
    "showthread_p1_guest": PageKind.TOPIC,
    "showthread_p5_as_moderator": PageKind.TOPIC,
    "showthread_threaded_mode": PageKind.TOPIC,
}


@pytest.mark.parametrize("name", sorted(KINDS))
def test_classify_the_saved_pages(name: str) -> None:
    saved = load_saved_page(name)
    assert classify(saved.html, saved.url) is KINDS[name]


def test_who_is_logged_in() -> None:
    assert forms.logged_in_user(page("index")) == User("2", "Ведущий")
    assert forms.logged_in_user(page("private_inbox_player_Alu")) == User("9", "Alu")
    assert forms.logged_in_user(page("showthread_p5_as_moderator")) == User("1", "Admin")
    for guest in ("index_guest", "showthread_p1_guest", "private_not_logged_in"):
        assert forms.logged_in_user(page(guest)) is None and forms.is_guest(page(guest))
    assert not forms.is_guest(page("printthread_p1"))  # no header at all


def test_login_form_is_the_page_form_not_the_header_popup() -> None:
    form = forms.login_form(page("login_page"), f"{BASE}member.php?action=login")
    assert form.action == f"{BASE}member.php"
    assert form.fields["action"] == "do_login" and form.fields["remember"] == "yes"
    assert form.post_key == "bb2f3c8a56255c383447633a393e4e4d"
    assert "quick_login" not in form.fields


def test_reply_and_pm_forms() -> None:
    reply = forms.read_form(
        page("newreply_form"), f"{BASE}newreply.php?tid=1", "form[name='input']"
    )
    assert reply.action == f"{BASE}newreply.php?tid=1&processed=1"
    assert reply.fields["subject"].startswith("RE: Мафия #7")
    assert reply.fields["postoptions[subscriptionmethod]"] == ""  # a checked radio with no value
    assert reply.fields["message"] == ""
    quote = forms.read_form(page("newreply_quote_form"), BASE, "form[name='input']")
    assert quote.fields["message"].startswith("[quote=\"Лёха\" pid='34'")
    pm = forms.read_form(page("private_reply_form"), BASE, "form[name='input']")
    assert (pm.fields["to"], pm.fields["subject"], pm.fields["do"]) == (
        "Alu",
        "Re: проверка",
        "reply",
    )
    assert pm.fields["options[savecopy]"] == "1"


def test_the_pm_flood_limit_is_flood_control_with_its_wait() -> None:
    """MyBB's PM flood text (`pmdata_pm_flooding`, met by the GM's receipts on a real MyBB
    1.8.37, tests/live) in the form it re-displays. Derived page: the saved reply form's
    post-flood error with the PM datahandler's words."""
    said = (
        "You are trying to send a message too quickly after sending a previous message. "
        "Please wait 42 more seconds."
    )
    flood = page("newreply_flood_error").replace(
        "You are trying to post a message too quickly after posting a previous message. "
        "Please wait 61 more seconds.",
        said,
    )
    assert said in flood
    assert classify(flood, f"{BASE}private.php") is PageKind.FLOOD
    assert forms.flood_wait(forms.message(flood), 30) == 42
    one = flood.replace("Please wait 42 more seconds.", "Please wait 1 more second.")
    assert forms.flood_wait(forms.message(one), 30) == 1


def test_messages_waits_and_targets() -> None:
    flood = page("newreply_flood_error")
    assert "too quickly" in forms.message(flood)
    assert forms.flood_wait(forms.message(flood), 5) == 61
    assert forms.flood_wait("try later", 5) == 5
    assert "Authorization code mismatch" in forms.message(page("private_bad_post_key"))
    assert "not logged in" in forms.message(page("newreply_not_logged_in"))
    assert "invalid username/password" in forms.message(page("login_failed_wrong_password"))
    target = forms.redirect_target(page("newreply_submit_response"), f"{BASE}newreply.php")
    assert target == f"{BASE}showthread.php?tid=1&pid=64#pid64"
    assert forms.post_id_from(target) == "64"
    assert forms.footer_clock(page("showthread_p1")) == "11-30-2026, 05:47 AM"


def test_memberlist() -> None:
    listing = forms.parse_memberlist(page("memberlist"), f"{BASE}memberlist.php")
    names = {u.name: u.id for u in listing.users}
    assert names["Ведущий"] == "2" and names["Том и Джерри"] == "13" and names["Admin"] == "1"
    assert len(listing.users) == 13 and (listing.page, listing.pages) == (1, 1)


# -- the client ----------------------------------------------------------------------------


def client(fake: FakeMybb, time: FakeTime, **options: float) -> PhpbbClient:
    return PhpbbClient(
        BASE,
        client=fake.client(),
        allow_insecure_http=True,
        sleep=time.sleep,
        monotonic=lambda: time().timestamp(),
        **options,
    )


def test_429_honours_retry_after_and_5xx_backs_off() -> None:
    fake = FakeMybb().on(
        "GET",
        "/index.php",
        html("slow down", 429, **{"Retry-After": "7"}),
        html("oops", 502),
        "index",
    )
    time = FakeTime()
    http = client(fake, time, min_delay=0, backoff=1)
    assert asyncio.run(http.get(http.url("index.php"))).status_code == 200
    assert time.slept == [7, 2]


def test_a_post_that_reached_the_board_is_not_repeated() -> None:
    fake = FakeMybb().on("POST", "/newreply.php?tid=1&processed=1", html("error", 500))
    http = client(fake, FakeTime(), min_delay=0)
    with pytest.raises(BoardUnavailable):
        asyncio.run(http.post(http.url("newreply.php?tid=1&processed=1"), {"a": "b"}))
    assert len(fake.requests) == 1


def test_requests_off_the_board_are_refused_before_sending() -> None:
    fake = FakeMybb()
    http = client(fake, FakeTime(), min_delay=0)
    for elsewhere in (
        "https://127.0.0.1:8082/index.php",
        "http://127.0.0.1:8083/",
        "http://evil.example/",
    ):
        with pytest.raises(ForeignOrigin, match="nothing was sent"):
            asyncio.run(http.post(elsewhere, {"password": "x"}))
    assert fake.requests == []


def test_redact_masks_keys() -> None:
    masked = redact(
        f"{BASE}private.php?action=delete&pmid=27&my_post_key=e6f1a05b61e5366eed1a15e2368abaa3"
    )
    assert "e6f1a05b" not in masked and "pmid=27" in masked

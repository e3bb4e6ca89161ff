"""Every PM of `pms_truth.json`: those with a view page in full, the rest through the folders."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import datetime
from typing import Any

import pytest

from forums.bbcode import parse_bbcode
from forums.errors import LayoutChanged
from forums.phpbb.dates import detect_timezone
from forums.phpbb.pms import PMFolder, parse_pm_folder, parse_pm_view
from forums.records import PostBody, PrivateMessage

LANGS = ("ru", "en")
VIEWS = {
    "N1a": "pm_view_N1a",
    "N1c": "pm_view_N1c",
    "N1d": "pm_view_N1d",
    "N1e": "pm_view_N1e",
    "N1f": "pm_view_N1f",
    "N1g": "pm_view_sent_N1g",
}


def norm(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def minute(stamp: dict[str, Any]) -> datetime:
    """The truth time as the pages show it: to the minute."""
    return datetime.fromisoformat(stamp["utc"]).replace(second=0)


def folder(page: Any) -> PMFolder:
    tz = detect_timezone(page.html)
    assert tz is not None
    return parse_pm_folder(page.html, page.url, tz=tz, now=page.captured_at)


def view(page: Any) -> PrivateMessage:
    tz = detect_timezone(page.html)
    assert tz is not None
    return parse_pm_view(page.html, page.url, tz=tz, now=page.captured_at)


def kinds(body: PostBody) -> tuple[str, str, str]:
    runs = PostBody(tuple(r for r in body.runs if not r.signature))
    return (
        norm(runs.text()),
        norm("".join(r.text for r in runs.runs if r.struck)),
        norm(" ".join(r.text for r in runs.runs if r.bold)),
    )


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("label", sorted(VIEWS))
def test_every_pm_with_a_view_page(
    lang: str, label: str, saved_page: Callable[[str], Any], pms_truth: dict[str, Any]
) -> None:
    truth = next(m for m in pms_truth["messages"] if m["label"] == label)
    pm = view(saved_page(f"{lang}/{VIEWS[label]}"))
    assert pm.id == str(truth["msg_id"])
    assert pm.sender == truth["sender"]
    assert pm.sender_id == str(truth["sender_user_id"])
    assert pm.recipients == (truth["recipient"],)
    assert pm.sent_at == minute(truth["sent_at"])
    assert pm.subject == truth["subject"]
    assert pm.raw
    assert kinds(pm.body) == kinds(parse_bbcode(truth["bbcode"]))


def test_struck_order_and_signature_in_views(saved_page: Callable[[str], Any]) -> None:
    changed = view(saved_page("ru/pm_view_N1d"))
    assert "выстрел Alu" in "".join(r.text for r in changed.body.runs if r.struck)
    assert norm(changed.body.text()) == "Передумал. выстрел Doc_Holiday"
    check = view(saved_page("en/pm_view_N1c"))
    assert norm(check.body.text()) == "проверка: Nekr0"
    assert "vote responsibly" in norm(check.body.text(include_signature=True))


@pytest.mark.parametrize("lang", LANGS)
def test_every_pm_through_the_folder_lists(
    lang: str, saved_page: Callable[[str], Any], pms_truth: dict[str, Any]
) -> None:
    inbox = folder(saved_page(f"{lang}/pm_inbox"))
    outbox = folder(saved_page(f"{lang}/pm_outbox"))
    sentbox = folder(saved_page(f"{lang}/pm_sentbox"))
    assert (inbox.folder, outbox.folder, sentbox.folder) == ("inbox", "outbox", "sentbox")
    for box in (inbox, outbox, sentbox):
        assert (box.page, box.pages, box.logged_in_as) == (1, 1, "Ведущий")

    truth = {str(m["msg_id"]): m for m in pms_truth["messages"] if m["kind"] != "live"}
    received = {i.id: i for i in inbox.items}
    sent = {i.id: i for i in outbox.items + sentbox.items}
    assert set(received) == {k for k, m in truth.items() if m["gm_folder"] == "inbox"}
    assert set(sent) == {k for k, m in truth.items() if m["gm_folder"] != "inbox"}
    assert not set(received) & set(sent)

    for msg_id, item in {**received, **sent}.items():
        m = truth[msg_id]
        assert item.subject == m["subject"], msg_id
        assert item.sender == m["sender"], msg_id
        assert item.sender_id == str(m["sender_user_id"]), msg_id
        assert item.sent_at == minute(m["sent_at"]), msg_id
        assert item.url.startswith("http://127.0.0.1:8081/ucp.php?i=pm&mode=view&f=")
        assert item.url.endswith(f"&p={msg_id}")
    for item in inbox.items:
        assert item.recipients == ("Ведущий",)
        assert item.unread  # captured before the GM opened any
    for item in sent.values():
        assert item.recipients == (truth[item.id]["recipient"],)


@pytest.mark.parametrize("lang", LANGS)
def test_read_state_after_reading(lang: str, saved_page: Callable[[str], Any]) -> None:
    after = folder(saved_page(f"{lang}/pm_inbox_after_reading"))
    unread = {i.id for i in after.items if i.unread}
    opened = {"12", "14", "15", "16", "17"}  # the messages with a view page
    assert unread == {i.id for i in after.items} - opened


@pytest.mark.parametrize("lang", LANGS)
def test_pm_index_is_the_inbox(lang: str, saved_page: Callable[[str], Any]) -> None:
    index = folder(saved_page(f"{lang}/pm_index"))
    inbox = folder(saved_page(f"{lang}/pm_inbox"))
    assert index.folder == "inbox"
    assert [i.id for i in index.items] == [i.id for i in inbox.items]


def test_empty_folder_says_so(saved_page: Callable[[str], Any]) -> None:
    # Alu opened her PM area between the captures: the ru sent box is still empty.
    sentbox = folder(saved_page("ru/pm_sentbox"))
    assert sentbox.items == []


def test_player_inbox(saved_page: Callable[[str], Any]) -> None:
    alu = folder(saved_page("en/pm_inbox_player_Alu"))
    assert alu.logged_in_as == "Alu"
    assert {i.sender for i in alu.items} == {"Ведущий"}
    assert all(i.recipients == ("Alu",) for i in alu.items)


@pytest.mark.parametrize(
    "name",
    [
        "pm_inbox_not_logged_in",
        "pm_inbox_session_expired",
        "index",
        "viewtopic_p1",
        "pm_compose_form",
    ],
)
@pytest.mark.parametrize("lang", LANGS)
def test_not_a_folder_page(lang: str, name: str, saved_page: Callable[[str], Any]) -> None:
    page = saved_page(f"{lang}/{name}")
    with pytest.raises(LayoutChanged) as caught:
        folder(page)
    assert caught.value.url == page.url
    with pytest.raises(LayoutChanged) as caught_view:
        view(page)
    assert caught_view.value.url == page.url
    assert caught_view.value.what


@pytest.mark.parametrize("lang", LANGS)
def test_folder_without_rows_or_empty_notice(lang: str, saved_page: Callable[[str], Any]) -> None:
    page = saved_page(f"{lang}/pm_inbox")
    html = re.sub(r'<ul class="topiclist cplist pmlist.*?</ul>', "", page.html, flags=re.S)
    tz = detect_timezone(html)
    assert tz is not None
    with pytest.raises(LayoutChanged) as caught:
        parse_pm_folder(html, page.url, tz=tz, now=page.captured_at)
    assert caught.value.url == page.url
    assert "no messages" in caught.value.what

"""Every PM of the MyBB `pms_truth.json`: each view page in full, all of them in the folders."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import datetime
from typing import Any

import pytest
from helpers_mybb import HOST, MSK, SavedPage, page

from forums.bbcode import parse_bbcode
from forums.errors import LayoutChanged
from forums.mybb.pms import PMFolder, parse_pm_folder, parse_pm_view
from forums.records import PostBody, PrivateMessage

VIEWS = {
    "N1a": "private_read_N1a",
    "N1c": "private_read_N1c",
    "N1d": "private_read_N1d",
    "N1e": "private_read_N1e",
    "N1f": "private_read_N1f",
    "N1g": "private_read_sent_N1g",
}
GM = "Ведущий"


def norm(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def minute(stamp: dict[str, Any]) -> datetime:
    return datetime.fromisoformat(stamp["utc"]).replace(second=0)


def folder(saved: SavedPage) -> PMFolder:
    return parse_pm_folder(saved.html, saved.url, tz=MSK, now=saved.captured_at)


def view(saved: SavedPage) -> PrivateMessage:
    return parse_pm_view(saved.html, saved.url, tz=MSK, now=saved.captured_at)


def kinds(body: PostBody) -> tuple[str, str, str]:
    runs = PostBody(tuple(r for r in body.runs if not r.signature))
    return (
        norm(runs.text()),
        norm("".join(r.text for r in runs.runs if r.struck)),
        norm(" ".join(r.text for r in runs.runs if r.bold)),
    )


@pytest.fixture(scope="module")
def uids(mybb_thread_truth: dict[str, Any]) -> dict[str, str]:
    people = [mybb_thread_truth["gm"], *mybb_thread_truth["players"]]
    return {p["username"]: str(p["uid"]) for p in people}


@pytest.mark.parametrize("label", sorted(VIEWS))
def test_every_pm_with_a_view_page(
    label: str,
    mybb_page: Callable[[str], SavedPage],
    mybb_pms_truth: dict[str, Any],
    uids: dict[str, str],
) -> None:
    truth = next(m for m in mybb_pms_truth["messages"] if m["label"] == label)
    pm = view(mybb_page(VIEWS[label]))
    # The GM's copy: the inbox copy of what players sent, the Sent Items copy of the GM's own.
    own = truth["sender"] == GM
    assert pm.id == str(truth["sender_copy_pmid"] if own else truth["recipient_pmid"])
    assert pm.sender == truth["sender"] and pm.sender_id == uids[truth["sender"]]
    assert pm.recipients == (truth["recipient"],)
    assert pm.sent_at == minute(truth["sent_at"])
    assert pm.subject == truth["subject"]
    assert pm.url == f"{HOST}/private.php?action=read&pmid={pm.id}"
    assert pm.raw
    assert kinds(pm.body) == kinds(parse_bbcode(truth["bbcode"]))


def test_struck_order_and_signature_in_views(mybb_page: Callable[[str], SavedPage]) -> None:
    changed = view(mybb_page("private_read_N1d"))
    assert "выстрел Alu" in "".join(r.text for r in changed.body.runs if r.struck)
    assert norm(changed.body.text()) == "Передумал. выстрел Doc_Holiday"
    check = view(mybb_page("private_read_N1c"))
    assert norm(check.body.text()) == "проверка: Nekr0"
    assert "vote responsibly" in norm(check.body.text(include_signature=True))


def test_every_pm_through_the_folder_lists(
    mybb_page: Callable[[str], SavedPage], mybb_pms_truth: dict[str, Any], uids: dict[str, str]
) -> None:
    inbox = folder(mybb_page("private_inbox"))
    sent = folder(mybb_page("private_sent"))
    assert (inbox.folder, inbox.name, sent.folder, sent.name) == ("0", "inbox", "2", "sent")
    for box in (inbox, sent):
        assert (box.page, box.pages, box.logged_in_as) == (1, 1, GM)
    messages = [m for m in mybb_pms_truth["messages"] if m["kind"] != "live"]
    received = {str(m["recipient_pmid"]): m for m in messages if m["recipient"] == GM}
    copies = {str(m["sender_copy_pmid"]): m for m in messages if m["sender"] == GM}
    assert [i.id for i in inbox.items] == sorted(received, key=int, reverse=True)
    assert [i.id for i in sent.items] == sorted(copies, key=int, reverse=True)
    for item in inbox.items + sent.items:
        truth = received.get(item.id) or copies[item.id]
        assert item.subject == truth["subject"], item.id
        assert (item.sender, item.sender_id) == (truth["sender"], uids[truth["sender"]]), item.id
        assert item.recipients == (truth["recipient"],), item.id
        assert item.sent_at == minute(truth["sent_at"]), item.id
        assert item.url == f"{HOST}/private.php?action=read&pmid={item.id}"


def test_read_state_after_reading(mybb_page: Callable[[str], SavedPage]) -> None:
    before = folder(mybb_page("private_inbox"))
    after = folder(mybb_page("private_inbox_after_reading"))
    opened = {"23", "27", "29", "31", "33"}  # the messages with a view page
    assert {i.id for i in after.items if i.unread} == {
        i.id for i in before.items if i.unread
    } - opened
    assert {i.id for i in after.items if i.unread} == {"25", "39", "41"}


def test_player_inbox(mybb_page: Callable[[str], SavedPage]) -> None:
    alu = folder(mybb_page("private_inbox_player_Alu"))
    assert alu.logged_in_as == "Alu"
    assert [(i.id, i.sender) for i in alu.items] == [("35", GM), ("13", GM)]
    assert all(i.recipients == ("Alu",) for i in alu.items)


def test_an_empty_folder_says_so(mybb_page: Callable[[str], SavedPage]) -> None:
    saved = mybb_page("private_sent")
    # Derived: every row replaced by MyBB's empty-folder row (no empty folder was captured).
    rows = re.compile(r"<!-- start: private_messagebit -->.*<!-- end: private_messagebit -->", re.S)
    empty = rows.sub(
        '<tr><td class="trow1" colspan="6" align="center">There are no messages in this folder.'
        "</td></tr>",
        saved.html,
    )
    assert folder(SavedPage(saved.name, empty, saved.url, saved.captured_at)).items == []
    with pytest.raises(LayoutChanged, match="no 'empty' notice"):
        folder(SavedPage(saved.name, rows.sub("", saved.html), saved.url, saved.captured_at))


@pytest.mark.parametrize(
    "name",
    [
        "private_not_logged_in",
        "private_session_expired",
        "index",
        "showthread_p1",
        "private_compose_form",
    ],
)
def test_not_a_pm_page(name: str, mybb_page: Callable[[str], SavedPage]) -> None:
    saved = mybb_page(name)
    with pytest.raises(LayoutChanged) as caught:
        folder(saved)
    assert caught.value.url == saved.url and "not a PM folder" in caught.value.what
    with pytest.raises(LayoutChanged) as caught_view:
        view(saved)
    assert caught_view.value.url == saved.url and "not a PM view" in caught_view.value.what


def test_a_view_without_its_id_is_layout_changed() -> None:
    body = re.sub(r"pmid=\d+|name=\"pmid\" value=\"\d+\"", "", page("private_read_N1c"))
    with pytest.raises(LayoutChanged, match="id"):
        parse_pm_view(body, f"{HOST}/private.php", tz=MSK, now=datetime.now(MSK))

"""MyBB private-message pages (`private.php`): folder lists and single messages. Pure.

MyBB keeps one copy per recipient and, when "Save a Copy" is ticked, one in the sender's
"Sent Items": a PM has a different `pmid` in each box. Folder ids: 0 Inbox, 1 Unread,
2 Sent Items, 3 Drafts, 4 Trash Can; custom folders follow.
"""

from __future__ import annotations

import re
from datetime import datetime, tzinfo
from urllib.parse import urljoin

from selectolax.lexbor import LexborHTMLParser, LexborNode

from forums.errors import N_, LayoutChanged
from forums.html import parse_html
from forums.mybb import forms
from forums.mybb.dates import node_time
from forums.mybb.html import mybb_postbody
from forums.mybb.selectors import DEFAULT, MybbSelectors
from forums.mybb.thread import author_of, signed_body, structural_posts
from forums.pages import PMFolder as FolderPage
from forums.pages import PMListItem
from forums.records import PrivateMessage, User

__all__ = ["FOLDERS", "PMFolder", "PMListItem", "parse_pm_folder", "parse_pm_view"]

FOLDERS = {"0": "inbox", "1": "unread", "2": "sent", "3": "drafts", "4": "trash"}
SENT = "2"
_EMPTY = re.compile(
    r"(no messages|there are no (?:private )?messages|нет (?:личных )?сообщений)", re.IGNORECASE
)


class PMFolder(FolderPage):
    """A page of a MyBB folder, whose `folder` is its id ("0" inbox, "2" sent items, …)."""

    @property
    def name(self) -> str:
        return FOLDERS.get(self.folder, self.folder)


def _folder_id(form: LexborNode, url: str, sel: MybbSelectors) -> str:
    chosen = form.css_first(sel.pm_folder_jump)
    if chosen is not None and (chosen.attributes.get("value") or "").isdigit():
        return chosen.attributes.get("value") or "0"
    return forms.query_param(url, "fid") or "0"


def parse_pm_folder(
    html: str,
    url: str,
    *,
    tz: tzinfo,
    now: datetime,
    order: str = "mdy",
    selectors: MybbSelectors = DEFAULT,
) -> PMFolder:
    """A folder list, newest first as served. A folder without rows must say it is empty."""
    sel = selectors
    tree = parse_html(html)
    form = tree.css_first(sel.pm_folder_form)
    if form is None:
        kind = forms.classify(tree, url, sel)
        raise LayoutChanged(url, N_("not a PM folder page: a {kind} page").format(kind=kind.value))
    folder = _folder_id(form, url, sel)
    me = forms.logged_in_user(tree, sel)
    rows = [row for row in form.css("tr") if row.css_first(sel.pm_row_check) is not None]
    items = [_list_item(row, url, folder, me, sel, tz=tz, now=now, order=order) for row in rows]
    if not items and not _EMPTY.search(forms.text_of(form)):
        raise LayoutChanged(
            url,
            N_("PM folder {folder} shows no messages and no 'empty' notice").format(folder=folder),
        )
    page, pages = forms.pagination(tree, sel)
    return PMFolder(
        url=url,
        folder=folder,
        items=items,
        page=page,
        pages=pages,
        logged_in_as=me.name if me is not None else None,
    )


def _list_item(
    row: LexborNode,
    url: str,
    folder: str,
    me: User | None,
    sel: MybbSelectors,
    *,
    tz: tzinfo,
    now: datetime,
    order: str,
) -> PMListItem:
    link = row.css_first(sel.pm_row_link)
    if link is None:
        raise LayoutChanged(
            url,
            N_("a PM row without a message link ({sel_pm_row_link})").format(
                sel_pm_row_link=sel.pm_row_link
            ),
        )
    href = link.attributes.get("href") or ""
    pmid = forms.query_param(href, "pmid")
    if not pmid or not pmid.isdigit():
        raise LayoutChanged(url, N_("a PM row without a message id ({href!r})").format(href=href))
    cells = row.css("td")
    title_at = next(i for i, c in enumerate(cells) if c.css_first(sel.pm_row_link) is not None)
    people = [forms.user_from_link(a) for a in cells[title_at + 1].css(sel.member_link)]
    users = [u for u in people if u is not None] if len(cells) > title_at + 1 else []
    if len(cells) < title_at + 3:
        raise LayoutChanged(url, N_("PM {pmid} has no time in the folder list").format(pmid=pmid))
    try:
        sent_at = node_time(cells[title_at + 2], tz=tz, now=now, order=order)
    except ValueError as exc:
        raise LayoutChanged(
            url, N_("PM {pmid} has an unreadable time: {exc}").format(pmid=pmid, exc=exc)
        ) from None
    if folder == SENT:
        sender, sender_id = (me.name, me.id) if me is not None else ("", None)
        recipients = tuple(u.name for u in users)
    else:
        if not users:
            raise LayoutChanged(
                url, N_("PM {pmid} has no sender in the folder list").format(pmid=pmid)
            )
        sender, sender_id = users[0].name, users[0].id
        recipients = (me.name,) if me is not None else ()
    return PMListItem(
        id=pmid,
        subject=forms.text_of(link),
        sender=sender,
        sender_id=sender_id,
        recipients=recipients,
        sent_at=sent_at,
        url=urljoin(url, href),
        unread="new_pm" in (link.attributes.get("class") or "").split(),
    )


def parse_pm_view(
    html: str,
    url: str,
    *,
    tz: tzinfo,
    now: datetime,
    order: str = "mdy",
    selectors: MybbSelectors = DEFAULT,
) -> PrivateMessage:
    """One opened PM (`private.php?action=read&pmid=N`)."""
    sel = selectors
    tree = parse_html(html)
    if forms.classify(tree, url, sel) is not forms.PageKind.PM_VIEW:
        kind = forms.classify(tree, url, sel)
        raise LayoutChanged(url, N_("not a PM view page: a {kind} page").format(kind=kind.value))
    message = tree.css_first(f"{sel.posts} {sel.post}")
    pmid = _pmid(tree, url)
    if pmid is None:
        raise LayoutChanged(url, N_("a PM view without the message's id (no pmid= link)"))
    if message is None:
        # A theme without `div.post`: the message as MyBB marks it (`id="post_N"`).
        return _structural_view(tree, url, pmid, tz=tz, now=now, order=order)
    sender, name = author_of(message, sel)
    if not name:
        raise LayoutChanged(url, N_("PM {pmid} has no sender").format(pmid=pmid))
    date = message.css_first(sel.post_date)
    if date is None:
        raise LayoutChanged(
            url,
            N_("PM {pmid} has no date ({sel_post_date})").format(
                pmid=pmid, sel_post_date=sel.post_date
            ),
        )
    try:
        sent_at = node_time(date, tz=tz, now=now, order=order, skip="span.post_edit")
    except ValueError as exc:
        raise LayoutChanged(
            url, N_("PM {pmid} has an unreadable time: {exc}").format(pmid=pmid, exc=exc)
        ) from None
    content = message.css_first(sel.body)
    if content is None:
        raise LayoutChanged(
            url, N_("PM {pmid} has no body ({sel_body})").format(pmid=pmid, sel_body=sel.body)
        )
    head = message.css_first(sel.pm_to_line)
    to = [forms.user_from_link(a) for a in head.css(sel.member_link)] if head else []
    return PrivateMessage(
        id=pmid,
        sender=name,
        sender_id=sender.id if sender is not None else None,
        recipients=tuple(u.name for u in to if u is not None),
        sent_at=sent_at,
        subject=_subject(message, sel),
        body=mybb_postbody(content, base_url=url, signature=message.css_first(sel.signature)),
        url=urljoin(url, f"private.php?action=read&pmid={pmid}"),
        raw=(content.inner_html or "").strip(),
    )


def _structural_view(
    tree: LexborHTMLParser, url: str, pmid: str, *, tz: tzinfo, now: datetime, order: str
) -> PrivateMessage:
    found = structural_posts(tree, order=order, tz=tz, now=now, url=url)
    if not found:
        raise LayoutChanged(
            url, N_("PM {pmid}: no message on the page (no post_N anchor)").format(pmid=pmid)
        )
    skeleton = found[0]
    if skeleton.time_node is None:
        raise LayoutChanged(
            url, N_("PM {pmid} has no date (read by the message's marks)").format(pmid=pmid)
        )
    try:
        sent_at = node_time(skeleton.time_node, tz=tz, now=now, order=order)
    except ValueError as exc:
        raise LayoutChanged(
            url, N_("PM {pmid} has an unreadable time: {exc}").format(pmid=pmid, exc=exc)
        ) from None
    if skeleton.content is None:
        raise LayoutChanged(
            url, N_("PM {pmid} has no body (read by the message's marks)").format(pmid=pmid)
        )
    # "To: <a>…</a>" sits with the date: the profile links beside the time, not the sender's.
    head = skeleton.time_node.parent or skeleton.time_node
    to = [
        user
        for a in head.css("a[href]")
        if (user := forms.user_from_link(a)) is not None and a is not skeleton.author_node
    ]
    body = signed_body(skeleton.content, skeleton.signature, url)
    table = skeleton.node.parent
    while table is not None and table.tag != "table":
        table = table.parent
    subject = ""
    if table is not None:
        head_cell = table.css_first("thead strong, tr:first-child strong")
        subject = forms.text_of(head_cell)
    return PrivateMessage(
        id=pmid,
        sender=skeleton.author,
        sender_id=skeleton.author_id,
        recipients=tuple(u.name for u in to),
        sent_at=sent_at,
        subject=subject,
        body=body,
        url=urljoin(url, f"private.php?action=read&pmid={pmid}"),
        raw=(skeleton.content.inner_html or "").strip(),
    )


def _subject(message: LexborNode, sel: MybbSelectors) -> str:
    """The subject heads the table the message sits in (the User CP menu has a head too)."""
    table = message.parent
    while table is not None and table.tag != "table":
        table = table.parent
    return forms.text_of(table.css_first(sel.pm_view_title)) if table is not None else ""


def _pmid(tree: LexborHTMLParser, url: str) -> str | None:
    """The PM's id: its reply/delete links, the quick-reply form, the URL."""
    candidates = [a.attributes.get("href") or "" for a in tree.css("#posts a[href*='pmid=']")]
    hidden = tree.css_first("input[name=pmid]")
    if hidden is not None:
        candidates.append(f"?pmid={hidden.attributes.get('value') or ''}")
    candidates.append(url)
    for candidate in candidates:
        pmid = forms.query_param(candidate, "pmid")
        if pmid and pmid.isdigit() and pmid != "0":
            return pmid
    return None

"""vBulletin 3/4 private messages: a folder's list (`private.php?folderid=N`) and one message
(`private.php?do=showpm&pmid=N`). Pure.

- A folder lists its messages newest first, each with a link `private.php?do=showpm&pmid=N`
  (vB3: a row whose cell is `td#mN`, the sender — or in Sent Items the recipients — as
  `span`s that open `member.php?u=N`; vB4: `li#pm_N` in `ol.pmlist`). "Page 1 of 3" tells the
  folder's pages. Inbox is folder 0, Sent Items -1.
- A message is shown with the thread's post template and no post id (vB3 `table#post`,
  vB4 `li#post_`, both with `div#post_message_`): its author, time and message are read as a
  post's; its subject is the message title (or the page's "Private Message: …" header).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, tzinfo
from urllib.parse import urljoin

from selectolax.lexbor import LexborNode

from forums.errors import N_, LayoutChanged
from forums.html import parse_html
from forums.pages import PMListItem
from forums.records import PrivateMessage
from forums.vbulletin import pages
from forums.vbulletin.body import vb_body
from forums.vbulletin.dates import parse_vb_time

__all__ = ["INBOX", "SENT", "PMFolder", "parse_pm_folder", "parse_pm_view"]

INBOX = "0"
SENT = "-1"
_PMID = re.compile(r"pmid=(\d+)")
_USER_ID = re.compile(r"u=(\d+)")


@dataclass(frozen=True)
class PMFolder:
    items: list[PMListItem]
    page: int
    pages: int


def _row_of(link: LexborNode) -> LexborNode:
    node: LexborNode | None = link
    while node is not None:
        if node.tag in ("tr", "li") and (
            node.tag == "tr" or (node.attributes.get("id") or "").startswith("pm_")
        ):
            return node
        node = node.parent
    return link.parent or link


def parse_pm_folder(
    html: str, url: str, *, tz: tzinfo, now: datetime, order: str = "mdy"
) -> PMFolder:
    """The messages a folder page lists, newest first as served."""
    tree = parse_html(html)
    items: list[PMListItem] = []
    seen: set[str] = set()
    for link in tree.css("a[href*='do=showpm']"):
        found = _PMID.search(link.attributes.get("href") or "")
        if found is None or found.group(1) in seen:
            continue
        pmid = found.group(1)
        seen.add(pmid)
        row = _row_of(link)
        people = [
            (pages.text_of(span), _USER_ID.search(span.attributes.get("onclick") or ""))
            for span in row.css("span[onclick*='member.php']")
        ] or [
            (pages.text_of(a), _USER_ID.search(a.attributes.get("href") or ""))
            for a in row.css("a.username, a[href*='member.php']")
        ]
        names = tuple(name for name, _ in people if name)
        sender_id = people[0][1].group(1) if people and people[0][1] else None
        shown = " ".join(pages.text_of(n) for n in row.css("span.smallfont, span.time, span.date"))
        try:
            sent_at = parse_vb_time(shown, tz=tz, now=now, order=order)
        except ValueError:
            sent_at = now  # the message's own page gives its time
        items.append(
            PMListItem(
                id=pmid,
                subject=pages.text_of(link),
                sender=names[0] if names else "",
                sender_id=sender_id,
                recipients=names,
                sent_at=sent_at,
                url=urljoin(url, link.attributes.get("href") or ""),
                unread=link.css_first("strong") is not None or "unread" in (row.html or "")[:400],
            )
        )
    if (
        not items
        and tree.css_first("form[action*='managepm'], form[action*='private.php']") is None
    ):
        raise LayoutChanged(
            url, N_("not a private message folder (no message links, no folder form)")
        )
    page, count = pages.page_numbers(tree)
    return PMFolder(items, page, count)


def parse_pm_view(
    html: str, url: str, *, tz: tzinfo, now: datetime, order: str = "mdy"
) -> PrivateMessage:
    """One private message as `private.php?do=showpm&pmid=N` shows it."""
    tree = parse_html(html)
    pmid = pages.query_param(url, "pmid") or ""
    body = tree.css_first("div#post_message_, div[id^='post_message_']")
    post = tree.css_first("table#post, li#post_, li.postbitim, li[id^='post_']")
    if body is None or post is None or not pmid.isdigit():
        raise LayoutChanged(
            url, N_("not a private message page (no message, or no pmid in the address)")
        )
    author_link = post.css_first("a.bigusername, a.username, div.username_container a")
    user = pages.user_from_link(author_link)
    author = (
        user.name if user is not None else pages.text_of(post.css_first("a.bigusername, .username"))
    )
    if not author:
        raise LayoutChanged(url, N_("PM {pmid} has no sender").format(pmid=pmid))
    date = post.css_first("span.date, td.thead")
    try:
        sent_at = parse_vb_time(pages.text_of(date), tz=tz, now=now, order=order)
    except ValueError:
        raise LayoutChanged(
            url,
            N_("PM {pmid} has an unreadable time: {value!r}").format(
                pmid=pmid, value=pages.text_of(date)
            ),
        ) from None
    title = post.css_first("h2.title, td[id^='td_post_'] div.smallfont strong")
    subject = pages.text_of(title)
    if not subject:
        header = pages.text_of(tree.css_first("td.tcat span.normal"))
        subject = header.lstrip(": ").strip()
    return PrivateMessage(
        id=pmid,
        sender=author,
        sender_id=user.id if user is not None else None,
        recipients=(),
        sent_at=sent_at,
        subject=subject,
        body=vb_body(body, base_url=url),
        url=url,
        raw=(body.inner_html or "").strip(),
    )

"""phpBB private-message pages (`ucp.php?i=pm…`): folder lists and single messages. Pure.

phpBB folder ids: inbox 0, sentbox -1 (sent and read), outbox -2 (sent, not yet read by
every recipient: phpBB moves a PM to the sentbox when its recipient opens their PM area).
"""

from __future__ import annotations

import re
from datetime import datetime, tzinfo

from selectolax.lexbor import LexborHTMLParser, LexborNode

from forums.dates import parse_board_time
from forums.errors import N_, LayoutChanged
from forums.html import concat_bodies, html_to_postbody, page_tree
from forums.pages import PMFolder, PMListItem
from forums.phpbb.selectors import PM_PROSILVER, PMSelectors
from forums.phpbb.topic import (
    PHPBB_MARKS,
    absolute,
    body_section,
    logged_in_as,
    page_language,
    page_numbers,
    query_param,
    text_of,
    user_id_from,
)
from forums.records import PrivateMessage
from forums.structure import Skeleton, as_signature, choose_content, mark_blocks, row_of
from forums.visibility import PHPBB

__all__ = ["PMFolder", "PMListItem", "parse_pm_folder", "parse_pm_view"]


FOLDER_NAMES = {"0": "inbox", "-1": "sentbox", "-2": "outbox"}
_EMPTY = re.compile(
    r"^(no messages|нет сообщений|there are no messages in this folder|в этой папке нет сообщений)\.?$",
    re.IGNORECASE,
)
_EMPTY_USAGE = re.compile(r"\(\s*0\s+(?:out of|из)\s+\d+", re.IGNORECASE)
_LABEL = re.compile(r"^\s*[^\d:]+:\s*")


def _folder_name(tree: LexborHTMLParser, url: str, sel: PMSelectors) -> str | None:
    node = tree.css_first(sel.current_folder)
    if node is not None:
        value = (node.attributes.get("value") or "").strip()
        if value:
            return FOLDER_NAMES.get(value, value)
    for name in ("folder", "f"):
        param = query_param(url, name)
        if param:
            return FOLDER_NAMES.get(param, param)
    form = tree.css_first(sel.folder_form)
    if form is not None:
        param = query_param(form.attributes.get("action") or "", "f")
        if param:
            return FOLDER_NAMES.get(param, param)
    if query_param(url, "i") == "pm" and query_param(url, "mode") in (None, "view"):
        return "inbox"
    return None


def _sender_user(tree: LexborHTMLParser) -> tuple[str | None, str | None]:
    """The logged-in user's name and id (from the header's profile link)."""
    name = logged_in_as(tree)
    link = tree.css_first("#username_logged_in a[href*='mode=viewprofile']")
    return name, user_id_from(link.attributes.get("href") if link is not None else None)


def parse_pm_folder(
    html: str, url: str, *, tz: tzinfo, now: datetime, selectors: PMSelectors = PM_PROSILVER
) -> PMFolder:
    """A folder list (inbox, outbox, sentbox, custom folders), newest first as served."""
    sel = selectors
    tree = page_tree(html)
    form = tree.css_first(sel.folder_form)
    if form is None:
        if tree.css_first("input[name='password']") is not None:
            raise LayoutChanged(url, N_("not a PM folder: a login form (not logged in?)"))
        raise LayoutChanged(
            url,
            N_("not a PM folder page (no {sel_folder_form}; section {value})").format(
                sel_folder_form=sel.folder_form, value=body_section(tree)
            ),
        )
    folder = _folder_name(tree, url, sel) or "unknown"
    me, my_id = _sender_user(tree)
    rows = form.css(f"{sel.folder_list} {sel.folder_row}")
    if not rows and _message_links(form):
        # A style without prosilver's list classes: each row found by its message link.
        lang = page_language(tree)
        found = [
            _structural_item(link, url, folder, me, my_id, tz=tz, now=now, lang=lang)
            for link in _message_links(form)
        ]
        numbers = page_numbers(form.css(sel.pagination))
        page, pages = numbers if numbers is not None else (1, 1)
        return PMFolder(
            url=url, folder=folder, items=found, page=page, pages=max(page, pages), logged_in_as=me
        )
    if not rows:
        texts = [text_of(n) for n in form.css("p strong, p")]
        if not any(_EMPTY.match(t) for t in texts) and not any(
            _EMPTY_USAGE.search(t) for t in texts
        ):
            raise LayoutChanged(
                url,
                N_("PM folder {folder!r} shows no messages and no 'empty' notice").format(
                    folder=folder
                ),
            )
        items: list[PMListItem] = []
    else:
        items = [_list_item(row, url, folder, me, my_id, sel, tz=tz, now=now) for row in rows]
    numbers = page_numbers(form.css(sel.pagination))
    page, pages = numbers if numbers is not None else (1, 1)
    return PMFolder(
        url=url, folder=folder, items=items, page=page, pages=max(page, pages), logged_in_as=me
    )


def _list_item(
    row: LexborNode,
    url: str,
    folder: str,
    me: str | None,
    my_id: str | None,
    sel: PMSelectors,
    *,
    tz: tzinfo,
    now: datetime,
) -> PMListItem:
    title = row.css_first(sel.row_title)
    if title is None:
        raise LayoutChanged(
            url,
            N_("a PM row without a subject link ({sel_row_title})").format(
                sel_row_title=sel.row_title
            ),
        )
    href = title.attributes.get("href") or ""
    msg_id = query_param(href, "p")
    if not msg_id:
        raise LayoutChanged(url, N_("a PM row without a message id ({href!r})").format(href=href))
    item = row.css_first(sel.row_item)
    classes = set(((item or row).attributes.get("class") or "").split())
    unread = "pm_unread" in classes or "pm_unread" in (row.attributes.get("class") or "")
    users = row.css(sel.row_user)
    inner = row.css_first("div.list-inner") or row
    inner_text = text_of(inner)
    info = row.css_first(sel.row_info)
    if info is not None and text_of(info):
        time_text = _LABEL.sub("", text_of(info), count=1)
    elif "»" in inner_text:
        time_text = inner_text.rsplit("»", 1)[1]
    else:
        raise LayoutChanged(
            url, N_("PM {msg_id} has no time in the folder list").format(msg_id=msg_id)
        )
    try:
        sent_at = parse_board_time(time_text.strip(), tz=tz, now=now)
    except ValueError:
        raise LayoutChanged(
            url,
            N_("PM {msg_id} has an unreadable time {time_text!r}").format(
                msg_id=msg_id, time_text=time_text
            ),
        ) from None
    names = tuple(text_of(u) for u in users if text_of(u))
    sent_folder = folder in {"outbox", "sentbox"} or (
        info is not None and "»" not in inner_text and bool(names)
    )
    if sent_folder:
        sender, sender_id, recipients = me or "", my_id, names
    else:
        if not users:
            raise LayoutChanged(
                url, N_("PM {msg_id} has no sender in the folder list").format(msg_id=msg_id)
            )
        sender = text_of(users[0])
        sender_id = user_id_from(users[0].attributes.get("href"))
        recipients = (me,) if me else ()
    return PMListItem(
        id=msg_id,
        subject=text_of(title),
        sender=sender,
        sender_id=sender_id,
        recipients=recipients,
        sent_at=sent_at,
        url=absolute(url, href),
        unread=unread,
    )


def parse_pm_view(
    html: str, url: str, *, tz: tzinfo, now: datetime, selectors: PMSelectors = PM_PROSILVER
) -> PrivateMessage:
    """One opened PM (`ucp.php?i=pm&mode=view&p=ID`); the message history below is ignored."""
    sel = selectors
    tree = page_tree(html)
    message = tree.css_first(sel.message)
    if message is None:
        found = _structural_view(tree, url, tz=tz, now=now)
        if found is not None:
            return found
        if tree.css_first("input[name='password']") is not None:
            raise LayoutChanged(url, N_("not a PM view: a login form (not logged in?)"))
        raise LayoutChanged(
            url, N_("not a PM view page (no {sel_message})").format(sel_message=sel.message)
        )
    msg_id = (message.attributes.get("id") or "").removeprefix("post-")
    author = message.css_first(sel.message_author)
    if author is None:
        raise LayoutChanged(
            url,
            N_("PM {msg_id} has no header ({sel_message_author})").format(
                msg_id=msg_id, sel_message_author=sel.message_author
            ),
        )
    sent_text, sender_node, recipient_nodes = _split_header(author)
    if sender_node is None:
        raise LayoutChanged(url, N_("PM {msg_id} has no sender").format(msg_id=msg_id))
    if not sent_text:
        raise LayoutChanged(url, N_("PM {msg_id} has no time").format(msg_id=msg_id))
    try:
        sent_at = parse_board_time(sent_text, tz=tz, now=now)
    except ValueError:
        raise LayoutChanged(
            url,
            N_("PM {msg_id} has an unreadable time {sent_text!r}").format(
                msg_id=msg_id, sent_text=sent_text
            ),
        ) from None
    content = message.css_first(sel.message_content)
    if content is None:
        raise LayoutChanged(
            url,
            N_("PM {msg_id} has no content ({sel_message_content})").format(
                msg_id=msg_id, sel_message_content=sel.message_content
            ),
        )
    body = html_to_postbody(content, base_url=url, look=PHPBB)
    signature = message.css_first(sel.message_signature)
    if signature is not None:
        body = concat_bodies(body, html_to_postbody(signature, base_url=url))
    subject = text_of(message.css_first(sel.message_subject))
    return PrivateMessage(
        id=msg_id,
        sender=text_of(sender_node),
        sender_id=user_id_from(sender_node.attributes.get("href")),
        recipients=tuple(text_of(n) for n in recipient_nodes if text_of(n)),
        sent_at=sent_at,
        subject=subject,
        body=body,
        url=absolute(url, f"./ucp.php?i=pm&mode=view&p={msg_id}"),
        raw=content.inner_html,
    )


def _split_header(author: LexborNode) -> tuple[str, LexborNode | None, list[LexborNode]]:
    """`<strong>Sent:</strong> DATE <br><strong>From:</strong> <a> <br><strong>To:</strong> <a>…`

    Sections are split at `<br>`: the first holds the time, the second the sender, the
    rest the recipients (To, Bcc; users and groups).
    """
    sections: list[list[LexborNode]] = [[]]
    for child in author.iter(include_text=True):
        if child.tag == "br":
            sections.append([])
        else:
            sections[-1].append(child)
    sent_text = ""
    if sections:
        parts = [
            (c.text(deep=True) or "") for c in sections[0] if c.tag == "-text" or c.tag == "span"
        ]
        sent_text = re.sub(r"\s+", " ", "".join(parts)).strip()
    sender = None
    recipients: list[LexborNode] = []
    for index, section in enumerate(sections[1:]):
        links = [
            link
            for node in section
            if node.tag != "-text"
            for link in ([node] if node.tag == "a" else node.css("a"))
            if link.attributes.get("href")
        ]
        if index == 0:
            sender = links[0] if links else None
        else:
            recipients.extend(links)
    return sent_text, sender, recipients


# --- the structural reading: a style's classes not needed -------------------------------

_MESSAGE = re.compile(r"post-(\d+)")
_VIEW_LINK = re.compile(r"[?&](?:amp;)?mode=view\b.*?[?&](?:amp;)?p=(\d+)")


def _pm_id(node: LexborNode) -> str | None:
    match = _MESSAGE.fullmatch(node.attributes.get("id") or "")
    return match.group(1) if match else None


def _view_link_id(link: LexborNode) -> str | None:
    match = _VIEW_LINK.search(link.attributes.get("href") or "")
    return match.group(1) if match else None


def _message_links(form: LexborNode) -> list[LexborNode]:
    """Each listed message's subject link (the one with text), in list order."""
    links: dict[str, LexborNode] = {}
    for link in form.css("a[href*='mode=view']"):
        msg_id = _view_link_id(link)
        if msg_id is not None and text_of(link) and msg_id not in links:
            links[msg_id] = link
    return list(links.values())


def _structural_item(
    link: LexborNode,
    url: str,
    folder: str,
    me: str | None,
    my_id: str | None,
    *,
    tz: tzinfo,
    now: datetime,
    lang: str | None,
) -> PMListItem:
    msg_id = _view_link_id(link) or ""
    row = row_of(link, _view_link_id)
    users = [
        a
        for a in row.css("a[href]")
        if PHPBB_MARKS.profile.search(a.attributes.get("href") or "") and text_of(a)
    ]
    text = text_of(row)
    sent_at = None
    for piece in (text.rsplit("»", 1)[-1], *_row_texts(row)):
        try:
            sent_at = parse_board_time(
                _LABEL.sub("", piece, count=1).strip(), tz=tz, now=now, lang=lang
            )
            break
        except ValueError:
            continue
    if sent_at is None:
        raise LayoutChanged(
            url, N_("PM {msg_id} has no readable time in the folder list").format(msg_id=msg_id)
        )
    names = tuple(text_of(u) for u in users)
    if folder in {"outbox", "sentbox"}:
        sender, sender_id, recipients = me or "", my_id, names
    else:
        if not users:
            raise LayoutChanged(
                url, N_("PM {msg_id} has no sender in the folder list").format(msg_id=msg_id)
            )
        sender, sender_id = names[0], user_id_from(users[0].attributes.get("href"))
        recipients = (me,) if me else ()
    return PMListItem(
        id=msg_id,
        subject=text_of(link),
        sender=sender,
        sender_id=sender_id,
        recipients=recipients,
        sent_at=sent_at,
        url=absolute(url, link.attributes.get("href") or ""),
        unread=False,
    )


def _row_texts(row: LexborNode) -> list[str]:
    return [text_of(n) for n in row.css("dd, td, span, div") if 6 <= len(text_of(n)) <= 80]


def _structural_view(
    tree: LexborHTMLParser, url: str, *, tz: tzinfo, now: datetime
) -> PrivateMessage | None:
    """An opened PM found by its marks: the message's `id="post-NNN"`, the header that
    holds "Sent: … <br> From: … <br> To: …" with profile links, and its content block."""
    message = next((n for n in tree.css("[id^='post-']") if _pm_id(n) is not None), None)
    if message is None:
        return None
    msg_id = _pm_id(message) or ""
    header = None
    for node in message.css("p, div"):
        has_break = any(child.tag == "br" for child in node.iter())
        if has_break and any(
            PHPBB_MARKS.profile.search(a.attributes.get("href") or "") for a in node.css("a[href]")
        ):
            header = node
            break
    if header is None:
        raise LayoutChanged(
            url, N_("PM {msg_id} has no header (read by the message's marks)").format(msg_id=msg_id)
        )
    sent_text, sender_node, recipient_nodes = _split_header(header)
    if sender_node is None or not sent_text:
        raise LayoutChanged(url, N_("PM {msg_id} has no sender or time").format(msg_id=msg_id))
    lang = page_language(tree)
    try:
        sent_at = parse_board_time(sent_text, tz=tz, now=now, lang=lang)
    except ValueError:
        raise LayoutChanged(
            url,
            N_("PM {msg_id} has an unreadable time {sent_text!r}").format(
                msg_id=msg_id, sent_text=sent_text
            ),
        ) from None
    skeleton = Skeleton(message, msg_id, text_of(sender_node), None, sender_node, None, None, None)
    markers = [header]
    first_profile = next(
        (
            a
            for a in message.css("a[href]")
            if PHPBB_MARKS.profile.search(a.attributes.get("href") or "")
        ),
        None,
    )
    if first_profile is not None:
        markers.append(first_profile)
    mark_blocks(skeleton, markers)
    choose_content([skeleton], lambda text: False)
    if skeleton.content is None:
        raise LayoutChanged(
            url,
            N_("PM {msg_id} has no content (read by the message's marks)").format(msg_id=msg_id),
        )
    body = html_to_postbody(skeleton.content, base_url=url, look=PHPBB)
    if skeleton.signature is not None:
        signed = as_signature(html_to_postbody(skeleton.signature, base_url=url))
        body = concat_bodies(body, signed)
    subject = text_of(message.css_first("h3, h2"))
    return PrivateMessage(
        id=msg_id,
        sender=text_of(sender_node),
        sender_id=user_id_from(sender_node.attributes.get("href")),
        recipients=tuple(text_of(n) for n in recipient_nodes if text_of(n)),
        sent_at=sent_at,
        subject=subject,
        body=body,
        url=absolute(url, f"./ucp.php?i=pm&mode=view&p={msg_id}"),
        raw=skeleton.content.inner_html,
    )

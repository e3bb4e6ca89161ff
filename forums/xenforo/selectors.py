"""CSS selectors for XenForo pages, as data: XenForo 2.x first, then 1.x.

A board with a quirky style overrides one field (`dataclasses.replace(XF2, …)`) and passes
its own tuple of variants. Each variant is tried in order; the first that finds posts wins.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ThreadSelectors:
    name: str
    version: int
    """2 for XenForo 2.x, 1 for 1.x: what the page's dates and tokens look like."""
    post: str
    """One post; its id is in `data-content="post-N"` (2.x) or `id="post-N"` (1.x)."""
    author_link: str
    """The author's profile link (its user id in `data-user-id` or the `/members/x.N/` URL)."""
    time: str
    """The post's time: `time[data-time]` (2.x), `abbr[data-time]` / `span.DateTime[title]` (1.x)."""
    body: str
    edit_notice: str
    number: str
    """The post's "#N" link: its position in the thread."""
    title: str
    page_nav: str
    current_page: str
    page_links: str
    deleted_class: str


XF2 = ThreadSelectors(
    name="xenforo2",
    version=2,
    post="article.message--post[data-content^='post-'], article.message[data-content^='post-']",
    author_link=".message-name a.username, .message-name .username, a.username[data-user-id]",
    time=".message-attribution-main time[data-time], header.message-attribution time[data-time]",
    body=".message-body .bbWrapper",
    edit_notice=".message-lastEdit",
    number=".message-attribution-opposite a",
    title="h1.p-title-value",
    page_nav=".pageNav",
    current_page=".pageNav-page--current",
    page_links=".pageNav-page a, .pageNav-main a",
    deleted_class="message--deleted",
)

XF1 = ThreadSelectors(
    name="xenforo1",
    version=1,
    post="li.message[id^='post-']",
    author_link=".messageUserBlock a.username, .userText a.username, a.username.author",
    time=".messageMeta .datePermalink .DateTime, .messageMeta .DateTime",
    body="blockquote.messageText",
    edit_notice=".editDate",
    number="a.postNumber",
    title=".titleBar h1, h1",
    page_nav=".PageNav",
    current_page=".currentPage",
    page_links=".PageNav a",
    deleted_class="deleted",
)

THREAD_VARIANTS: tuple[ThreadSelectors, ...] = (XF2, XF1)


@dataclass(frozen=True)
class ConversationSelectors:
    list_row: str
    row_title: str
    row_starter: str
    row_recipients: str
    row_latest_time: str
    row_replies: str
    """The row's reply count (the first pair of its statistics)."""
    message: str
    """One message in a conversation view."""
    message_author: str
    message_time: str
    message_body: str
    view_title: str


CONVERSATIONS_XF2 = ConversationSelectors(
    list_row="div.structItem--conversation",
    row_title="a.structItem-title",
    row_starter=".structItem-parts a.username[title], .structItem-parts a.username",
    row_recipients=".recipientsList a.username",
    row_latest_time=".structItem-cell--latest time[data-time]",
    row_replies=".structItem-cell--meta dl.pairs dd",
    message=(
        "article.message--conversationMessage, "
        "article.message[data-content^='conversation-message-'], "
        "article.message[data-content^='convMessage-']"
    ),
    message_author=".message-name a.username, .message-name .username",
    message_time=".message-attribution-main time[data-time], .message-attribution time[data-time]",
    message_body=".message-body .bbWrapper",
    view_title="h1.p-title-value",
)

CONVERSATIONS_XF1 = ConversationSelectors(
    list_row="li.discussionListItem[id^='conversation-']",
    row_title="h3.title a",
    row_starter=".posterDate a.username",
    row_recipients=".recipients a.username",
    row_latest_time=".lastPostInfo .DateTime",
    row_replies=".stats dl.major dd",
    message="li.message[id^='message-']",
    message_author=".messageUserBlock a.username, .userText a.username",
    message_time=".messageMeta .datePermalink .DateTime, .messageMeta .DateTime",
    message_body="blockquote.messageText",
    view_title=".titleBar h1",
)

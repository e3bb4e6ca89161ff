"""What vBulletin 3, 4 and 5 print, as data in one place: the selectors of every reader.

vBulletin's stock styles (and most custom ones, which keep its ids) mark each post by its
id: vB3 `table#post123` with `div#post_message_123`, vB4 `li#post_123` with the same message
div, vB5 `li.b-post[data-node-id=123]`. A board with a quirky style overrides one field
(`dataclasses.replace(VB4, author=…)`) and passes the result to the readers.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["VB3", "VB4", "VB5", "Marks", "marks_for"]


@dataclass(frozen=True)
class Marks:
    version: int
    post: str
    """One post (also a deleted post's placeholder)."""
    author: str
    """The author's name (a profile link where there is one)."""
    date: str
    number: str
    """The post's number in the thread ("#21")."""
    body: str
    edit_notice: str
    deleted: str
    """A class (or selector) that marks a soft-deleted placeholder."""


VB3 = Marks(
    version=3,
    post="table[id^='post']",
    author="a.bigusername, div[id^='postmenu_']",
    date="td.thead",
    number="a[id^='postcount'] strong, a[id^='postcount']",
    body="div[id^='post_message_']",
    edit_notice="td[id^='td_post_'] div.smallfont > em",
    deleted="",
)
VB4 = Marks(
    version=4,
    post="li[id^='post_']",
    author="div.username_container .username, .username_container strong, a.username",
    date="div.posthead span.date, span.postdate",
    number="a.postcounter",
    body="div[id^='post_message_']",
    edit_notice="blockquote.lastedited, div.lastedited",
    deleted="postbitdeleted",
)
VB5 = Marks(
    version=5,
    post="li.b-post[data-node-id]",
    author="div.b-userinfo div.author a, div.b-userinfo div.author",
    date="div.b-post__timestamp time, div.b-post__timestamp",
    number="a.b-post__count",
    body="div.js-post__content-text",
    edit_notice="div.b-post__edit, div.js-post__edit-note, div.edit-info",
    deleted="b-post--deleted",
)


def marks_for(version: int) -> Marks:
    return {3: VB3, 4: VB4, 5: VB5}[version]

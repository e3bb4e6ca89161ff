"""A vBulletin post body → `PostBody`, through the boards' shared HTML reader.

What is vBulletin's own is fixed on a copy of the node first, so a quote, a strike or a
spoiler reads as on every other board:

- vBulletin 4 and 5 quote as `div.bbcode_container > div.bbcode_quote`, the author in
  `div.bbcode_postedby` ("Originally Posted by <strong>name</strong>" and a link to the
  quoted post) above `div.message`; a quote without a name has its text straight in
  `div.quote_container`. vBulletin 3 quotes as a `div` holding a "Quote:" label
  (`div.smallfont`) over a table whose cell holds the same "Originally Posted by" line.
  Each quote is marked as one (`quotebox`, the author in `data-author`); its header goes.
- vBulletin 4's body is itself a `blockquote.postcontent`: only what is inside it is read
  (it is no quote).
- A code box's "Code:" label is not part of the code.
- Smilies (`/smilies/` images) read as their `alt` text, other images are dropped.
"""

from __future__ import annotations

import re

from selectolax.lexbor import LexborNode

from forums.html import html_to_postbody, parse_html
from forums.records import PostBody

__all__ = ["QUOTE_LABELS", "vb_body", "vb_html_to_postbody"]

QUOTE_LABELS = frozenset({"quote:", "цитата:", "цитата"})
"""vBulletin 3's label above a quote (English and the Russian language pack)."""
CODE_LABELS = frozenset({"code:", "код:", "php code:", "html code:", "php код:", "html код:"})
_POSTED_BY = re.compile(
    r"^(?:originally posted by|сообщение от|posted by|оригинальное сообщение от)\s*", re.I
)


def _text(node: LexborNode | None) -> str:
    return " ".join((node.text(deep=True) or "").split()) if node is not None else ""


def _author(header: LexborNode | None) -> str:
    """The quoted name from "Originally Posted by <strong>name</strong>"."""
    if header is None:
        return ""
    strong = header.css_first("strong, b")
    if strong is not None and _text(strong):
        return _text(strong)
    return _POSTED_BY.sub("", _text(header)).strip()


def _mark_quote(node: LexborNode, author: str) -> None:
    node.attrs["class"] = "quotebox"
    if author:
        node.attrs["data-author"] = author


def _fix(root: LexborNode) -> None:
    # vBulletin 4 and 5: the bbcode_quote block and its "Originally Posted by" header.
    for quote in root.css("div.bbcode_quote"):
        header = quote.css_first("div.bbcode_postedby")
        if header is not None and header.parent is not None:
            # Only this quote's own header (not one of a quote nested in its message).
            owner = header.parent.parent
            while owner is not None and "bbcode_quote" not in (owner.attributes.get("class") or ""):
                owner = owner.parent
            if owner is None or owner.mem_id != quote.mem_id:
                header = None
        author = _author(header)
        if header is not None:
            header.decompose()
        for chrome in quote.css("div.bbcode_quote_container"):
            chrome.decompose()
        _mark_quote(quote, author)
    for label in root.css("div.bbcode_description"):
        label.decompose()
    # vBulletin 3: <div><div class="smallfont">Quote:</div><table>…</table></div>.
    for label in root.css("div.smallfont"):
        said = _text(label).casefold()
        box = label.parent
        if box is None:
            continue
        if said in QUOTE_LABELS and box.css_first("table") is not None:
            cell = box.css_first("td")
            header = None
            if cell is not None:
                first = cell.css_first("div")
                if first is not None and _POSTED_BY.match(_text(first)):
                    header = first
            author = _author(header)
            if header is not None:
                header.decompose()
            label.decompose()
            _mark_quote(box, author)
        elif said in CODE_LABELS:
            label.decompose()
    for image in root.css("img"):
        src = image.attributes.get("src") or ""
        if "/smilies/" in src or "smilie" in (image.attributes.get("class") or ""):
            image.attrs["alt"] = image.attributes.get("alt") or ""
            image.attrs["class"] = "smilies"
        else:
            image.decompose()


def vb_body(content: LexborNode, *, base_url: str = "") -> PostBody:
    """The `PostBody` of a post's message node (`div#post_message_N`, vBulletin 5's
    `div.js-post__content-text`). Works on a copy: the page's tree stays as served."""
    copy = content.clone()
    _fix(copy)
    inner = copy.css_first("blockquote.postcontent")
    html = (inner if inner is not None else copy).inner_html or ""
    return html_to_postbody(html, base_url=base_url)


def vb_html_to_postbody(html: str, *, base_url: str = "") -> PostBody:
    """The `PostBody` of a body's HTML as a string (`Post.raw`, an exported thread)."""
    root = parse_html(f"<div>{html}</div>").css_first("div")
    return vb_body(root, base_url=base_url) if root is not None else PostBody()

"""A XenForo message body (`div.bbWrapper`, 1.x `blockquote.messageText`) → `PostBody`.

The HTML walk is the boards' shared one (`forums.html`), so a quote, a
strike or a spoiler means the same on every board. What is XenForo's own is cleared first:

- quote titles ("X said:" in `.bbCodeBlock-title` on 2.x, `.attribution` on 1.x), "Click
  to expand…" links and code-block titles are board chrome, not the player's text;
- a 1.x quote names its author on the outer `div.bbCodeQuote[data-author]`; the author is
  copied onto the inner `blockquote.quoteContainer` so the innermost quote keeps it;
- link previews (`.bbCodeBlock--unfurl`) show the title and description of the linked page:
  a player chooses that page, so its text is not read as the post's; the link stays.

Reactions and signatures sit outside the body and are never read.
"""

from __future__ import annotations

from selectolax.lexbor import LexborNode

from forums.html import html_to_postbody, parse_html
from forums.records import Link, PostBody
from forums.visibility import XENFORO

__all__ = ["CHROME", "xf_body"]

CHROME = (
    ".bbCodeBlock-title, .bbCodeBlock-expandLink, .quoteExpand, "
    ".bbCodeQuote > aside > .attribution, .bbCodeQuote .attribution, "
    ".bbCodeSpoiler-button, .bbCodeSpoilerButton, .js-selectToQuoteEnd, .messageTextEndMarker"
)
"""Parts of a body that XenForo adds around the player's text."""
UNFURL = ".bbCodeBlock--unfurl"


def xf_body(node: LexborNode | str, *, base_url: str = "") -> PostBody:
    """The `PostBody` of a body node or an HTML fragment (the node is changed in place)."""
    if isinstance(node, str):
        tree = parse_html(f"<div class='bbWrapper'>{node}</div>")
        found = tree.css_first("blockquote.messageText") or tree.css_first("div.bbWrapper")
        if found is None:  # pragma: no cover - the wrapper is ours
            return PostBody()
        node = found
    links: list[Link] = []
    for unfurl in node.css(UNFURL):
        url = (unfurl.attributes.get("data-url") or "").strip()
        if url:
            links.append(Link(url=url, text=""))
        unfurl.decompose()
    for chrome in node.css(CHROME):
        chrome.decompose()
    # A style that renames the classes: a quote's attribution is still an <aside> with a
    # link to the quoted post, the end marker still an empty block.
    for aside in node.css("aside"):
        if aside.css_first("a[href*='goto/post'], a[href*='posts/']") is not None:
            aside.decompose()
    for quote in node.css(".bbCodeQuote[data-author], div[data-author]"):
        author = quote.attributes.get("data-author") or ""
        for inner in quote.css("blockquote"):
            if not inner.attributes.get("data-author"):
                inner.attrs["data-author"] = author
    for block in node.css("div"):
        empty = not (block.text(deep=True) or "").strip() and block.css_first("img, iframe") is None
        if empty and block.mem_id != node.mem_id:
            block.decompose()
    # XenForo 1 serves the body as `<blockquote class="messageText">`: the element itself
    # is no quote, so only what is inside it is read.
    if node.tag == "blockquote":
        body = html_to_postbody(node.inner_html or "", base_url=base_url, look=XENFORO)
    else:
        body = html_to_postbody(node, base_url=base_url, look=XENFORO)
    if links:
        body = PostBody(body.runs, body.links + tuple(links))
    return body

"""A Discourse post's `cooked` HTML → `PostBody`.

`cooked` is the post as Discourse rendered it from the author's Markdown (or BBCode). The
walk is the boards' shared one (`forums.html`): `<s>`/`<del>` are struck, `<details>` and
the spoiler plugin's `.spoiler` are spoilers, `<code>`/`<pre>` code. What is Discourse's
own is prepared first:

- a quote is `aside.quote` holding a title (`div.title`: an avatar and "Name:", or on a
  quote of another topic that topic's title) and the `blockquote`; the title is chrome, the
  quoted user is `data-username` (older boards name him only in the title's text) and is
  put on the blockquote, where the shared walk reads a quote's author;
- a link preview (`aside.onebox`) shows the title and summary of the linked page: the
  player chose the page, not its words; the link stays;
- an image's lightbox caption (`div.meta`: the file's name, size and dimensions) and a
  poll's counters (`.poll-info`) are chrome.
"""

from __future__ import annotations

from selectolax.lexbor import LexborNode

from forums.html import html_to_postbody, parse_html
from forums.records import Link, PostBody
from forums.visibility import WHITE, Look

__all__ = ["CHROME", "DISCOURSE", "cooked_body"]

DISCOURSE = Look("discourse", (WHITE,), "px")
"""Discourse's default theme shows posts on white; its sanitizer keeps no `style` anyway."""

CHROME = ".lightbox-wrapper .meta, .poll-info, .quote-controls, a.anchor"
"""Parts of `cooked` that Discourse adds around the author's text."""
_ONEBOX = "aside.onebox, div.onebox, .lazy-video-container"


def cooked_body(cooked: str, *, base_url: str = "") -> PostBody:
    """The `PostBody` of a post's `cooked` HTML."""
    tree = parse_html(f"<div class='cooked'>{cooked}</div>")
    node = tree.css_first("div.cooked")
    if node is None:  # pragma: no cover - the wrapper is ours
        return PostBody()
    links = _previews(node)
    for chrome in node.css(CHROME):
        chrome.decompose()
    for aside in node.css("aside.quote"):
        _name_the_quote(aside)
    body = html_to_postbody(node, base_url=base_url, look=DISCOURSE)
    if links:
        body = PostBody(body.runs, body.links + tuple(Link(url=u) for u in links))
    return body


def _previews(node: LexborNode) -> list[str]:
    """Remove the link previews, keeping the address each one shows."""
    found: list[str] = []
    for box in node.css(_ONEBOX):
        url = (box.attributes.get("data-onebox-src") or "").strip()
        if not url:
            link = box.css_first("a[href]")
            url = (link.attributes.get("href") or "").strip() if link is not None else ""
        if url:
            found.append(url)
        box.decompose()
    return found


def _name_the_quote(aside: LexborNode) -> None:
    author = (aside.attributes.get("data-username") or "").strip()
    title = aside.css_first("div.title")
    if title is not None:
        if not author and title.css_first(".quote-title__text-content") is None:
            # Older Discourse: "noisycitytoonoisy:" after the avatar.
            author = " ".join((title.text(deep=True) or "").split()).rstrip(":").strip()
        title.decompose()
    if not author:
        return
    for quote in aside.css("blockquote"):
        if not quote.attributes.get("data-author"):
            quote.attrs["data-author"] = author

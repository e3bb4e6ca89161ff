"""Post HTML as MyBB serves it → `PostBody`, through the shared HTML reader.

MyBB's MyCode renders to markup the shared reader (`forums.html`) already reads:
`span.mycode_b` (font-weight: bold), `span.mycode_s` (line-through), `details.spoiler`,
`blockquote.mycode_quote`, `hr.mycode_hr`, lists and links. What differs is fixed on the
node tree first, so quotes, strikes and spoilers read the same on every board:

- A quote's `<cite>` is `<span> (date)</span>Name Wrote: <a class="quick_jump">`: the
  date is dropped so the author is `Name`; a quote without a name shows only "Quote:",
  which is no author, so that cite goes.
- Smilies are images whose `alt` is a name ("Smile"), not the code the player typed;
  MyBB's default smilies become their code (`:)`), others are dropped — an admin's smilie
  name must not read as a word of the post (a nickname, say).
- Other images (`[img]`) are dropped, as `[img]` is.
- A code box's "Code:" title is not part of the code.
"""

from __future__ import annotations

import re

from selectolax.lexbor import LexborNode

from forums.html import fixed_postbody, fixed_postbody_of_html
from forums.records import PostBody
from forums.visibility import MYBB

__all__ = ["SMILIES", "mybb_html_to_postbody", "mybb_postbody"]

SMILIES = {
    "smile": ":)",
    "wink": ";)",
    "cool": ":cool:",
    "biggrin": ":D",
    "tongue": ":P",
    "rolleyes": ":rolleyes:",
    "shy": ":shy:",
    "sad": ":(",
    "at": ":at:",
    "angel": ":angel:",
    "angry": ":@",
    "blush": ":blush:",
    "confused": ":s",
    "dodgy": ":dodgy:",
    "exclamation": ":exclamation:",
    "heart": ":heart:",
    "huh": ":huh:",
    "lightbulb": ":idea:",
    "sleepy": ":sleepy:",
    "undecided": ":-/",
    "cry": ":cry:",
    "sick": ":sick:",
    "arrow": ":arrow:",
    "my": ":my:",
}
"""MyBB 1.8's default smilies: image file name → the code players type."""

_SMILIE_FILE = re.compile(r"/smilies/([A-Za-z0-9_-]+)\.(?:png|gif|jpe?g|svg|webp)$", re.I)
_WROTE = re.compile(r"\b(?:wrote|said|писал\(а\)|написал\(а\)|писала?|написала?|пишет)\s*:", re.I)


def _classes(node: LexborNode) -> set[str]:
    return set((node.attributes.get("class") or "").split())


def _fix_tree(root: LexborNode) -> None:
    for cite in root.css("blockquote cite"):
        for span in cite.css("span"):
            span.decompose()
        for jump in cite.css("a.quick_jump"):
            jump.decompose()
        if not _WROTE.search(cite.text(deep=True) or ""):
            cite.decompose()
    for image in root.css("img"):
        # A smilie by its class, or (a theme that renames classes) by its file's folder.
        found = _SMILIE_FILE.search(image.attributes.get("src") or "")
        if "smilie" in _classes(image) or found is not None:
            image.attrs["alt"] = SMILIES.get(found.group(1).lower(), "") if found else ""
        else:
            image.decompose()
    for title in root.css("div.codeblock > div.title"):
        title.decompose()


def mybb_postbody(
    content: LexborNode, *, base_url: str, signature: LexborNode | None = None
) -> PostBody:
    """The `PostBody` of a post's `div.post_body` (and its signature, flagged as such)."""
    return fixed_postbody(content, base_url=base_url, look=MYBB, fix=_fix_tree, signature=signature)


def mybb_html_to_postbody(html: str, *, base_url: str = "") -> PostBody:
    """The `PostBody` of a post's body HTML as a string (`Post.raw`, an exported thread)."""
    return fixed_postbody_of_html(html, base_url=base_url, look=MYBB, fix=_fix_tree)

"""phpBB post HTML → `PostBody`: the board-independent reader `forums.html`, under the name
phpBB's readers (and older callers) import it by."""

from typing import Any

from forums import html as _shared
from forums.html import concat_bodies, html_to_postbody, quote_author_from_cite

__all__ = ["concat_bodies", "html_to_postbody", "quote_author_from_cite"]


def __getattr__(name: str) -> Any:
    """The reader's inner tables (`_BLOCK`, `_KNOWN`, …), for the tests that pin them."""
    return getattr(_shared, name)

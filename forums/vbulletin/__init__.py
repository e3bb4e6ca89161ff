"""vBulletin adapters: 3 and 4 (`vbulletin`, `VbulletinBoard`) and 5 (`vbulletin5`,
`Vb5Board`, `forums.vbulletin.vb5board`): page parsing (pure) and, beside it, the HTTP
clients and `Board`s.

The HTTP side (httpx) is imported when first used: reading a saved page needs none of it.
"""

from typing import TYPE_CHECKING, Any

from forums.board import register_engine
from forums.vbulletin.body import vb_body, vb_html_to_postbody
from forums.vbulletin.dates import parse_vb_time
from forums.vbulletin.pages import classify, version_of
from forums.vbulletin.thread import parse_thread_page

if TYPE_CHECKING:
    from forums.vbulletin.board import VbulletinBoard

register_engine("vbulletin", "forums.vbulletin.board:VbulletinBoard")
register_engine("vbulletin5", "forums.vbulletin.vb5board:Vb5Board")


def __getattr__(name: str) -> Any:
    if name == "VbulletinBoard":
        from forums.vbulletin.board import VbulletinBoard

        return VbulletinBoard
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "VbulletinBoard",
    "classify",
    "parse_thread_page",
    "parse_vb_time",
    "vb_body",
    "vb_html_to_postbody",
    "version_of",
]

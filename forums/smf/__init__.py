"""SMF 2.1 adapter: page readers (pure) and, beside them, the HTTP side and `Board`.

The HTTP side (`SmfBoard`, httpx) is imported when first used: reading a saved page needs
none of it.
"""

from typing import TYPE_CHECKING, Any

from forums.board import register_engine
from forums.smf.pages import classify, parse_pm_folder, parse_topic_page, smf_html_to_postbody

if TYPE_CHECKING:
    from forums.smf.board import SmfBoard

register_engine("smf", "forums.smf.board:SmfBoard")


def __getattr__(name: str) -> Any:
    if name == "SmfBoard":
        from forums.smf.board import SmfBoard

        return SmfBoard
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["SmfBoard", "classify", "parse_pm_folder", "parse_topic_page", "smf_html_to_postbody"]

"""PunBB 1.3/1.4 adapter (the `#brd-wrap` layout): page readers (pure) and, beside them,
the `Board`. PunBB 1.2 prints FluxBB's layout and is read by `forums.fluxbb`.

The HTTP side (`PunbbBoard`) is imported when first used: reading a saved page needs none.
"""

from typing import TYPE_CHECKING, Any

from forums.board import register_engine
from forums.punbb.pages import classify, parse_topic_page

if TYPE_CHECKING:
    from forums.punbb.board import PunbbBoard

register_engine("punbb", "forums.punbb.board:PunbbBoard")


def __getattr__(name: str) -> Any:
    if name == "PunbbBoard":
        from forums.punbb.board import PunbbBoard

        return PunbbBoard
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["PunbbBoard", "classify", "parse_topic_page"]

"""FluxBB 1.5 adapter (PunBB's layout): page readers (pure) and, beside them, the `Board`.

The HTTP side (`FluxbbBoard`) is imported when first used: reading a saved page needs none.
"""

from typing import TYPE_CHECKING, Any

from forums.board import register_engine
from forums.fluxbb.dates import parse_fluxbb_time
from forums.fluxbb.pages import classify, parse_topic_page

if TYPE_CHECKING:
    from forums.fluxbb.board import FluxbbBoard

register_engine("fluxbb", "forums.fluxbb.board:FluxbbBoard")


def __getattr__(name: str) -> Any:
    if name == "FluxbbBoard":
        from forums.fluxbb.board import FluxbbBoard

        return FluxbbBoard
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["FluxbbBoard", "classify", "parse_fluxbb_time", "parse_topic_page"]

"""`board check` knows FluxBB by its real pages, and PunBB 1.2-style boards by the layout
FluxBB kept from it; PunBB 1.3+ (other markup) is not taken for it."""

from __future__ import annotations

import pytest

from forums.detect import detect_engine
from tests.forums.fluxbb.helpers_fluxbb import page


@pytest.mark.parametrize("name", ["topic_guest_en.html", "topic_guest_ru.html", "index_en.html"])
def test_real_fluxbb_pages_are_fluxbb(name: str) -> None:
    found = detect_engine(page(name), "text/html; charset=utf-8")
    assert (found.engine, found.product) == ("fluxbb", "FluxBB")
    assert "PunBB markup" in found.seen


def test_a_punbb_12_page_with_fluxbbs_layout_is_read_as_fluxbb() -> None:
    # PunBB 1.2's footer and wrapper, as FluxBB 1.x still prints them (not a saved page:
    # the marks are the ones both engines print in every page).
    punbb = (
        '<html><body><div id="punwrap"><div id="punviewtopic" class="pun">…'
        '<p class="conr">Powered by <a href="http://www.punbb.org/">PunBB</a></p>'
        "</div></div></body></html>"
    )
    found = detect_engine(punbb, "text/html")
    assert (found.engine, found.product) == ("fluxbb", "PunBB 1.2"), found
    # Real PunBB 1.2.50 pages: tests/forums/fluxbb/test_punbb_pages.py.


def test_punbb_13_and_later_are_not_taken_for_fluxbb() -> None:
    punbb13 = (
        '<html><body><div id="brd-wrap" class="brd"><div id="brd-about">'
        '<p id="copyright">Powered by <a href="http://punbb.informer.com/">PunBB</a></p>'
        "</div></div></body></html>"
    )
    found = detect_engine(punbb13, "text/html")
    assert found.engine == "punbb"  # its own adapter (forums/punbb), not FluxBB's
    assert found.product == "PunBB 1.3+"

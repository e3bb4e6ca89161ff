"""Loading the saved MyBB pages: their HTML, URL and capture time, and the truth files."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from helpers_mybb import SavedPage, load_saved_page, truth


@pytest.fixture(scope="session")
def mybb_page() -> Callable[[str], SavedPage]:
    """`mybb_page("showthread_p1")`: the page with its URL and capture time."""
    return load_saved_page


@pytest.fixture(scope="session")
def mybb_thread_truth() -> dict[str, Any]:
    return truth("thread_truth.json")


@pytest.fixture(scope="session")
def mybb_pms_truth() -> dict[str, Any]:
    return truth("pms_truth.json")

"""Shared renderers and a realistic seating for the rendering tests."""

from __future__ import annotations

import pytest

from engine.render import Renderer
from rulesets.classic.texts import TEMPLATES


@pytest.fixture(scope="session", params=["ru", "en"])
def renderer(request: pytest.FixtureRequest) -> Renderer:
    return Renderer(TEMPLATES, request.param)


@pytest.fixture(scope="session")
def ru() -> Renderer:
    return Renderer(TEMPLATES, "ru")


@pytest.fixture(scope="session")
def en() -> Renderer:
    return Renderer(TEMPLATES, "en")

"""Issue 24 §10: `run`'s console lines were stamped with the machine's clock (UTC here)
while the times inside them are each game's zone, and nothing said which was which."""

from __future__ import annotations

import logging
import re
import time

import pytest

from engine.app.logs import service_logging


def test_a_console_line_names_the_zone_of_its_stamp(capsys: pytest.CaptureFixture[str]) -> None:
    with service_logging():
        logging.getLogger("forumgm.driver").info("game 1: day 2: open until 19:00 MSK")
    line = capsys.readouterr().err.strip()
    zone = time.strftime("%Z")
    assert re.fullmatch(rf"\d\d:\d\d:\d\d {re.escape(zone)} game 1: day 2: .*", line), line

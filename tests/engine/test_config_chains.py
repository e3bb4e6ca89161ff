"""Issue 11 §1 in the game file: `[players] replacements` takes chains in any order."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from engine.config import ConfigError, parse_config
from tests.service.helpers import game_toml

PLAYERS = ["Вася", "Петя", "Маша", "Коля", "Оля"]


def _config(replacements: str) -> str:
    text = game_toml(url="sqlite://", thread="1", players=PLAYERS, ruleset="votecount")
    return text + f"replacements = {{ {replacements} }}\n"


def test_a_chain_in_any_order_with_a_moment() -> None:
    config = parse_config(
        _config(
            '"Лёша" = "Новичок", "Новичок" = {replaces = "Петя", at = 2026-12-02T12:00:00+03:00}'
        )
    )
    assert config.replacements == {"Лёша": "Новичок", "Новичок": "Петя"}
    (timed,) = [h for h in config.handovers if h.at is not None]
    assert timed.new == "Новичок" and timed.at == datetime(
        2026, 12, 2, 12, tzinfo=timezone(timedelta(hours=3))
    )


@pytest.mark.parametrize(
    ("replacements", "message"),
    [
        ('"А" = "Б", "Б" = "А"', "cycle: А replaces Б → Б replaces А"),
        ('"Лёша" = "Петя", "Новичок" = "Петя"', "Петя is replaced twice, by Лёша and by Новичок"),
        ('"Лёша" = "Петя", "Петя" = "Вася"', "Вася and Петя are one slot"),
        ('"Лёша" = {replaces = "Петя", at = "завтра"}', "at must be a date and time"),
    ],
)
def test_chains_that_cannot_be_are_clear_errors(replacements: str, message: str) -> None:
    with pytest.raises(ConfigError) as caught:
        parse_config(_config(replacements))
    assert message in str(caught.value)
    assert "line " in str(caught.value)

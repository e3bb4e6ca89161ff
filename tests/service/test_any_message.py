"""Whatever one message holds, the game goes on: a property over every ruleset (issue 22).

Each ruleset's example game (docs/examples) is started once on a local board, its first
phase open. Each example then puts that board and store back as they were, a player posts
generated text in the thread and another sends it by PM, and the service steps as
`forumgm run` does (a poll, then the deadline): no step may fail, the phase must resolve,
and the host's review (warnings, orders, votes, the ruleset's tables, the drafts) must
render. The text mixes decimal digits, numerals and fractions of every script, numbers
`int()` refuses (over 4,300 digits), signs, control and format characters, and the
grammars' own words, names and phase tags in odd orders.

Hypothesis draws a few examples per ruleset (a few seconds in all); with
HYPOTHESIS_PROFILE=ci (.ci/run) the same ones on every run.
"""

from __future__ import annotations

import asyncio
import io
import shutil
from collections.abc import Iterator
from contextlib import redirect_stdout
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import cache
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import rulesets
from engine.app.game_file import load_game
from engine.app.review import Review
from engine.app.service_cmd import _show_review
from engine.config import GameConfig
from engine.service.driver import GameDriver
from engine.service.runner import Cadence, drive_once, failed
from engine.store import open_store
from engine.store.models import PhaseStatus
from forums.local import LocalBoard, ManualClock
from forums.local import tables as local_tables
from tests.service.helpers import local_board

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"
RULESETS = ("votecount", "classic", "yakuza", "twelve-rooms", "minimafik")
GM_PASSWORD = "gm-secret"


@cache
def _grammar_words() -> tuple[str, ...]:
    """Every phrase, filler, phase tag and proxy word of every ruleset's grammar."""
    words: set[str] = set()
    for ruleset_id in RULESETS:
        ruleset = rulesets.find(ruleset_id)
        grammar = ruleset.grammar_for(ruleset.options({}))
        for form in grammar.forms:
            words.update(form.phrases)
        words.update(grammar.fillers | grammar.phase_tags | grammar.prepositions)
        words.update(grammar.self_words | grammar.joiners)
    return tuple(sorted(words))


NAME = ("{0}", "{1}", "{2}")
"""Stand for names of the game's roster (the example game's players differ by ruleset)."""
DIGITS = st.characters(categories=["Nd", "Nl", "No"])
"""Decimal digits of every script, Roman and other letter numerals, ², ½, ①…"""
NUMBER = st.one_of(
    st.integers(-(10**30), 10**30).map(str),
    st.text(DIGITS, min_size=1, max_size=6),
    st.sampled_from(["9" * 5_000, "x" + "9" * 5_000, "+" + "9" * 4_301, "-0", "1e999",
                     "½", "1/2", "3,5", "1.5", "−3", "+3", "x3", "×2", "*0", "#7", "3-ю"]),
)  # fmt: skip
CONTROL = st.text(st.characters(categories=["Cc", "Cf", "Zl", "Zp", "Co"]), min_size=1, max_size=3)
WORD = st.one_of(
    st.sampled_from(NAME),
    st.deferred(lambda: st.sampled_from(_grammar_words())),
    NUMBER,
    CONTROL,
    st.sampled_from([":", "—", "\n", ",", "[b]", "[/quote]", "[vote]", "[/vote]", "ночь", "N3"]),
    st.text(max_size=4),
)
TEXT = st.lists(WORD, min_size=1, max_size=12).map(" ".join)


@dataclass
class Template:
    """An example game started on a local board, its first phase open: the files kept aside
    (`saved`) and where each example plays (`live`)."""

    config: GameConfig
    saved: Path
    live: Path
    opened: datetime
    deadline: datetime

    def reset(self) -> None:
        for name in ("board.sqlite", "store.sqlite"):
            shutil.copyfile(self.saved / name, self.live / name)

    @property
    def names(self) -> list[str]:
        return list(self.config.players)


def _urls(folder: Path) -> tuple[str, str]:
    return f"sqlite:///{folder / 'board.sqlite'}", f"sqlite:///{folder / 'store.sqlite'}"


def _config(ruleset: str, board_url: str, thread: str) -> GameConfig:
    source = EXAMPLES / f"{ruleset}.toml"
    text = source.read_text(encoding="utf-8")
    text = text.replace('url = "sqlite:///rehearsal-board.sqlite"', f'url = "{board_url}"')
    target = Path(board_url.removeprefix("sqlite:///")).parent / "game.toml"
    target.write_text(text.replace('thread = "1"', f'thread = "{thread}"'), encoding="utf-8")
    return load_game(target)


@pytest.fixture(scope="module")
def templates(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[dict[str, Template]]:
    made: dict[str, Template] = {}
    mp = pytest.MonkeyPatch()
    mp.setenv("FORUMGM_GM_PASSWORD", GM_PASSWORD)
    mp.setattr(local_tables, "SCRYPT_N", 2**4)  # the board's password hashes: cheap here
    for ruleset in RULESETS:
        live = tmp_path_factory.mktemp(f"{ruleset}-live")
        board_url, store_url = _urls(live)
        players = load_game(EXAMPLES / f"{ruleset}.toml").players
        gm = load_game(EXAMPLES / f"{ruleset}.toml").gm_user
        board, thread = local_board(board_url, players, gm=gm)
        board.dispose()
        config = _config(ruleset, board_url, thread)
        clock = ManualClock(config.start - timedelta(hours=1))
        store = open_store(store_url)
        board = LocalBoard(board_url, config.gm_user, GM_PASSWORD, clock=clock)
        driver = GameDriver(store, board, config, clock=clock)
        driver.start()
        store.approve(driver.game_id, None)  # the host approved the start
        clock.set(config.start)
        status = asyncio.run(drive_once(driver, "test", Cadence()))
        assert not failed(status), status
        ph = store.current_phase(driver.game_id)
        assert ph is not None and ph.status is PhaseStatus.OPEN
        asyncio.run(board.close())
        store.close()
        saved = tmp_path_factory.mktemp(f"{ruleset}-saved")
        for name in ("board.sqlite", "store.sqlite"):
            shutil.copyfile(live / name, saved / name)
        made[ruleset] = Template(config, saved, live, ph.opened_at, ph.deadline)
    yield made
    mp.undo()


def _play(template: Template, texts: list[str]) -> None:
    """The board and store as the template left them; `texts` posted and sent by PM; a poll,
    then the deadline; the host's review rendered."""
    template.reset()
    board_url, store_url = _urls(template.live)
    names = template.names
    clock = ManualClock(template.opened + timedelta(minutes=5))
    store = open_store(store_url, migrate=False)
    board = LocalBoard(board_url, template.config.gm_user, GM_PASSWORD, clock=clock)
    try:
        thread = template.config.thread
        for i, raw in enumerate(texts):
            text = raw.format(*names[i : i + 3]) if "{" in raw else raw
            clock.set(template.opened + timedelta(minutes=10 + i))
            board.post_as(names[i % len(names)], thread, text)
            board.pm_as(names[(i + 3) % len(names)], [template.config.gm_user], "ход", text)
        driver = GameDriver(store, board, template.config, clock=clock)
        for moment in (template.opened + timedelta(minutes=30), template.deadline):
            clock.set(moment + timedelta(minutes=1))
            status = asyncio.run(drive_once(driver, "test", Cadence()))
            assert not failed(status), status
        ph = store.phases(driver.game_id)[0]
        assert ph.status is not PhaseStatus.OPEN and ph.status is not PhaseStatus.FROZEN
        rv = Review(driver, by="host", via="cli")
        shown = io.StringIO()
        with redirect_stdout(shown):
            _show_review(rv, orders=True, votes=True, preview=True)
        assert "draft(s) wait for approval" in shown.getvalue()
    finally:
        asyncio.run(board.close())
        store.close()


@pytest.mark.parametrize("ruleset", RULESETS)
@settings(
    max_examples=3,
    deadline=None,
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
        HealthCheck.large_base_example,
    ],
)
@given(texts=st.lists(TEXT, min_size=1, max_size=3))
@example(texts=["голос {1} " + "9" * 5_000, "пистолет {2} x" + "9" * 5_000])
@example(texts=["Ночь ²: катана {0}\nночь ³ досье {1}", "vote {0} +" + "9" * 4_400])
def test_any_message_leaves_the_phase_resolvable_and_the_review_readable(
    templates: dict[str, Template], ruleset: str, texts: list[str]
) -> None:
    _play(templates[ruleset], [t if "{" not in t else _safe(t) for t in texts])


def _safe(text: str) -> str:
    """`text` with its own braces kept as written and the name slots ({0}…) left to fill."""
    marks = {slot: f"\x00{i}\x00" for i, slot in enumerate(NAME)}
    for slot, mark in marks.items():
        text = text.replace(slot, mark)
    text = text.replace("{", "{{").replace("}", "}}")
    for slot, mark in marks.items():
        text = text.replace(mark, slot)
    return text

"""Issue 25 item 4: a Russian host steers and reviews a game in Russian — `forumgm steer`,
`forumgm host` and `forumgm review` (with `--lang ru`, or the game's language), and the same
commands from the dashboard: their results and refusals from the gettext catalogues, each
phase by its Russian name («ход 1», «среди предупреждений хода 1»), never its id."""

from __future__ import annotations

import re

import pytest
from starlette.testclient import TestClient

from engine import i18n
from tests.app.dashboard_client import (
    client,
    csrf_of,
    log_in,
    make_dashboard,
    set_password,
)
from tests.app.review_game import ReviewGame, review_game

__all__ = ["review_game"]


def test_a_phase_reads_in_the_hosts_language_in_the_case_a_text_needs() -> None:
    with i18n.use("ru"):
        assert i18n.phase_fields("night 2")["phase_gen"] == "ночи 2"
        assert i18n.phase_fields("day 1")["phase_acc"] == "день 1"
        assert i18n.phase_fields("draft") == {
            "phase": "сбор колод",
            "phase_nom": "сбор колод",
            "phase_gen": "сбора колод",
            "phase_dat": "сбору колод",
            "phase_acc": "сбор колод",
            "phase_ins": "сбором колод",
            "phase_loc": "сборе колод",
        }
        assert i18n.phase_name("turn") == "ход 0"  # twelve-rooms' placement turn
    with i18n.use("en"):
        assert i18n.phase_fields("night 2")["phase_gen"] == "night 2"
        assert i18n.phase_name("turn") == "turn"


def test_the_reviews_refusals_and_fixes_in_russian(review_game: ReviewGame) -> None:
    g = review_game
    listed = g.cli("--lang", "ru", "review", str(g.path), "--orders")
    assert "Маша: лечение: Вася 'лечу Васю'" in listed.output
    ids = dict(re.findall(r"! #(\d+) unknown_target (\S+)", listed.output))
    olya, vasya = (next(i for i, who in ids.items() if who == name) for name in ("Оля", "Вася"))
    refused = g.cli("--lang", "ru", "review", str(g.path), "--fix", "999=Петя")
    assert refused.exit_code == 2
    listed_ids = ", ".join(f"№{i}" for i in sorted(ids, key=int))
    assert f"среди предупреждений хода 1 нет №999 (есть: {listed_ids})" in refused.output
    refused = g.cli("--lang", "ru", "review", str(g.path), "--set", "999=Петя")
    assert refused.exit_code == 2
    assert "среди приказов хода 1 нет №999 (список: --orders)" in refused.output
    settled = g.cli(
        "--lang", "ru", "review", str(g.path), "--typed", f"{olya}=голосую за Колю", "--ignore",
        vasya,
    )  # fmt: skip
    assert settled.exit_code == 0, settled.output
    assert f"№{olya} решено так: Оля: голос: Коля" in settled.output
    assert " решено: текстом: голосую за Колю" in settled.output
    assert " решено: не в счёт" in settled.output
    assert "typed:" not in settled.output and "ignored" not in settled.output


def _russian_dashboard(g: ReviewGame, monkeypatch: pytest.MonkeyPatch) -> TestClient:
    monkeypatch.delenv(i18n.ENV)  # the game's language: ru
    set_password(g)
    c = client(make_dashboard(g, monkeypatch))
    log_in(c)
    return c


def test_the_dashboard_names_phases_in_russian(
    review_game: ReviewGame, monkeypatch: pytest.MonkeyPatch
) -> None:
    c = _russian_dashboard(review_game, monkeypatch)
    page = c.get("/games/1").text
    assert "<strong>ход 1</strong> (итоги готовы)" in page
    assert "Активность, ход 1" in page and "turn 1" not in page
    assert "ход 1 (итоги готовы)" in c.get("/").text
    token = csrf_of(page)
    answer = c.post("/games/1/ignore", data={"csrf": token, "warning": "999", "back": "drafts"})
    assert "среди предупреждений хода 1 нет №999" in answer.text
    warning = re.search(r'id="w(\d+)"', page)
    assert warning is not None
    done = c.post(
        "/games/1/ignore", data={"csrf": token, "warning": warning.group(1), "back": "drafts"}
    )
    assert "решено: не в счёт" in done.text
    log = re.sub(r"<[^>]+>", " ", c.get("/games/1/log").text)
    assert "ход 1" in log and "turn 1" not in log

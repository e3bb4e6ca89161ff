"""`forumgm review` as a host runs it: checked fixes, ignore, typed orders, publish, the audit log."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest

from tests.app.review_game import XSS, ReviewGame, make_review_game, review_game

__all__ = ["review_game"]


def _warning_ids(output: str) -> dict[str, str]:
    """Player → warning id, from review's "! #3 unknown_target Коля …" lines."""
    found = re.findall(r"^[!✓·] #(\d+) \w+ (\S+)", output, flags=re.M)
    return {player: number for number, player in found}


def test_bad_fixes_are_one_clear_line_and_change_nothing(review_game: ReviewGame) -> None:
    g = review_game
    ids = _warning_ids(g.cli("review", str(g.path)).output)
    bad = g.cli("review", str(g.path), "--fix", "999=Петя")
    assert bad.exit_code == 2 and "no warning #999 in turn 1" in bad.output
    assert "Traceback" not in bad.output
    bad = g.cli("review", str(g.path), "--fix", f"{ids['Коля']}=Ксюша")
    assert bad.exit_code == 2 and "'Ксюша' is not a choice: one of Петя, Вася" in bad.output
    bad = g.cli("review", str(g.path), "--typed", f"{ids['Оля']}=доброе утро")
    assert bad.exit_code == 2 and "no order read in 'доброе утро'" in bad.output
    bad = g.cli("review", str(g.path), "--set", "1")
    assert bad.exit_code == 2 and "ORDER_ID=NAME" in bad.output
    listing = g.cli("review", str(g.path))
    assert listing.output.count("! #") == 3
    assert "│ fix" not in g.cli("review", str(g.path), "--log").output


def test_fix_ignore_typed_then_publish_and_the_audit_log(review_game: ReviewGame) -> None:
    g = review_game
    ids = _warning_ids(g.cli("review", str(g.path)).output)
    result = g.cli(
        "review",
        str(g.path),
        "--fix",
        f"{ids['Коля']}=петя",  # any letter case: written as the game writes it
        "--ignore",
        ids["Вася"],
        "--typed",
        f"{ids['Оля']}=голосую за Машу",
        "--votes",
    )
    assert result.exit_code == 0, result.output
    assert "settled with: Оля: vote Маша" in result.output
    assert "fixed: Петя" in result.output and "fixed: ignored" in result.output
    assert "fixed: typed: голосую за Машу" in result.output
    assert re.search(r"│ Коля\s+│ Петя\s+│ 1", result.output)
    assert "totals: Петя 1, Маша 1" in result.output
    assert len(g.thread_texts()) == 1  # only the opening post so far
    result = g.cli("review", str(g.path), "--approve", "--publish", "--log")
    assert result.exit_code == 0, result.output
    assert "published 1 item(s)" in result.output
    results = g.thread_texts()[-1]
    assert "Итоги хода 1" in results and "Коля → Петя" in results and "Оля → Маша" in results
    assert "script" not in results  # the ignored hostile vote counts nowhere
    for action in ("fix", "ignore", "typed", "approve", "publish"):
        assert re.search(rf"│ turn 1 │ {action}\s", result.output), action
    log = g.cli("host", "log").output
    assert "typed=голосую за Машу" in log and "status=" in log
    assert " MSK " in log and "UTC" not in log  # in the game's zone, like every other time
    late = g.cli("review", str(g.path), "--fix", f"{ids['Коля']}=Маша")
    assert late.exit_code == 2 and "published" in late.output


def test_player_text_is_printed_as_text(review_game: ReviewGame) -> None:
    g = review_game
    output = g.cli("review", str(g.path)).output
    assert XSS in output  # shown as written, not read as terminal markup


def test_a_fix_after_the_last_warning_approved_the_results_withdraws_the_approval(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Review mode "warnings": settling the last warning approves the results at once. An
    order the host drops afterwards, before anything went out, still counts: the approval
    is withdrawn, the turn resolved again and approved again, and the thread shows it."""
    g = make_review_game(tmp_path, monkeypatch, check=True)
    ids = _warning_ids(g.cli("review", str(g.path)).output)
    for player in ("Коля", "Вася", "Оля"):
        assert g.cli("review", str(g.path), "--ignore", ids[player]).exit_code == 0
    preview = g.cli("review", str(g.path), "--preview").output
    assert "Ваш приказ «Проверка»" in preview  # the approved results: a PM to the commissar
    orders = g.cli("review", str(g.path), "--orders").output
    check = re.search(r"^\s*#?(\d+)\b.*Вася: check", orders, flags=re.M)
    assert check is not None, orders
    dropped = g.cli("review", str(g.path), "--drop", check.group(1))
    assert dropped.exit_code == 0, dropped.output
    log = g.cli("review", str(g.path), "--log").output
    assert re.search(r"│ turn 1 │ unapprove\s", log) and re.search(r"│ turn 1 │ drop\s", log)
    assert g.cli("review", str(g.path), "--publish").exit_code == 0
    assert "Итоги хода 1" in g.thread_texts()[-1]
    assert len(g.thread_texts()) == 2  # the opening post and the results, once
    sent = asyncio.run(g.board.sent()).items
    assert not any("Итоги хода 1" in (pm.subject or "") for pm in sent)  # its PM is gone

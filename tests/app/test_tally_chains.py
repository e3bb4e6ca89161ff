"""Issue 11 §1: a slot that changes hands twice in one day, on the real mafiascum thread.

Day 1 of 17378 (posts 15–238) with redtail896's slot handed on twice: from post 50 its
posts are by «Nightfall», from 170 by «pappums rat» (who really took the slot over on day
2). Every vote by the slot's holders and every vote naming any of them lands on the slot,
so the count equals the moderator's own count of post 239; a post by redtail896 after he
left the slot is not a vote (`sender_not_in_play`).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from engine.app.cli import app
from tests.app.test_tally_cmd import GAME, PLAYERS_17378, SUBS_17378, players_file, tally

runner = CliRunner(env={"COLUMNS": "200"})
HELD = {"redtail896": range(0, 50), "Nightfall": range(50, 170), "pappums rat": range(170, 239)}
# Any order of keys: the chain is pappums rat ← Nightfall ← redtail896.
CHAIN = {
    "pappums rat": "Nightfall",  # from his first post (174 in this thread)
    "SleepyKrew": "kondi2424",
    "Nightfall": {"replaces": "redtail896", "from_post": 50},
}
MODERATOR_239 = {"don_johnson": 5, "lobstermania": 2, "pappums rat": 1, "Internet Stranger": 1}


def _thread(
    tmp_path: Path,
    *,
    keep: set[int] = frozenset(),  # type: ignore[assignment]
    authors: dict[int, str] | None = None,
) -> Path:
    """17378 with redtail896's posts written by whoever holds his slot (but `keep`, and
    the posts `authors` gives to someone else)."""
    lines = []
    for line in GAME.read_text(encoding="utf-8").splitlines():
        post: dict[str, Any] = json.loads(line)
        if post["user"] == "redtail896" and post["number"] not in keep:
            post["user"] = next(h for h, held in HELD.items() if post["number"] in held)
        post["user"] = (authors or {}).get(post["number"], post["user"])
        lines.append(json.dumps(post, ensure_ascii=False))
    path = tmp_path / "thread.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _cast(tmp_path: Path) -> Path:
    return players_file(tmp_path, "chain", {"players": PLAYERS_17378, "replacements": CHAIN})


def test_every_vote_of_a_twice_handed_slot_lands_on_it(tmp_path: Path) -> None:
    thread = _thread(tmp_path)
    out = tally("--players", _cast(tmp_path), "--posts", thread, "--from", "15", "--until", "238")
    assert out["totals"] == MODERATOR_239
    # redtail896's vote (19), Nightfall's (57), then pappums rat's (174).
    assert out["votes"]["pappums rat"] == "Internet Stranger"
    # «vote: redtail» (Internet Stranger, 112) named the slot's first holder.
    assert out["slots"]["pappums rat"] == "pappums rat (replaced Nightfall, replaced redtail896)"
    assert not [w for w in out["warnings"] if w["code"] == "sender_not_in_play"]
    # At every point of the day the count is the real game's, where redtail896 held the slot.
    real = players_file(tmp_path, "real", {"players": PLAYERS_17378, "replacements": SUBS_17378})
    for cut in ("60", "120", "173", "180"):
        chained = tally(
            "--players", _cast(tmp_path), "--posts", thread, "--from", "15", "--until", cut
        )
        original = tally("--players", real, "--posts", GAME, "--from", "15", "--until", cut)
        assert (chained["votes"], chained["totals"]) == (original["votes"], original["totals"]), cut
    early = tally("--players", _cast(tmp_path), "--posts", thread, "--from", "15", "--until", "120")
    assert early["slots"]["pappums rat"] == "Nightfall (replaced redtail896)"
    args = ["tally", "--players", str(_cast(tmp_path)), "--posts", str(thread), "--until", "238"]
    human = runner.invoke(app, args).output
    assert "pappums rat (replaced Nightfall, replaced redtail896)" in human
    assert "SleepyKrew (replaced kondi2424)" in human


def test_a_former_holder_posting_after_the_handover_is_not_a_vote(tmp_path: Path) -> None:
    thread = _thread(tmp_path, keep={57})  # redtail896 himself votes, after leaving the slot
    out = tally("--players", _cast(tmp_path), "--posts", thread, "--from", "15", "--until", "60")
    refused = [w for w in out["warnings"] if w["code"] == "sender_not_in_play"]
    assert {(w["post"], w["user"]) for w in refused} == {(57, "redtail896")}  # unvote, vote
    assert "redtail896 no longer plays this slot" in refused[0]["message"]
    # In the real game post 57 moved the slot's vote to lobstermania; here the holder's
    # vote of post 19 stands.
    real = players_file(tmp_path, "real", {"players": PLAYERS_17378, "replacements": SUBS_17378})
    original = tally("--players", real, "--posts", GAME, "--from", "15", "--until", "60")
    assert original["votes"]["pappums rat"] == "lobstermania"
    assert out["votes"]["pappums rat"] == "don_johnson"


def test_the_middle_holder_posting_after_his_successor_took_over_is_not_a_vote(
    tmp_path: Path,
) -> None:
    # pappums rat holds the slot from post 170; Nightfall, who held it before, still writes
    # the slot's «UNVOTE: / VOTE: Internet Stranger» of post 174.
    chain = {**CHAIN, "pappums rat": {"replaces": "Nightfall", "from_post": 170}}
    cast = players_file(tmp_path, "timed", {"players": PLAYERS_17378, "replacements": chain})
    thread = _thread(tmp_path, authors={174: "Nightfall"})
    out = tally("--players", cast, "--posts", thread, "--from", "15", "--until", "238")
    refused = [w for w in out["warnings"] if w["code"] == "sender_not_in_play"]
    assert {(w["post"], w["user"]) for w in refused} == {(174, "Nightfall")}
    assert "Nightfall no longer plays this slot" in refused[0]["message"]
    assert "pappums rat (replaced Nightfall, replaced redtail896)" in refused[0]["message"]
    # The slot keeps the vote Nightfall cast while he held it (lobstermania, as the
    # moderator's count of post 166 shows for redtail896's slot).
    assert out["votes"]["pappums rat"] == "lobstermania"
    assert out["totals"] == {"don_johnson": 5, "lobstermania": 3, "pappums rat": 1}


def test_chains_that_cannot_be_a_game_are_clear_errors(tmp_path: Path) -> None:
    cases = {
        "cycle": ({"A": "B", "B": "A"}, "cycle: A replaces B → B replaces A"),
        "two chains": ({"A": "C", "B": "C"}, "C is replaced twice, by A and by B"),
        "two listed": ({"lobstermania": "X", "X": "RaudhrGarm"}, "RaudhrGarm and lobstermania"),
    }
    for name, (chain, message) in cases.items():
        cast = players_file(tmp_path, name, {"players": PLAYERS_17378, "replacements": chain})
        result = runner.invoke(app, ["tally", "--players", str(cast), "--posts", str(GAME)])
        assert result.exit_code == 2, name
        assert message in result.output, (name, result.output)
    duplicate = tmp_path / "dup.yaml"
    duplicate.write_text("players: [A, B]\nreplacements:\n  C: A\n  C: B\n", encoding="utf-8")
    result = runner.invoke(app, ["tally", "--players", str(duplicate), "--posts", str(GAME)])
    assert result.exit_code == 2 and "C given twice" in result.output

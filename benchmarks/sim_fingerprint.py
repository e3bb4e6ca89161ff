"""A fingerprint of simulated games, to show a speed-up changed no game (issue 30).

`python benchmarks/sim_fingerprint.py [--games N] [RULESET ...]` plays games 0 … N-1 of seed 1
of each ruleset's example game file (docs/examples/) through `engine.sim.play.Table`, as
`forumgm simulate` does, and prints one SHA-256 per ruleset over every game's setup events,
each phase's log (its events, warnings, who was in play before and after), the game's record
(winner, length, each seat's fate) and the final state as JSON (the random stream included;
the state is read once the game is over, as nothing reads it between phases in a simulation).
`--save` writes them to benchmarks/sim_fingerprint.json; `--check` compares with that file
and exits 1 on a difference, naming the first block of games that differs.

Events are written with `repr`, so a field's type and a dict's order count too (what a
template or a scenario file would see), not only its value.
"""

from __future__ import annotations

import hashlib
import json
import sys
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any, ClassVar

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

import rulesets  # noqa: E402
from engine.app.game_file import load_game  # noqa: E402
from engine.core.ruleset import Seat  # noqa: E402
from engine.session import GameSession, PhaseLog  # noqa: E402
from engine.sim import play  # noqa: E402
from engine.sim.policy import Policy  # noqa: E402
from engine.sim.setup import from_config  # noqa: E402

EXAMPLES = HERE.parent / "docs" / "examples"
SAVED = HERE / "sim_fingerprint.json"
RULESETS = ("classic", "classic-every-role", "yakuza", "twelve-rooms", "minimafik")
EVERY_ROLE = {
    "mafioso": 2,
    "lawyer": 1,
    "killer": 1,
    "thief": 1,
    "mafioso@mafia_b": 1,
    "killer@mafia_b": 1,
    "commissar": 1,
    "doctor": 1,
    "bodyguard": 1,
    "sheriff": 1,
    "witness": 1,
    "maniac": 1,
    "sorcerer": 1,
    "outcast": 1,
    "citizen": 4,
}
"""classic-every-role: the classic example's options with 20 players and every classic role,
two clans (what the example file leaves out: distraction, cover, poison, peeks, loners)."""
GAMES = 2000
BLOCK = 20
"""Games per saved digest: a difference is found to within a block."""
SEED = 1


class _Recorded(GameSession):
    """A session that writes down what it produced (the harness's only hook)."""

    seen: ClassVar[list[str]] = []
    last: GameSession
    """The game being played (its state is read once it is over: reading it between phases
    would write out its random stream, which a simulation does not do)."""

    @classmethod
    def new(cls, *args: Any, **kwargs: Any) -> GameSession:
        session = super().new(*args, **kwargs)
        cls.seen.append(repr(session.pending_setup))
        cls.last = session
        return session

    def resolve(self, *, in_place: bool = False) -> PhaseLog:
        log = super().resolve(in_place=in_place)
        self.seen.append(
            repr((log.phase, log.events, log.warnings, log.in_play_before, log.in_play_after))
        )
        self.seen.append(repr(log.resolution))
        return log


@contextmanager
def _recording() -> Iterator[list[str]]:
    saved = play.GameSession
    _Recorded.seen = []
    play.GameSession = _Recorded  # type: ignore[misc]
    try:
        yield _Recorded.seen
    finally:
        play.GameSession = saved  # type: ignore[misc]


def game_digests(ruleset: str, games: int, seed: int = SEED) -> list[str]:
    """One SHA-256 per game (games 0 … games-1 of `seed`)."""
    rulesets.load_all()
    if ruleset == "classic-every-role":
        setup = from_config(load_game(EXAMPLES / "classic.toml"))
        names = tuple(f"Игрок{i}" for i in range(1, 1 + sum(EVERY_ROLE.values())))
        setup = replace(
            setup,
            seats=tuple(Seat(n) for n in names),
            options={**setup.options, "roles": EVERY_ROLE, "clans": 2},
            aliases={},
        )
    else:
        setup = from_config(load_game(EXAMPLES / f"{ruleset}.toml"))
    table = play.Table(setup, Policy())
    out = []
    with _recording() as seen:
        for index in range(games):
            seen.clear()
            record = table.play(index, seed)
            seen.append(repr(record))
            seen.append(json.dumps(_Recorded.last.state.to_json(), default=repr))
            out.append(hashlib.sha256("\n".join(seen).encode()).hexdigest())
    return out


def fingerprint(digests: Sequence[str]) -> str:
    return hashlib.sha256("".join(digests).encode()).hexdigest()


def main(argv: list[str]) -> int:
    games = int(argv[argv.index("--games") + 1]) if "--games" in argv else GAMES
    wanted = [a for a in argv if a in RULESETS] or list(RULESETS)
    saved: dict[str, Any] = json.loads(SAVED.read_text()) if SAVED.exists() else {}
    result: dict[str, Any] = {"games": games, "seed": SEED, "rulesets": {}}
    failed = False
    for ruleset in wanted:
        began = time.process_time()
        digests = game_digests(ruleset, games)
        took = time.process_time() - began
        print_line = f"{ruleset:<13} {fingerprint(digests)}  {games} games, {took:.1f} s CPU"
        blocks = [fingerprint(digests[i : i + BLOCK]) for i in range(0, games, BLOCK)]
        result["rulesets"][ruleset] = {"fingerprint": fingerprint(digests), "blocks": blocks}
        if "--check" in argv:
            known = saved.get("rulesets", {}).get(ruleset)
            if known is None or saved.get("games") != games:
                print(f"{print_line}  (nothing saved for {games} games)")
                failed = True
                continue
            if known["fingerprint"] == fingerprint(digests):
                print(f"{print_line}  same")
                continue
            first = next(
                i for i, (a, b) in enumerate(zip(known["blocks"], blocks, strict=True)) if a != b
            )
            print(
                f"{print_line}  DIFFERS (first in games {first * BLOCK}–{first * BLOCK + BLOCK - 1})"
            )
            failed = True
        else:
            print(print_line)
    if "--save" in argv:
        SAVED.write_text(json.dumps(result, indent=0) + "\n")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

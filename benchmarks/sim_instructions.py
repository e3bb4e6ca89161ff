"""Instructions a simulated classic game costs, counted by valgrind (issue 30): a figure the
machine's load does not change, to compare two versions of the engine on a shared machine.

`python benchmarks/sim_instructions.py [--games N] [--root DIR]` runs this file under
`valgrind --tool=callgrind` twice, with N games (300 by default) of
docs/examples/classic.toml and with none, both after the same warm-up, and prints the
difference per game. `--root DIR` measures another checkout (e.g. a `git worktree` of main),
with this file's harness. Needs valgrind (`apt-get install valgrind`); takes a minute or two.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
WARM = 50


def play(root: Path, games: int) -> None:
    """The measured part (run inside valgrind): warm-up, then `games` games of seed 1."""
    sys.path.insert(0, str(root))
    import rulesets
    from engine.app.game_file import load_game
    from engine.sim.play import Table
    from engine.sim.policy import Policy
    from engine.sim.setup import from_config

    rulesets.load_all()
    table = Table(from_config(load_game(root / "docs" / "examples" / "classic.toml")), Policy())
    table.run(7, 0, WARM)
    table.run(1, 0, games)


def instructions(root: Path, games: int) -> int:
    """Instructions (Ir) of a whole run of `play` under callgrind."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "callgrind.out"
        env = {**os.environ, "PYTHONHASHSEED": "0"}
        run = subprocess.run(
            [
                "valgrind",
                "--tool=callgrind",
                f"--callgrind-out-file={out}",
                sys.executable,
                __file__,
                "--inside",
                str(root),
                str(games),
            ],
            capture_output=True,
            text=True,
            env=env,
            check=True,
        )
        found = re.search(r"Collected\s*:\s*(\d+)", run.stderr)
        if found is None:
            raise RuntimeError(f"no instruction count in valgrind's output:\n{run.stderr}")
        return int(found.group(1))


def main(argv: list[str]) -> int:
    if argv[:1] == ["--inside"]:
        play(Path(argv[1]), int(argv[2]))
        return 0
    games = int(argv[argv.index("--games") + 1]) if "--games" in argv else 300
    root = Path(argv[argv.index("--root") + 1]) if "--root" in argv else HERE.parent
    base, full = instructions(root, 0), instructions(root, games)
    per_game = (full - base) / games
    print(f"{root}: {per_game:,.0f} instructions a classic game ({games} games of seed 1)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

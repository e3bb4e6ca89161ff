"""`forumgm dashboard` run as a host starts it: a subprocess on a free port of 127.0.0.1, over
the store and game file of tests/app/review_game.py, FORUMGM_NOW for its clock."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager

import httpx
import pytest

from tests.app.review_game import AFTER_DEADLINE, ReviewGame


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def served_dashboard(game: ReviewGame, *options: str, scheme: str = "http") -> Iterator[str]:
    """The dashboard of `game` (with these command-line `options`) until the block ends; its
    address. Waits until the login page answers (the server's own certificate is not
    checked over https)."""
    port = free_port()
    env = {**os.environ, "FORUMGM_NOW": AFTER_DEADLINE}
    command = [
        sys.executable,
        "-c",
        "from engine.app.cli import main; main()",
        "dashboard",
        str(game.path),
        "--db",
        game.db,
        "--port",
        str(port),
        *options,
    ]
    proc = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    url = f"{scheme}://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            if proc.poll() is not None:
                output = proc.stdout.read().decode() if proc.stdout else ""
                pytest.fail(f"forumgm dashboard exited {proc.returncode}: {output}")
            try:
                if httpx.get(f"{url}/login", timeout=1, verify=False).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            assert time.monotonic() < deadline, "forumgm dashboard did not answer in 30 s"
            time.sleep(0.1)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()

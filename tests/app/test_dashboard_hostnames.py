"""The `Host` headers `forumgm dashboard` answers, and its options' mistakes in one line."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.app.cli import app
from engine.app.dashboard.hostnames import BadHostName, HostNames, host_name
from tests.app.review_game import runner


@pytest.mark.parametrize(
    ("bind", "extra", "allowed", "refused"),
    [
        (
            "127.0.0.1",
            [],
            ["127.0.0.1:8765", "localhost", "LocalHost.:8765", "[::1]:8765", "127.0.0.2"],
            ["rebound.example", "192.168.1.5", "", "localhost:x", "[::1]x", "[::1", "a:1:2"],
        ),
        (
            "0.0.0.0",
            ["mafia.example.org", "203.0.113.9", "мафия.рф"],
            [
                "192.168.1.5:8765",
                "mafia.example.org",
                "MAFIA.example.org.:443",
                "[2001:db8::1]",
                "xn--80aqk7a6c.xn--p1ai:8765",
            ],
            ["rebound.example", "sub.mafia.example.org", "mafia.example.org.rebound.example"],
        ),
        (
            "192.168.1.5",
            ["[2001:db8::5]"],
            ["192.168.1.5:8765", "[2001:db8::5]:8765", "localhost:8765"],
            ["192.168.1.6:8765", "[2001:db8::6]:8765", "host.docker.internal"],
        ),
    ],
)
def test_the_names_a_dashboard_answers(
    bind: str, extra: list[str], allowed: list[str], refused: list[str]
) -> None:
    names = HostNames.started_for(bind, extra)
    assert [h for h in allowed if not names.allows(h)] == []
    assert [h for h in refused if names.allows(h)] == []
    assert not names.allows(None)


@pytest.mark.parametrize(
    "given", ["https://mafia.example.org", "mafia.example.org:443", "a/b", "", "-a.org", "a..org"]
)
def test_a_host_name_that_is_no_name_is_refused(given: str) -> None:
    with pytest.raises(BadHostName, match="is not a host name"):
        host_name(given)


@pytest.mark.parametrize(
    ("options", "says"),
    [
        (["--host-name", "https://mafia.example.org"], "give the name alone"),
        (["--proxy", "*"], "is not an address or network"),
        (["--proxy", "proxy.example"], "is not an address or network"),
        (["--tls-cert", "cert.pem"], "give both --tls-cert and --tls-key"),
    ],
)
def test_the_dashboards_new_options_say_what_is_wrong(
    tmp_path: Path, options: list[str], says: str
) -> None:
    game = tmp_path / "game.toml"
    game.write_text("", encoding="utf-8")
    db = f"sqlite:///{tmp_path / 'store.sqlite'}"
    result = runner.invoke(app, ["dashboard", str(game), "--db", db, *options])
    assert result.exit_code == 2
    assert says in " ".join(result.output.split()), result.output
    assert not (tmp_path / "store.sqlite").exists()  # refused before the store was opened


def test_tls_files_that_cannot_serve_https_are_refused_in_one_line(tmp_path: Path) -> None:
    game, text = tmp_path / "game.toml", tmp_path / "notes.txt"
    game.write_text("", encoding="utf-8")
    text.write_text("not a certificate", encoding="utf-8")
    db = f"sqlite:///{tmp_path / 'store.sqlite'}"
    for files, says in (
        ([tmp_path / "missing.pem"] * 2, "No such file or directory"),
        ([text, text], "they are not a PEM certificate and its private key"),
    ):
        tls = ["--tls-cert", str(files[0]), "--tls-key", str(files[1])]
        result = runner.invoke(app, ["dashboard", str(game), "--db", db, *tls])
        assert result.exit_code == 2 and says in " ".join(result.output.split()), result.output
    assert not (tmp_path / "store.sqlite").exists()

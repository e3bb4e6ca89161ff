"""`forumgm host set-password` keeps only a scrypt hash; a short password is refused."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from engine.app.cli import app
from engine.host_password import check_password
from engine.store import open_store

runner = CliRunner()


def test_the_password_is_stored_hashed_and_a_change_is_logged(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'store.sqlite'}"
    secret = "correct horse battery"
    result = runner.invoke(
        app, ["host", "set-password", "--db", db, "--password-stdin"], input=secret + "\n"
    )
    assert result.exit_code == 0 and "Set the dashboard password of host" in result.output
    assert secret not in result.output
    account = open_store(db).host_account("host")
    assert account is not None and account.password_hash.startswith("scrypt$")
    assert check_password(secret, account.password_hash)
    assert not check_password("wrong password", account.password_hash)
    store_bytes = (tmp_path / "store.sqlite").read_bytes()
    assert secret.encode() not in store_bytes
    result = runner.invoke(
        app,
        ["host", "set-password", "--db", db, "--user", "Оля", "--password-stdin"],
        input="short\n",
    )
    assert result.exit_code == 2 and "at least 8 characters" in result.output
    prompt = runner.invoke(
        app, ["host", "set-password", "--db", db], input="another one\nanother one\n"
    )
    assert prompt.exit_code == 0 and "Changed" in prompt.output
    assert "another one" not in prompt.output
    log = runner.invoke(app, ["host", "log", "--db", db]).output
    assert log.count("set_password") == 2 and "another" not in log

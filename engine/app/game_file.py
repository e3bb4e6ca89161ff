"""Reading a game file the way every command does: against the registered rulesets and boards."""

from __future__ import annotations

import os
from datetime import datetime
from pathlib import Path

from engine.config import Checks, ConfigError, GameConfig, load_config
from engine.core.ruleset import Ruleset


def known_rulesets() -> dict[str, Ruleset]:
    import rulesets
    from engine.core.ruleset import get_ruleset, registered

    rulesets.load_all()
    return {r: get_ruleset(r) for r in registered()}


def load_game(
    path: Path | str, *, now: datetime | None = None, allow_past: bool = False
) -> GameConfig:
    """The checked game file; `now` also refuses a past start (unless `allow_past`).

    Raises ConfigError with every problem; the config's `warnings` say what is not fatal.
    The problems and warnings are made in the host's language (`--lang`, FORUMGM_LANG), else
    in the file's own `language`, read first: a Russian game's file is checked in Russian.
    """
    speak_its_language(path)
    checks = Checks(
        rulesets=known_rulesets(),
        now=now,
        allow_past=allow_past,
        environ=os.environ,
    )
    return load_config(path, checks=checks)


def speak_its_language(path: Path | str) -> None:
    """Speak the game file's `[game] language` from here on, unless the host chose his own
    (`i18n.for_game`): the language of its problems must be known before they are made, so
    the language is read before the rest is checked. A file that cannot be read, or names no
    language forumgm speaks, leaves the language as it was (its problems say why)."""
    import tomllib

    from engine import i18n

    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return
    try:
        game = tomllib.loads(text).get("game")
    except tomllib.TOMLDecodeError:  # its TOML error is said in the language it names
        game = {"language": language} if (language := _written_language(text)) else {}
    language = game.get("language", "ru") if isinstance(game, dict) else "ru"
    try:
        i18n.for_game(str(language))
    except i18n.UnknownLanguage:
        return


def _written_language(text: str) -> str | None:
    """The `language = "…"` a game file that is not valid TOML writes under [game], read
    line by line (None: it writes none there)."""
    import re

    table = None
    for line in text.splitlines():
        header = re.match(r"\s*\[\s*([\w.-]+)\s*\]", line)
        if header:
            table = header.group(1)
            continue
        written = re.match(r"""\s*language\s*=\s*["'](\w+)["']""", line)
        if table == "game" and written:
            return written.group(1)
    return None


def write_replacement(path: Path | str, substitute: str, replaced: str, at: datetime) -> None:
    """Record `game replace` in the game file: `[players] replacements` gets
    `"NEW" = { replaces = "OLD", at = … }`, the rest of the file (comments, layout) as it was.
    The file then tells the same story as the store: `game validate`, a new store or another
    host reading it see the substitute too."""
    import tomlkit

    file = Path(path)
    doc = tomlkit.parse(file.read_text(encoding="utf-8"))
    players = doc.get("players")
    if players is None:
        players = tomlkit.table()
        doc["players"] = players
    replacements = players.get("replacements")
    if replacements is None:
        replacements = tomlkit.inline_table()
        players["replacements"] = replacements
    entry = tomlkit.inline_table()
    entry.update({"replaces": replaced, "at": at.replace(microsecond=0)})
    replacements[substitute] = entry
    file.write_text(tomlkit.dumps(doc), encoding="utf-8")


__all__ = [
    "ConfigError",
    "known_rulesets",
    "load_game",
    "speak_its_language",
    "write_players",
    "write_replacement",
]


def write_players(path: Path | str, players: list[str], reserve: list[str]) -> None:
    """Write the closed sign-up list into `[players]`: `players` and `reserve` (who takes a
    seat that falls free, in order), the rest of the file (comments, layout) as it was."""
    import tomlkit

    file = Path(path)
    doc = tomlkit.parse(file.read_text(encoding="utf-8"))
    table = doc.get("players")
    if table is None:
        table = tomlkit.table()
        doc["players"] = table
    table["players"] = tomlkit.item(players)
    table["reserve"] = tomlkit.item(reserve)
    file.write_text(tomlkit.dumps(doc), encoding="utf-8")

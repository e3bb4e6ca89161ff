"""The problems every table of a game file can have, worded once for each table's reader
(`[signup]` in engine.signup, `[activity]` in engine.activity) in the host's language.

A problem names its key in backquotes first (`prod`: …): engine.config finds the key's line
by it, in either language."""

from __future__ import annotations

from collections.abc import Iterable

from engine.i18n import _


def unknown_key(key: object, known: Iterable[str]) -> str:
    return _("unknown key `{key}` (known: {known})").format(key=key, known=", ".join(sorted(known)))


def true_or_false(key: str, value: object) -> str:
    return _("`{key}`: true or false, got {value!r}").format(key=key, value=value)

"""Subcommands imported only when they run: `forumgm tally` never loads SQLAlchemy or Alembic.

A command is named by where it lives ("engine.app.tally_cmd:tally"): a function becomes a
command, a `typer.Typer` a group of them. The module is imported the first time the command
is looked up — to run it, or to show it in `forumgm --help`.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator, Mapping, MutableMapping
from typing import Any

import typer
from typer.core import TyperGroup


def load_command(name: str, where: str) -> Any:
    """The click command for `where` ("package.module:attribute"), under `name`.

    Built as `add_typer`/`command` on a parent would build it, so a lazy command is exactly
    the command an eager registration gives (a one-command Typer stays a group).
    """
    module_name, _, attribute = where.partition(":")
    target = getattr(importlib.import_module(module_name), attribute)
    parent = typer.Typer(add_completion=False)
    parent.callback()(_no_options)
    if isinstance(target, typer.Typer):
        parent.add_typer(target, name=name)
    else:
        parent.command(name)(target)
    group = typer.main.get_command(parent)
    assert isinstance(group, TyperGroup)
    return plain_help(group.commands[name])


def plain_help(command: Any) -> Any:
    """`command` (and its subcommands) with help texts that read as written: `--help` shows
    them as rich markup, which would take `[players]` for a style and drop it, and a command
    list shows the first paragraph with the docstring's line breaks, cutting its sentence in
    the middle; so brackets are escaped, and the list's line is the paragraph on one line."""
    from rich.markup import escape

    if command.help:
        command.help = escape(command.help)
        first = command.help.split("\n\n")[0]
        command.short_help = " ".join(first.split())
    for param in getattr(command, "params", ()):
        if getattr(param, "help", None):
            param.help = escape(param.help)
    for sub in getattr(command, "commands", {}).values():
        plain_help(sub)
    return command


def _no_options() -> None:
    pass


class _Commands(MutableMapping[str, Any]):
    """The group's commands: the names are known at once, each command is built on first use."""

    def __init__(self, loaded: Mapping[str, Any], lazy: Mapping[str, str]) -> None:
        self._lazy = dict(lazy)
        self._loaded = dict(loaded)
        self._order = [*self._lazy, *(n for n in self._loaded if n not in self._lazy)]

    def __getitem__(self, name: str) -> Any:
        if name not in self._loaded:
            if name not in self._lazy:
                raise KeyError(name)
            self._loaded[name] = load_command(name, self._lazy[name])
        return self._loaded[name]

    def __setitem__(self, name: str, command: Any) -> None:
        if name not in self._order:
            self._order.append(name)
        self._loaded[name] = command

    def __delitem__(self, name: str) -> None:
        self._order.remove(name)
        self._loaded.pop(name, None)
        self._lazy.pop(name, None)

    def __iter__(self) -> Iterator[str]:
        return iter(list(self._order))

    def __len__(self) -> int:
        return len(self._order)


def lazy_group(commands: Mapping[str, str]) -> type[TyperGroup]:
    """A group class (for `typer.Typer(cls=…)`) whose `commands` load when first used."""

    class LazyGroup(TyperGroup):
        def __init__(self, **kwargs: Any) -> None:
            super().__init__(**kwargs)
            self.commands = _Commands(self.commands, commands)

        def list_commands(self, ctx: Any) -> list[str]:
            return list(self.commands)  # the names only: nothing is imported

    return LazyGroup

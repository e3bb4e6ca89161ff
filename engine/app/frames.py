"""What the command line parser says around a mistyped command («Usage: …», «Try … for
help», the «Error» panel, «Missing argument 'files'.») in the host's language.

Typer parses with its own copy of click (`typer._click`), whose messages are English
f-strings rather than gettext texts: no catalogue can be installed for them. So the error
is said again where forumgm's root group sees it go by: its English text is matched against
the `frames` catalogue's templates (Typer's own words, kept by hand) as a board's error is
(`engine.i18n.frame_text`), and Typer's gettext-marked frame (`typer.rich_utils`' panel title and help
hint) and the usage line's prefix are set from `_()`. The language must be known before the
parse: the host's `--lang` is read from the command line first (FORUMGM_LANG too), since
its own callback runs only once the root's options are parsed.

`--help` stays English, as its texts are made at import (engine/locale/README.md).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress
from typing import Any

from typer import Abort

try:  # typer 0.2x parses with its own copy of click; older ones with click itself
    from typer._click.core import Context
    from typer._click.exceptions import UsageError
    from typer._click.formatting import HelpFormatter
except ImportError:  # pragma: no cover - depends on the installed typer
    from click.core import Context  # type: ignore[assignment]
    from click.exceptions import UsageError  # type: ignore[assignment]
    from click.formatting import HelpFormatter  # type: ignore[assignment]
from typer.core import TyperGroup

from engine import i18n
from engine.app.lazy import lazy_group
from engine.i18n import _, frame_text


def early_language(args: Sequence[str]) -> None:
    """The host's `--lang` (or FORUMGM_LANG) chosen from the command line before the parse
    that may refuse it: the root's own options come before the command's name. A wrong
    value is left to `--lang`'s own check."""
    named: str | None = None
    for at, arg in enumerate(args):
        if arg == "--lang" and at + 1 < len(args):
            named = args[at + 1]
            break
        if arg.startswith("--lang="):
            named = arg.partition("=")[2]
            break
        if not arg.startswith("-"):
            break  # the command's name: what follows is the command's
    with suppress(i18n.UnknownLanguage):
        i18n.choose(named)


class HostsFormatter(HelpFormatter):
    """The usage line with its «Usage:» in the host's language."""

    def write_usage(self, prog: str, args: str = "", prefix: str | None = None) -> None:
        super().write_usage(prog, args, _("Usage: ") if prefix is None else prefix)


def _rich_frame() -> None:
    """Typer's panel title and help hint (gettext-marked, but read at its import, before
    any language is known) in the current language; English again for an English command
    of the same process."""
    from typer import rich_utils

    rich_utils.ERRORS_PANEL_TITLE = _("Error")
    rich_utils.RICH_HELP = _("Try [blue]'{command_path} {help_option}'[/] for help.")
    rich_utils.ABORTED_TEXT = _("Aborted.")


def in_hosts_language(error: UsageError) -> UsageError:
    """`error` said again in the host's language, its usage line and help hint too (the
    same exit code, 2, and the same context)."""
    _rich_frame()
    if i18n.current() == i18n.DEFAULT:
        return error
    if error.ctx is not None:
        error.ctx.formatter_class = HostsFormatter
    english = error.format_message()
    said = frame_text(english)
    # A message of no known template is kept, and so is its error (Typer's own
    # NoArgsIsHelpError, which shows the help, is told apart by its class).
    return error if said == english else UsageError(said, ctx=error.ctx)


@contextmanager
def said_in_hosts_language() -> Iterator[None]:
    try:
        yield
    except UsageError as error:
        raised = in_hosts_language(error)
        if raised is error:
            raise
        raise raised from None
    except (Abort, EOFError, KeyboardInterrupt):  # a prompt left: Typer says «Aborted.»
        _rich_frame()
        raise


def root_group(commands: Mapping[str, str]) -> type[TyperGroup]:
    """forumgm's root group (`lazy_group`'s), whose parse errors, and its commands', are
    said in the host's language."""
    lazy = lazy_group(commands)

    class Root(lazy):  # type: ignore[misc,valid-type]
        def parse_args(self, ctx: Context, args: list[str]) -> list[str]:
            early_language(args)
            with said_in_hosts_language():
                return list(super().parse_args(ctx, args))

        def invoke(self, ctx: Context) -> Any:
            with said_in_hosts_language():
                return super().invoke(ctx)

    return Root

"""The host's terminal: rich tables and colours, and nothing anyone wrote read as markup.

Player names, thread titles, subjects, post texts, a game file's title and error messages
all reach the terminal. rich reads `[…]` in a printed string or a table cell as markup, so
`Eve[/i]` would end a command with a MarkupError and `[url=…]Zed[/url]` would print as
"Zed". Every console of the CLI is made here with markup off: text prints as written, and
a command that wants colour says so with `style=`.
"""

from __future__ import annotations

from rich.console import Console


def console(*, stderr: bool = False) -> Console:
    """A console that prints every string literally (made per call: it reads the width)."""
    return Console(markup=False, highlight=False, soft_wrap=True, stderr=stderr)


class Out:
    """`out.print(...)`: a fresh `console()` per call, so the terminal width is read then."""

    def print(self, *args: object, **kwargs: object) -> None:
        console().print(*args, **kwargs)  # type: ignore[arg-type]


out = Out()

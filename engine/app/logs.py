"""What `forumgm run` tells its operator: one line per action, tracebacks only when asked.

The service's loggers ("forumgm.*") say what each step did at INFO (polled, receipts,
frozen, resolved, published) and keep a failed step's traceback at DEBUG. On the console
(stderr) a line reads "19:02:11 game 1: turn 1: polled: 2 new post(s), 1 new PM(s); …";
`--debug` adds the DEBUG lines. `--log-file` writes everything, DEBUG included, to a file
rotated at 10 MB with 5 old files kept; it holds players' PMs, so like the store it is
created readable by its owner only (0600), each new file after a rotation too. The board adapters' lines (logins, each retry of
a request) go to the file and to `--debug`; other libraries' chatter (HTTP requests, the
scheduler's jobs) stays out unless it is a warning.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from io import TextIOWrapper
from logging.handlers import RotatingFileHandler
from pathlib import Path

from engine import i18n

SERVICE_LOGGER = "forumgm"
ADAPTER_LOGGER = "forums"
"""The board adapters: their retries and logins go to the log file (and `--debug`)."""
LOG_FILE_BYTES = 10 * 1024 * 1024
LOG_FILE_BACKUPS = 5
QUIET = ("httpx", "httpcore", "apscheduler", "alembic", "sqlalchemy")
"""Libraries whose INFO lines would drown the service's own."""


class _PrivateRotatingFile(RotatingFileHandler):
    """A rotated log whose every file is created 0600 (the store's mode): the log holds the
    text of players' PMs. A file that already exists keeps its mode, with a warning when
    others can read it (as `forums.guard.create_private` does for the store)."""

    def _open(self) -> TextIOWrapper:
        from forums.guard import create_private

        create_private(self.baseFilename)
        return super()._open()


def file_handler(path: Path) -> logging.Handler:
    """The `--log-file` handler: everything, DEBUG included, rotated; the file is created
    readable by its owner only. Its folder must be there (a mistyped path makes none); an
    `OSError` says the file cannot be written."""
    to_file = _PrivateRotatingFile(
        path, maxBytes=LOG_FILE_BYTES, backupCount=LOG_FILE_BACKUPS, encoding="utf-8"
    )
    to_file.setLevel(logging.DEBUG)
    to_file.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    return to_file


class HostsLanguage(logging.Formatter):
    """The console's lines in the host's language (`engine.i18n`, as the command chose it
    when the formatter was made: the lines of worker threads too); a line made with
    `engine.i18n.L_` is translated, its English kept for the log file (one text to grep
    and to quote, whatever language the host reads)."""

    def __init__(self, fmt: str, datefmt: str, lang: str | None = None) -> None:
        super().__init__(fmt, datefmt)
        self.lang = lang or i18n.current()

    def format(self, record: logging.LogRecord) -> str:
        args = record.args if isinstance(record.args, tuple) else ()
        if self.lang != i18n.DEFAULT and (
            isinstance(record.msg, i18n.Said) or any(isinstance(a, i18n.Said) for a in args)
        ):
            record = logging.makeLogRecord(record.__dict__)  # the file's handler reads the original
            record.msg = i18n.shown(record.msg, self.lang)
            record.args = tuple(i18n.shown(a, self.lang) for a in args) or None
        return super().format(record)


class ShownWhenPrinted(logging.Formatter):
    """A warning of the service's code met outside `forumgm run` (`review`, `steer`: a host's
    measure the rules no longer apply) goes to Python's last-resort handler: printed in the
    language the command speaks at that moment, not in the English the log file keeps."""

    def format(self, record: logging.LogRecord) -> str:
        if isinstance(record.msg, i18n.Said) and i18n.current() != i18n.DEFAULT:
            record = logging.makeLogRecord(record.__dict__)
            record.msg = i18n.shown(record.msg)
        return super().format(record)


def speak_last_resort() -> None:
    """Let Python's last-resort handler (a warning no handler took) speak the host's
    language (`ShownWhenPrinted`)."""
    if logging.lastResort is not None and not isinstance(
        logging.lastResort.formatter, ShownWhenPrinted
    ):
        logging.lastResort.setFormatter(ShownWhenPrinted())


@contextmanager
def service_logging(
    *, debug: bool = False, to_file: logging.Handler | None = None
) -> Iterator[None]:
    """Send the service's log lines to the console (and `to_file`, a `file_handler`) while the
    block runs; `to_file` is closed at its end."""
    ours = [logging.getLogger(SERVICE_LOGGER), logging.getLogger(ADAPTER_LOGGER)]
    handlers: list[logging.Handler] = []
    console = logging.StreamHandler(sys.stderr)
    console.setLevel(logging.DEBUG if debug else logging.INFO)
    # The machine's clock, labelled («12:27:28 UTC»): the times inside the lines are each
    # game's own zone, and say so.
    console.setFormatter(HostsLanguage("%(asctime)s %(message)s", "%H:%M:%S %Z"))
    if not debug:
        console.addFilter(_service_lines)
    handlers.append(console)
    if to_file is not None:
        handlers.append(to_file)
    levels = {logger: logger.level for logger in ours}
    quiet = {name: logging.getLogger(name).level for name in QUIET}
    for name in QUIET:
        logging.getLogger(name).setLevel(logging.WARNING)
    for logger in ours:
        logger.setLevel(logging.DEBUG)
        for handler in handlers:
            logger.addHandler(handler)
    try:
        yield
    finally:
        for logger in ours:
            for handler in handlers:
                logger.removeHandler(handler)
            logger.setLevel(levels[logger])
        for handler in handlers:
            handler.close()
        for name, was in quiet.items():
            logging.getLogger(name).setLevel(was)


def _service_lines(record: logging.LogRecord) -> bool:
    """The console without --debug: the service's lines, and only errors of the adapters."""
    return record.name.startswith(SERVICE_LOGGER) or record.levelno >= logging.ERROR

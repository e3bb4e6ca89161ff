"""Files the host names on the command line (`--db`, `--log-file`, `demo --db`, `game new`):
checked before anything is asked or written, so a typo is one line and never a traceback,
and no folder is made that the host did not mean."""

from __future__ import annotations

import os
from pathlib import Path

from engine.i18n import _


def file_problem(path: Path) -> str | None:
    """What stands in the way of writing the file `path` (None: nothing seen). Its folder
    must exist already: a mistyped path is refused, not made."""
    path = path.expanduser()
    parent = path.parent if str(path.parent) else Path(".")
    if path.is_dir():
        return _("{path} is a folder: name a file in it").format(path=path)
    for folder in (parent, *parent.parents):
        if folder.exists() and not folder.is_dir():
            return _("{folder} is a file, not a folder").format(folder=folder)
        if folder.exists():
            break
    if not parent.exists():
        return _(
            "there is no folder {folder}: create it first, or name a file in a folder that is there"
        ).format(folder=parent)
    if not os.access(parent, os.W_OK | os.X_OK):
        return _("the folder {folder} is not writable").format(folder=parent)
    return None


def writable(path: Path) -> str | None:
    """`file_problem`, then a try: the file opened for appending, private to its owner, and
    removed again if it was not there; the system's reason if that fails (/proc, a
    read-only disk)."""
    trouble = file_problem(path)
    if trouble is not None:
        return trouble
    target = path.expanduser()
    existed = target.exists()
    try:
        os.close(os.open(target, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600))
        if not existed:
            target.unlink()
    except OSError as exc:
        said = _("cannot write {path} ({error}): name a file in a folder of yours")
        return said.format(path=path, error=exc.strerror or exc)
    return None

"""A saved page as a style nobody wrote would serve it: every class name renamed.

What is left is what the engine itself prints — ids, links, attributes, tags — which is
what the adapters' structural reading (forums/structure.py) reads when no selector matches.
"""

from __future__ import annotations

import hashlib
import re

_CLASS = re.compile(r"""(\sclass\s*=\s*)(["'])(.*?)\2""", re.IGNORECASE | re.DOTALL)


def renamed(name: str) -> str:
    return "s" + hashlib.sha1(name.encode()).hexdigest()[:8]


def rename_classes(html: str) -> str:
    """`html` with each class name replaced by a stable meaningless one ("postbody" →
    "s1a2b3c4d"); class-based CSS and selectors then match nothing."""

    def swap(match: re.Match[str]) -> str:
        names = " ".join(renamed(n) for n in match.group(3).split())
        return f"{match.group(1)}{match.group(2)}{names}{match.group(2)}"

    return _CLASS.sub(swap, html)

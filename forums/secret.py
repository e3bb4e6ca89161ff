"""A password or API key held in memory: shown by no repr, log line or traceback."""

from __future__ import annotations

__all__ = ["Secret"]


class Secret:
    """A password or key that never shows itself in a repr, a log line, an f-string or a
    traceback's locals (the service's credentials use it too: engine.credentials)."""

    __slots__ = ("_value",)

    def __init__(self, value: str) -> None:
        self._value = value

    def reveal(self) -> str:
        return self._value

    def __repr__(self) -> str:
        return "Secret('********')"

    __str__ = __repr__

    def __format__(self, spec: str) -> str:
        return repr(self)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Secret) and other._value == self._value

    def __hash__(self) -> int:
        return hash(("Secret", self._value))

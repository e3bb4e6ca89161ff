"""Errors every board adapter raises; board quirks are translated into these few.

What an error says is made in English from a template marked `N_` ("no thread {thread!r}",
named fields): the log and the store keep that English, and the engine shows it in the
host's language (`engine.i18n.board_text` matches the text against the `boards` catalogue's
templates; engine/locale/README.md)."""

from __future__ import annotations


def N_(template: str) -> str:
    """Marks a board error's text template for the `boards` catalogue (`pybabel extract -k
    N_` over forums/): the text is made with `.format(…)` and raised in English as before."""
    return template


class BoardError(Exception):
    """Base of every board error."""


class LoginFailed(BoardError):
    """Wrong user name or password, or the account cannot log in."""


class SessionExpired(BoardError):
    """The board no longer recognises the session (after one re-login attempt)."""


class CaptchaRequired(BoardError):
    """The board wants a CAPTCHA; the host must log in by hand or lift it for the GM."""


class FloodControl(BoardError):
    """The board refuses to post so soon; retry after `retry_after` seconds."""

    def __init__(self, message: str, retry_after: float) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class BoardUnavailable(BoardError):
    """The board did not answer usefully (timeouts, 5xx) after the retries."""


class NotFound(BoardError):
    """A thread, post or user that does not exist."""


class LayoutChanged(BoardError):
    """A page did not have the structure the adapter expects: never read as "no posts"."""

    def __init__(self, url: str, what: str) -> None:
        super().__init__(N_("{url}: {what}").format(url=url, what=what))
        self.url = url
        self.what = what


class NoPrivateMessages(BoardError):
    """The board's engine has no private messages (FluxBB): nothing can be sent privately."""

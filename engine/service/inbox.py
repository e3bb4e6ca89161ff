"""One GM account, several games: which game a PM in the shared inbox is for.

Every game on a GM account reads the same inbox. A PM belongs to the game whose player
sent it. When the sender plays (or played) in more than one of the account's running games,
its subject decides: the game's tag or title in it. When it names none of them, the PM is
"unclear" (unless the first lines of its body name exactly one: the answer to the question
keeps the question's subject): each of those games keeps it for its host (a held `pm_game_unclear` warning,
which `review --typed` or `--ignore` settles), the sender is asked once which game it is
for, and no game answers it or counts it on its own. A PM from someone who plays in none of
the games is kept by all of them as a stranger's message (read by none, shown to each host).

What a PM was found to be is recorded when it is first read and never changes after, so a
phase read again later reads the same PMs.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from engine.store.models.game import GameStatus
from forums.records import PrivateMessage

if TYPE_CHECKING:
    from engine.store import Store

UNCLEAR = "unclear"
"""`RawPM.routing` of a PM whose game its sender has to say."""


@dataclass(frozen=True)
class GameNames:
    """What routes a PM to one game: who plays in it, and how a subject may name it."""

    game_id: int
    title: str
    tag: str | None
    accounts: frozenset[str]
    """Casefolded board accounts that hold, held or may hold a seat."""
    ended: bool = False
    """The game is over: it reads no more PMs, but those its players send it stay its own
    (another game of the account never reads them or shows them to its host)."""

    @classmethod
    def of(
        cls,
        game_id: int,
        title: str,
        tag: str | None,
        accounts: Iterable[str],
        *,
        ended: bool = False,
    ) -> GameNames:
        accounts = frozenset(a.casefold() for a in accounts if a)
        return cls(game_id, title, tag, accounts, ended)

    @property
    def names(self) -> tuple[str, ...]:
        """How a subject may name the game: its tag, its title (where it has them)."""
        return tuple(n for n in (self.tag, self.title) if n and n.strip())

    @property
    def label(self) -> str:
        """The game as the question to a player names it: «tag» or «title»."""
        return (self.tag or self.title or f"#{self.game_id}").strip()

    def plays(self, sender: str) -> bool:
        return sender.casefold() in self.accounts


@dataclass(frozen=True)
class Route:
    """Where one PM goes: the games that keep it; `unclear` when its sender must say which
    of them it is for (every one of them holds it for its host)."""

    games: tuple[GameNames, ...]
    unclear: bool = False

    def keeps(self, game_id: int) -> bool:
        return any(g.game_id == game_id for g in self.games)

    @property
    def asker(self) -> int | None:
        """The game that asks the sender which game (one question, not one per game)."""
        return min(g.game_id for g in self.games) if self.unclear and self.games else None


def named_in(subject: str, games: Sequence[GameNames]) -> list[GameNames]:
    """The games whose tag or title the subject contains as whole words («МА» is not in
    «Мафия Б: вопрос»; a name inside a longer name that is also there does not count:
    «Мафия 2» is not also «Мафия»)."""
    text = _words(subject)
    found = [(g, n) for g in games for n in map(_words, g.names) if _has_words(text, n)]
    longer = [n for _, n in found]
    kept = {g.game_id: g for g, n in found if not any(n != m and _has_words(m, n) for m in longer)}
    return list(kept.values())


def _words(text: str) -> str:
    """A subject or a game's name as they are compared: letter case and spacing aside."""
    return " ".join(text.casefold().split())


def _has_words(text: str, name: str) -> bool:
    """Whether `name` stands in `text` with no letter or digit glued to either end (one
    linear scan per place the name occurs)."""
    start = text.find(name)
    while start != -1:
        end = start + len(name)
        before = text[start - 1] if start else " "
        after = text[end] if end < len(text) else " "
        if not before.isalnum() and not after.isalnum():
            return True
        start = text.find(name, start + 1)
    return False


def route(pm: PrivateMessage, games: Sequence[GameNames]) -> Route:
    """The game a PM is for, among the games of its GM account (running, or ended)."""
    everyone = [g for g in games if g.plays(pm.sender)]
    ended = [g for g in everyone if g.ended]
    playing = [g for g in everyone if not g.ended]
    if ended:
        # A player of a game that is over: his PM stays that game's when he plays in no
        # running one, or when its subject names the ended game (a late «Re: Ваша роль
        # [МА]»). No other game reads it, answers it or shows it to its host.
        named = named_in(pm.subject, everyone)
        if not playing or (len(named) == 1 and named[0].ended):
            return Route(tuple(named if len(named) == 1 and named[0].ended else ended))
    if not playing:
        # Someone who plays in none of them: every running game keeps it as a stranger's
        # message, which holds nothing and is shown to each host (`forumgm status`).
        return Route(tuple(g for g in games if not g.ended))
    if len(playing) == 1:
        return Route((playing[0],))
    named = named_in(pm.subject, playing)
    if len(named) == 1:
        return Route((named[0],))
    # A subject that names none or several: a reply to «Для какой игры ваше сообщение?
    # (МА, МБ)» keeps the question's subject, and the answer («Для МА») is in the body.
    # Only the body's first lines are read, and only a body that names exactly one decides.
    head = "\n".join(pm.body.text().strip().splitlines()[:_BODY_LINES])[:_BODY_CHARS]
    named = named_in(head, playing)
    if len(named) == 1:
        return Route((named[0],))
    return Route(tuple(playing), unclear=True)


_BODY_LINES = 3
_BODY_CHARS = 500
"""How much of a PM's body may name its game when the subject names none."""


def board_games(store: Store, board_id: int) -> list[GameNames]:
    """The games of one GM account on one board, with every name that plays or may play in
    each (what a PM is routed by): the running ones, and those that ended (a PM from one of
    their players stays theirs, `route`)."""
    return [
        GameNames.of(
            g.id,
            g.title,
            g.tag,
            [*(g.accounts or ()), *names],
            ended=g.status == GameStatus.FINISHED,
        )
        for g, names in store.board_games(board_id, finished=True)
    ]

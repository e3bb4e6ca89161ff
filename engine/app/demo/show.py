"""What the demo shows as the game goes: phase headers, thread talk, vote tables, results."""

from __future__ import annotations

from datetime import datetime

from rich.console import Console
from rich.markup import escape
from rich.panel import Panel
from rich.rule import Rule
from rich.table import Table as RichTable

from engine import i18n
from engine.core.model import GameState
from engine.core.ruleset import VoteView
from engine.i18n import _
from engine.store import Store


def _winner(code: str | None) -> str:
    """The winning side as the show names it (a side it does not know: its code)."""
    names = {
        "mafia": _("mafia"),
        "town": _("town"),
        "law": _("the Law"),
        "yakuza": _("the Yakuza"),
        "neutral": _("the Neutrals"),
        "maniac": _("the Maniac"),
        "psycho": _("the Psycho"),
    }
    return names.get(str(code), str(code))


class Show:
    """The classic demo's view: what the thread shows, plus the GM's secret vote table.

    It speaks the game's language (`lang`, as the posts it shows), in the words of the
    gettext catalogue; English is the code's."""

    shows_votes = True
    other_posts = "rating"
    """What the GM's other thread posts are in this demo: vote ratings (classic), or any
    post (a phase's opening, an anonymous message)."""

    def __init__(self, *, quiet: bool, width: int | None, lang: str) -> None:
        self.console = Console(quiet=quiet, width=width, highlight=False, soft_wrap=False)
        self.lang = lang if lang in i18n.LANGUAGES else i18n.DEFAULT
        self.turns = 0

    def intro(self, state: GameState, players: int) -> None:
        with i18n.use(self.lang):
            said = _("Demo: classic mafia, {n} players, local board, SQLite").format(n=players)
        self.console.print(Rule(said))

    def turn_header(self, turn: int, phase: str, deadline: datetime) -> None:
        self.turns = turn
        self.console.print()
        with i18n.use(self.lang):
            title = _("Turn {n} — deadline {deadline}").format(
                n=turn, deadline=f"{deadline:%d.%m %H:%M}"
            )
        self.console.print(Rule(f"[bold]{title}"))

    def thread_post(self, author: str, text: str) -> None:
        first = text.split("[/quote]")[-1].strip().splitlines()[0] if text.strip() else ""
        self.console.print(f"  [cyan]{escape(author)}[/]: {escape(first)}")

    def rating(self, post: str) -> None:
        with i18n.use(self.lang):
            if self.other_posts == "rating":
                title = _("Vote rating on a player's request")
            else:
                title = _("The GM's post in the thread")
        self.console.print(Panel(_bbcode(post), title=title, expand=False))

    def votes(self, view: VoteView) -> None:
        with i18n.use(self.lang):
            heading = _("Votes sent to the GM by PM (only the GM sees them)")
            voter, vote, no_lynch = _("Player"), _("Vote"), _("no lynch")
        self.console.print(f"  [bold]{heading}[/]")
        table = RichTable(show_lines=False)
        table.add_column(voter)
        table.add_column(vote)
        for name, target in view.votes.items():
            shown = no_lynch if target == "no_lynch" else target
            table.add_row(name, shown or "—")
        self.console.print(table)

    def results(self, post: str, warnings: int) -> None:
        with i18n.use(self.lang):
            title = _("Results posted to the thread")
            # English keeps «parser warnings this turn: 1» as the demo always printed it.
            counted = _("parser warnings this turn: {n}").format(n=warnings)
        self.console.print(Panel(_bbcode(post), title=title, expand=False))
        self.console.print(f"  [dim]{counted}[/]")

    def finish(self, state: GameState, store: Store, game_id: int) -> None:
        posts = len(store.outbox(game_id))  # the GM's posts and PMs
        with i18n.use(self.lang):
            line = _("Game over. Winner: {w}. Turns: {t}. GM posts and PMs: {p}.").format(
                w=_winner(state.winner), t=self.turns, p=posts
            )
        self.console.print()
        self.console.print(Rule(f"[bold green]{line}"))


class YakuzaShow(Show):
    """The yakuza demo's view: votes are public posts there, so no secret vote table."""

    shows_votes = False

    def intro(self, state: GameState, players: int) -> None:
        with i18n.use(self.lang):
            said = _("Demo: Mafia vs Yakuza, 18 players, local board, SQLite")
        self.console.print(said)

    def turn_header(self, turn: int, phase: str, deadline: datetime) -> None:
        self.turns = turn
        self.console.print()
        self.console.print(f"[bold]— {_phase_name(self.lang, phase)} —[/]")

    def finish(self, state: GameState, store: Store, game_id: int) -> None:
        posts = len(store.outbox(game_id))
        with i18n.use(self.lang):
            if state.winner == "draw":
                line = _("Game over: a draw. Phases: {t}. GM posts and PMs: {p}.").format(
                    t=self.turns, p=posts
                )
            else:
                line = _("Game over. Winner: {w}. Phases: {t}. GM posts and PMs: {p}.").format(
                    w=_winner(state.winner), t=self.turns, p=posts
                )
        self.console.print()
        self.console.print(f"[bold green]{escape(line)}[/]")


class MinimafikShow(YakuzaShow):
    """The minimafik demo's view: votes are secret PMs, so the GM's table is shown."""

    shows_votes = True
    other_posts = "post"

    def intro(self, state: GameState, players: int) -> None:
        with i18n.use(self.lang):
            said = _("Demo: Minimafik, 8 characters with card decks, local board, SQLite")
        self.console.print(said)


def _phase_name(lang: str, phase: str) -> str:
    """«day 1» as the demo always printed it in English, «День 1» in Russian (the report's
    words)."""
    if lang == i18n.DEFAULT:
        return phase
    from engine.report.words import phase_label

    return phase_label(lang, phase)


def _bbcode(post: str) -> str:
    """The post for the terminal: bold stays bold, every other tag is shown as written."""
    lines = [line for line in post.splitlines() if "fgm:" not in line]
    return escape("\n".join(lines)).replace("\\[b]", "[b]").replace("\\[/b]", "[/b]")

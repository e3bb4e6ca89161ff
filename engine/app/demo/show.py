"""What the demo shows as the game goes: phase headers, thread talk, vote tables, results."""

from __future__ import annotations

from datetime import datetime

from rich.console import Console
from rich.markup import escape
from rich.panel import Panel
from rich.rule import Rule
from rich.table import Table as RichTable

from engine.core.model import GameState
from engine.core.ruleset import VoteView
from engine.store import Store

_WORDS = {
    "ru": {
        "intro": "Демо: классическая мафия, {n} игроков, локальный форум, SQLite",
        "yakuza_intro": "Демо: Мафия против Якудзы, 18 игроков, локальный форум, SQLite",
        "minimafik_intro": "Демо: Минимафик, 8 персонажей, колоды карт, локальный форум, SQLite",
        "turn": "Ход {n} — дедлайн {deadline}",
        "votes": "Голоса в личке ведущему (видит только ведущий)",
        "voter": "Игрок",
        "target": "Голос",
        "none": "—",
        "results": "Итоги, опубликованные в теме",
        "rating": "Рейтинг по запросу игрока",
        "post": "Пост ведущего в теме",
        "no_lynch": "не судить",
        "warnings": "предупреждений парсера за ход: {n}",
        "winner": "Игра окончена. Победитель: {w}. Ходов: {t}. Сообщений ведущего: {p}.",
        "winner_phases": "Игра окончена. Победитель: {w}. Фаз: {t}. Сообщений ведущего: {p}.",
        "draw": "Игра окончена вничью. Фаз: {t}. Сообщений ведущего: {p}.",
        "mafia": "мафия",
        "town": "мирные",
        "law": "Закон",
        "yakuza": "Якудза",
        "neutral": "нейтралы",
        "maniac": "Маньяк",
        "psycho": "Псих",
    },
    "en": {
        "intro": "Demo: classic mafia, {n} players, local board, SQLite",
        "yakuza_intro": "Demo: Mafia vs Yakuza, 18 players, local board, SQLite",
        "minimafik_intro": "Demo: Minimafik, 8 characters with card decks, local board, SQLite",
        "turn": "Turn {n} — deadline {deadline}",
        "votes": "Votes sent to the GM by PM (only the GM sees them)",
        "voter": "Player",
        "target": "Vote",
        "none": "—",
        "results": "Results posted to the thread",
        "rating": "Vote rating on a player's request",
        "post": "The GM's post in the thread",
        "no_lynch": "no lynch",
        "warnings": "parser warnings this turn: {n}",
        "winner": "Game over. Winner: {w}. Turns: {t}. GM posts and PMs: {p}.",
        "winner_phases": "Game over. Winner: {w}. Phases: {t}. GM posts and PMs: {p}.",
        "draw": "Game over: a draw. Phases: {t}. GM posts and PMs: {p}.",
        "law": "the Law",
        "yakuza": "the Yakuza",
        "neutral": "the Neutrals",
        "maniac": "the Maniac",
        "psycho": "the Psycho",
    },
}


class Show:
    """The classic demo's view: what the thread shows, plus the GM's secret vote table."""

    shows_votes = True
    other_posts = "rating"
    """What the GM's other thread posts are in this demo: vote ratings (classic), or any
    post (a phase's opening, an anonymous message)."""

    def __init__(self, *, quiet: bool, width: int | None, lang: str) -> None:
        self.console = Console(quiet=quiet, width=width, highlight=False, soft_wrap=False)
        self.words = _WORDS.get(lang, _WORDS["en"])
        self.turns = 0

    def intro(self, state: GameState, players: int) -> None:
        self.console.print(Rule(self.words["intro"].format(n=players)))

    def turn_header(self, turn: int, phase: str, deadline: datetime) -> None:
        self.turns = turn
        self.console.print()
        title = self.words["turn"].format(n=turn, deadline=f"{deadline:%d.%m %H:%M}")
        self.console.print(Rule(f"[bold]{title}"))

    def thread_post(self, author: str, text: str) -> None:
        first = text.split("[/quote]")[-1].strip().splitlines()[0] if text.strip() else ""
        self.console.print(f"  [cyan]{escape(author)}[/]: {escape(first)}")

    def rating(self, post: str) -> None:
        title = self.words[self.other_posts]
        self.console.print(Panel(_bbcode(post), title=title, expand=False))

    def votes(self, view: VoteView) -> None:
        self.console.print(f"  [bold]{self.words['votes']}[/]")
        table = RichTable(show_lines=False)
        table.add_column(self.words["voter"])
        table.add_column(self.words["target"])
        for voter, target in view.votes.items():
            shown = self.words["no_lynch"] if target == "no_lynch" else target
            table.add_row(voter, shown or self.words["none"])
        self.console.print(table)

    def results(self, post: str, warnings: int) -> None:
        self.console.print(Panel(_bbcode(post), title=self.words["results"], expand=False))
        self.console.print(f"  [dim]{self.words['warnings'].format(n=warnings)}[/]")

    def finish(self, state: GameState, store: Store, game_id: int) -> None:
        posts = len(store.outbox(game_id))  # the GM's posts and PMs
        winner = self.words.get(str(state.winner), state.winner)
        self.console.print()
        self.console.print(
            Rule(f"[bold green]{self.words['winner'].format(w=winner, t=self.turns, p=posts)}")
        )


class YakuzaShow(Show):
    """The yakuza demo's view: votes are public posts there, so no secret vote table."""

    shows_votes = False

    def intro(self, state: GameState, players: int) -> None:
        self.console.print(self.words["yakuza_intro"])

    def turn_header(self, turn: int, phase: str, deadline: datetime) -> None:
        self.turns = turn
        self.console.print()
        self.console.print(f"[bold]— {phase} —[/]")

    def finish(self, state: GameState, store: Store, game_id: int) -> None:
        posts = len(store.outbox(game_id))
        if state.winner == "draw":
            line = self.words["draw"].format(t=self.turns, p=posts)
        else:
            winner = self.words.get(str(state.winner), str(state.winner))
            line = self.words["winner_phases"].format(w=winner, t=self.turns, p=posts)
        self.console.print()
        self.console.print(f"[bold green]{escape(line)}[/]")


class MinimafikShow(YakuzaShow):
    """The minimafik demo's view: votes are secret PMs, so the GM's table is shown."""

    shows_votes = True
    other_posts = "post"

    def intro(self, state: GameState, players: int) -> None:
        self.console.print(self.words["minimafik_intro"])


def _bbcode(post: str) -> str:
    """The post for the terminal: bold stays bold, every other tag is shown as written."""
    lines = [line for line in post.splitlines() if "fgm:" not in line]
    return escape("\n".join(lines)).replace("\\[b]", "[b]").replace("\\[/b]", "[/b]")

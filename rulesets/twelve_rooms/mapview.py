"""The map as the host sees it: a text grid for the CLI and an SVG picture for the dashboard.

Both show every room's number and current type (and the original type of a room turned
pass-through), its counters, and who is in it with his role; mafia players are marked.
The host's view only: never publish it (it is the game's secret).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from html import escape

from engine.core.model import GameState
from rulesets.twelve_rooms import texts
from rulesets.twelve_rooms.roles import MAFIA
from rulesets.twelve_rooms.rooms import PASS_THROUGH, PISTOL, SAFE
from rulesets.twelve_rooms.state import alive, grid_of, room

_WORDS = {
    "ru": {
        "was": "было",
        "entries": "входов",
        "empty": "пустых ходов",
        "pending": "отложено",
        "mafia": "* — мафия",
        "before": "перед ходом",
        "after": "после хода",
        "map": "Карта",
    },
    "en": {
        "was": "was",
        "entries": "entries",
        "empty": "empty turns",
        "pending": "pending",
        "mafia": "* — mafia",
        "before": "before turn",
        "after": "after turn",
        "map": "Map",
    },
}
_FILL = {
    SAFE: "#d8f0d8",
    "isolated": "#e4e4f4",
    "sticky": "#f4e4c8",
    "inverted": "#f0dcf0",
    "detector": "#dcecf8",
    "cocoa": "#f0e0d0",
    "cameras": "#dcf0f0",
    PISTOL: "#f8d8d8",
    "megaphone": "#f8f0c8",
    "laughter": "#fff4d8",
    "silence": "#e8e8e8",
    PASS_THROUGH: "#ffffff",
}


@dataclass
class Cell:
    """One room as the host sees it."""

    number: int
    kind: str
    original: str
    notes: list[str] = field(default_factory=list)
    occupants: list[str] = field(default_factory=list)


def cells(state: GameState, lang: str = "ru") -> list[list[Cell]]:
    """The rooms row by row, with counters and living occupants (name, role, mafia mark)."""
    words = _WORDS[lang]
    rooms_text = _room_names(lang)
    roles_text = texts.ROLES[lang]
    grid = grid_of(state)
    rows: list[list[Cell]] = []
    for r in range(grid.rows):
        row = []
        for c in range(grid.cols):
            number = grid.room_at(r, c)
            data = room(state, number)
            cell = Cell(number, str(data["type"]), str(data["original_type"]))
            if cell.kind != cell.original:
                cell.notes.append(f"({words['was']}: {rooms_text[cell.original]})")
            if cell.kind == PISTOL:
                cell.notes.append(f"{words['entries']}: {data.get('entries', 0)}")
            if cell.kind != PASS_THROUGH and data.get("empty_turns"):
                cell.notes.append(f"{words['empty']}: {data['empty_turns']}")
            for p in state.players:
                if alive(p) and p.fields["room"] == number:
                    mark = "*" if p.faction == MAFIA else ""
                    line = f"{mark}{p.name} — {roles_text.get(p.role or '', p.role or '?')}"
                    pending = [str(k["cause"]) for k in p.fields.get("pending_kills", [])]
                    if pending:
                        line += f" [{words['pending']}: {', '.join(pending)}]"
                    cell.occupants.append(line)
            row.append(cell)
        rows.append(row)
    return rows


def _title(state: GameState, lang: str) -> str:
    words = _WORDS[lang]
    grid = grid_of(state)
    when = ""
    if state.phase is not None:
        # A finished game keeps its last turn; otherwise the state waits for the next one.
        when = f", {words['after' if state.finished else 'before']} {state.phase.number}"
    return f"{words['map']} {grid.rows}×{grid.cols}{when}"


def _room_names(lang: str) -> dict[str, str]:
    """Room names as map labels: «Безопасная комната», "Safe room" (no article)."""
    names = texts.ROOMS[lang]
    return {
        k: (v.removeprefix("the ")[:1].upper() + v.removeprefix("the ")[1:])
        for k, v in names.items()
    }


def text_map(state: GameState, lang: str = "ru") -> str:
    """A fixed-width grid: each cell lists the room, its notes and who is in it."""
    rows = cells(state, lang)
    rooms_text = _room_names(lang)
    contents = [
        [[f"{c.number}. {rooms_text[c.kind]}", *c.notes, *c.occupants] for c in row] for row in rows
    ]
    cols = len(rows[0]) if rows else 0
    widths = [
        max(len(line) for row in contents for line in row[i]) if contents else 0
        for i in range(cols)
    ]
    rule = "+" + "+".join("-" * (w + 2) for w in widths) + "+"
    out = [_title(state, lang), rule]
    for row in contents:
        height = max(len(cell) for cell in row)
        for k in range(height):
            parts = [
                f" {(cell[k] if k < len(cell) else ''):<{widths[i]}} " for i, cell in enumerate(row)
            ]
            out.append("|" + "|".join(parts) + "|")
        out.append(rule)
    out.append(_WORDS[lang]["mafia"])
    return "\n".join(out)


def _wrapped(text: str, fits: int) -> list[str]:
    """`text` in lines of at most `fits` characters, broken between words (a longer word
    keeps a line of its own)."""
    lines: list[str] = []
    for word in text.split():
        if lines and len(lines[-1]) + 1 + len(word) <= fits:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines or [""]


def svg_map(state: GameState, lang: str = "ru", *, cell_width: int = 230) -> str:
    """The map as a standalone SVG document (plain text, no external resources)."""
    rows = cells(state, lang)
    rooms_text = _room_names(lang)
    line_height, pad = 16, 8
    # SVG text does not wrap: a room's name longer than its cell is cut into lines here (a bold
    # 12 px character is taken as 7.5 px wide, wider than most).
    fits = max(8, int((cell_width - 2 * pad) / 7.5))
    labels = {
        c.number: _wrapped(f"{c.number}. {rooms_text[c.kind]}", fits) for r in rows for c in r
    }
    height = max(
        (len(c.notes) + len(c.occupants) + len(labels[c.number]) + 1) * line_height + 2 * pad
        for r in rows
        for c in r
    )
    top = 30
    width = cell_width * len(rows[0])
    total = top + height * len(rows)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{total}" '
        f'viewBox="0 0 {width} {total}" font-family="sans-serif" font-size="12">',
        f'<text x="{pad}" y="20" font-size="14" font-weight="bold">'
        f"{escape(_title(state, lang))}</text>",
    ]
    for r, row in enumerate(rows):
        for c, cell in enumerate(row):
            x, y = c * cell_width, top + r * height
            fill = _FILL.get(cell.kind, "#ffffff")
            dash = ' stroke-dasharray="6 4"' if cell.kind == PASS_THROUGH else ""
            parts.append(
                f'<rect x="{x}" y="{y}" width="{cell_width}" height="{height}" '
                f'fill="{fill}" stroke="#555555"{dash}/>'
            )
            label = labels[cell.number]
            for k, line in enumerate(label, start=1):
                parts.append(
                    f'<text x="{x + pad}" y="{y + pad + k * line_height}" font-weight="bold">'
                    f"{escape(line)}</text>"
                )
            for k, line in enumerate([*cell.notes, *cell.occupants], start=len(label) + 1):
                colour = "#a00000" if line.startswith("*") else "#000000"
                parts.append(
                    f'<text x="{x + pad}" y="{y + pad + k * line_height}" fill="{colour}">'
                    f"{escape(line)}</text>"
                )
    parts.append("</svg>")
    return "\n".join(parts)

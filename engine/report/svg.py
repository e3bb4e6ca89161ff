"""The report's pictures, drawn as SVG here: no plotting library, no script, a few KB each.

Every name and label a player could have chosen goes through `escape`, so a nickname is
text in the picture whatever it holds. Pictures have a viewBox and scale to the page's width
(the page's CSS sets width 100%), so they read on a phone.
"""

from __future__ import annotations

from collections.abc import Sequence

from markupsafe import Markup, escape

from engine.report.data import PhaseView, PlayerView, VoteSpan

PALETTE = (
    "#1f77b4",
    "#d62728",
    "#2ca02c",
    "#ff7f0e",
    "#9467bd",
    "#8c564b",
    "#e377c2",
    "#17becf",
    "#7f7f7f",
    "#bcbd22",
)
FONT = 'font-family="sans-serif" font-size="12"'


def _n(x: float) -> str:
    return f"{x:.1f}".rstrip("0").rstrip(".")


def _svg(width: float, height: float, body: list[str], label: str) -> Markup:
    head = (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{_n(width)}" height="{_n(height)}" '
        f'viewBox="0 0 {_n(width)} {_n(height)}" role="img" aria-label="{escape(label)}" '
        f"{FONT}>"
    )
    return Markup(head + "".join(body) + "</svg>")


def wagons(
    spans: Sequence[VoteSpan], minutes: float, label: str, unvote: str, no_lynch: str
) -> Markup:
    """The "wagon" chart: a band per candidate, one bar per voter from when they voted until
    they unvoted (✕), switched, or the deadline; the final count at the right."""
    final: dict[str, int] = {}
    first: dict[str, float] = {}
    for s in spans:
        first.setdefault(s.target, s.start)
        if s.ended == "deadline":
            final[s.target] = final.get(s.target, 0) + 1
    targets = sorted(first, key=lambda t: (-final.get(t, 0), first[t], t))
    left, right, lane, pad = 110.0, 40.0, 16.0, 8.0
    plot = 560.0
    width = left + plot + right
    colours = {t: PALETTE[i % len(PALETTE)] for i, t in enumerate(targets)}
    body: list[str] = []
    y = 18.0
    hours = max(1, int(minutes // 60))
    step = 1 if hours <= 12 else (3 if hours <= 36 else 6)
    for h in range(0, hours + 1, step):
        x = left + plot * min(1.0, h * 60 / minutes)
        body.append(f'<line x1="{_n(x)}" y1="12" x2="{_n(x)}" y2="{{BOTTOM}}" stroke="#e3e3e3"/>')
        body.append(
            f'<text x="{_n(x)}" y="10" text-anchor="middle" fill="#777" font-size="10">{h}</text>'
        )
    for target in targets:
        mine = [s for s in spans if s.target == target]
        top = y
        band = pad + lane * len(mine)
        body.append(
            f'<rect x="0" y="{_n(top)}" width="{_n(width)}" height="{_n(band)}" '
            f'fill="{colours[target]}" fill-opacity="0.07"/>'
        )
        body.append(
            f'<text x="4" y="{_n(top + 14)}" font-weight="bold" fill="{colours[target]}">'
            f"{escape(_short(no_lynch if target == 'no_lynch' else target, 14))}</text>"
        )
        body.append(
            f'<text x="{_n(width - 6)}" y="{_n(top + 14)}" text-anchor="end" '
            f'font-weight="bold">{final.get(target, 0)}</text>'
        )
        for k, s in enumerate(mine):
            ly = top + pad / 2 + lane * k
            x1 = left + plot * s.start / minutes
            x2 = max(x1 + 2, left + plot * s.end / minutes)
            solid = s.ended == "deadline"
            body.append(
                f'<rect x="{_n(x1)}" y="{_n(ly + 2)}" width="{_n(x2 - x1)}" height="13" rx="2" '
                f'fill="{colours[target]}" fill-opacity="{"0.9" if solid else "0.35"}">'
                f"<title>{escape(s.voter)} → {escape(s.target)}</title></rect>"
            )
            name = _short(s.voter)
            room = 6.5 * len(name) + 8
            if x2 - x1 >= room:  # inside its bar
                name_x, anchor, ink = x1 + 4, "start", "#fff"
            elif width - x2 >= room + 14:  # after it
                name_x, anchor, ink = x2 + (14 if s.ended == "unvote" else 3), "start", "#222"
            else:  # before it
                name_x, anchor, ink = x1 - 3, "end", "#222"
            body.append(
                f'<text x="{_n(name_x)}" y="{_n(ly + 12)}" text-anchor="{anchor}" '
                f'font-size="11" fill="{ink}">{escape(name)}</text>'
            )
            if s.ended == "unvote":
                body.append(
                    f'<text x="{_n(x2 + 1)}" y="{_n(ly + 12)}" fill="#a00000" font-size="11">'
                    f"✕<title>{escape(unvote)}</title></text>"
                )
        y += band + 4
    height = y + 4
    markup = "".join(body).replace("{BOTTOM}", _n(height))
    return _svg(width, height, [markup], label)


def activity(players: Sequence[PlayerView], phases: Sequence[PhaseView], label: str) -> Markup:
    """Posts per player per phase as a heat map: darker is more."""
    cell, left, top = 26.0, 110.0, 22.0
    most = max((n for p in players for n in p.posts), default=0) or 1
    body = []
    for j, ph in enumerate(phases):
        body.append(
            f'<text x="{_n(left + cell * j + cell / 2)}" y="14" text-anchor="middle" '
            f'font-size="10" fill="#555">{escape(_phase_short(ph))}</text>'
        )
    for i, p in enumerate(players):
        y = top + cell * i
        grey = "" if p.alive else ' fill="#999"'
        body.append(
            f'<text x="{_n(left - 6)}" y="{_n(y + cell * 0.65)}" text-anchor="end"{grey}>'
            f"{escape(_short(p.name))}</text>"
        )
        for j, n in enumerate(p.posts):
            shade = 0.08 + 0.85 * n / most if n else 0.0
            body.append(
                f'<rect x="{_n(left + cell * j + 1)}" y="{_n(y + 1)}" width="{_n(cell - 2)}" '
                f'height="{_n(cell - 2)}" fill="#1f77b4" fill-opacity="{shade:.2f}" '
                f'stroke="#ddd"/>'
            )
            if n:
                ink = "#fff" if shade > 0.5 else "#222"
                body.append(
                    f'<text x="{_n(left + cell * j + cell / 2)}" y="{_n(y + cell * 0.65)}" '
                    f'text-anchor="middle" font-size="10" fill="{ink}">{n}</text>'
                )
    width = left + cell * max(1, len(phases)) + 4
    return _svg(width, top + cell * len(players) + 4, body, label)


def hp_pictures(
    series: dict[str, list[tuple[int, int | None]]], top: int, labels: Sequence[str]
) -> list[tuple[str, Markup]]:
    """Yakuza's HP: one small line chart per player (a cross where they died)."""
    out = []
    width, height, pad = 160.0, 48.0, 4.0
    steps = max(1, max((len(v) for v in series.values()), default=1) - 1)
    for name, points in series.items():
        coords = []
        died_at = None
        for n, hp in points:
            if hp is None:
                died_at = n
                break
            x = pad + (width - 2 * pad) * n / steps
            y = height - pad - (height - 2 * pad) * max(0, hp) / top
            coords.append(f"{_n(x)},{_n(y)}")
        body = [
            f'<rect x="0" y="0" width="{_n(width)}" height="{_n(height)}" fill="#fafafa" '
            f'stroke="#ddd"/>',
            f'<polyline points="{" ".join(coords)}" fill="none" stroke="#d62728" '
            f'stroke-width="2"/>',
        ]
        if died_at is not None:
            x = pad + (width - 2 * pad) * died_at / steps
            body.append(
                f'<text x="{_n(x)}" y="{_n(height / 2 + 4)}" text-anchor="middle" '
                f'fill="#a00000">✕</text>'
            )
        last = next((hp for _, hp in reversed(points) if hp is not None), None)
        caption = f"{name}: {last if died_at is None else '†'}"
        out.append((caption, _svg(width, height, body, caption)))
    return out


def _short(name: str, most: int = 16) -> str:
    return name if len(name) <= most else name[: most - 1] + "…"


def _phase_short(ph: PhaseView) -> str:
    kind, _, number = ph.id.partition(" ")
    return (kind[:1].upper() + number) if number else kind[:3]

"""A game's report: one self-contained HTML page (inline CSS and SVG, no script, no fetch)."""

from __future__ import annotations

from datetime import datetime

import jinja2

from engine.report import svg
from engine.report.data import ReportData, build
from engine.store import Store

_templates = jinja2.Environment(
    loader=jinja2.PackageLoader("engine.report", "templates"),
    autoescape=True,
    undefined=jinja2.StrictUndefined,
    trim_blocks=True,
    lstrip_blocks=True,
)


def render(data: ReportData) -> str:
    """The page for `data`: every text escaped by the template, the pictures by `svg`."""
    w = data.words
    pictures = {
        "activity": svg.activity(data.players, data.phases, w["posts"]),
        "wagons": {
            ph.id: svg.wagons(ph.spans, ph.minutes, w["vote_flow"], w["unvote"], w["no_lynch"])
            for ph in data.phases
            if ph.spans
        },
    }
    return _templates.get_template("report.html.j2").render(r=data, pictures=pictures)


def report_html(
    store: Store, game_id: int, *, public: bool, now: datetime, lang: str | None = None
) -> str:
    return render(build(store, game_id, public=public, now=now, lang=lang))


__all__ = ["ReportData", "build", "render", "report_html"]

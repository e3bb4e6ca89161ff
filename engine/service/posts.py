"""Posts the service makes besides a ruleset's own: the generic templates and the phase opening."""

from __future__ import annotations

from collections.abc import Collection, Sequence

import jinja2

from engine.core.events import Event
from engine.core.model import GameState
from engine.core.ruleset import Ruleset
from engine.publish import Markers, post_draft
from engine.render import Renderer
from engine.store import OutboxDraft
from engine.store.models import PhaseRecord

GENERIC_TEMPLATES = "engine.templates"
"""Where a template is looked up when the ruleset's templates have none of that name."""

OPENING_EVENTS = frozenset({"turn_started"})
"""Public events by which a ruleset's results post already opens the next phase."""


def renderer_for(renderer: Renderer, template: str, *, seats: bool = False) -> Renderer:
    """The ruleset's `renderer` if it has `template`, else one over the generic templates
    (in the same language and time zone, with the ruleset's word tables and the names its
    seats show as). `seats`: the text names seats by their keys, not by who plays them."""
    try:
        renderer.env.get_template(f"{template}.j2")
    except jinja2.TemplateNotFound:
        texts = renderer.templates_package.rpartition(".")[0] + ".texts"
        generic = Renderer(
            GENERIC_TEMPLATES,
            renderer.lang,
            tz=renderer.tz,
            texts=texts,
            genders=renderer.wording.genders,
        )
        generic.shown_as = {} if seats else dict(renderer.shown_as)
        return generic
    return renderer


def phase_opened_draft(
    markers: Markers,
    ruleset: Ruleset,
    renderer: Renderer,
    opened: PhaseRecord,
    previous: Sequence[Event],
    removed: Collection[str] = (),
) -> OutboxDraft | None:
    """The post that opens a phase (its name, deadline, who is in play), unless the previous
    phase's results already did."""
    if any(e.is_public and e.type in OPENING_EVENTS for e in previous):
        return None
    kind, _, number = opened.phase.partition(" ")
    state = _state(opened)
    state_in_play = [n for n in ruleset.in_play(state) if n not in removed]  # by the host
    body = renderer_for(renderer, "phase_opened").render_post(
        "phase_opened",
        **ruleset.render_context(state),
        phase=opened.phase,
        kind=kind,
        number=int(number) if number.isdigit() else None,
        deadline=opened.deadline,
        players=state_in_play,
    )
    return post_draft(body, markers.make(opened.phase, "opened"))


def _state(ph: PhaseRecord) -> GameState:
    return GameState.from_json(ph.state_before)

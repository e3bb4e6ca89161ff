"""The draft's end and the start of each phase: decks formed, rebuilds, hands sent (§5, §8.2, §8.3)."""

from __future__ import annotations

from engine.core.phases import PhaseId
from engine.core.ruleset import Step
from rulesets.minimafik.context import Turn
from rulesets.minimafik.deck import complete_picks, draft_offers, random_mafia_deck, shuffled
from rulesets.minimafik.effects import draw_card
from rulesets.minimafik.help import deck_rules
from rulesets.minimafik.roles import BLANK, DRAFT, LAW, REBUILD_SLOT
from rulesets.minimafik.state import alive, hand, is_mafia, only_blanks, partner_of


def next_phase(phase: PhaseId) -> PhaseId:
    if phase.kind == DRAFT:
        return PhaseId("night", 1)
    if phase.kind == "night":
        return PhaseId("day", phase.number)
    return PhaseId("night", phase.number + 1)


def _new_deck(turn: Turn, name: str) -> list[str] | None:
    """The deck a character's draft or rebuild order builds (completed at random, D-06)."""
    p = turn.p(name)
    order = turn.inputs.orders.get(name, {}).get(REBUILD_SLOT)
    if p.faction == LAW:
        offers = p.fields.get("offers") or []
        picks = list(order.args["picks"]) if order else []
        return complete_picks(turn.rng, offers, picks)
    if order is not None:
        return list(order.args["cards"])
    return None


def d1_complete_decks(turn: Turn) -> None:
    """Missing Law picks are picked at random; a member with no valid deck gets a random one."""
    for p in turn.state.players:
        if not alive(p):
            continue
        deck = _new_deck(turn, p.name)
        if deck is None:
            deck = random_mafia_deck(turn.rng, p.role or "", turn.coll, turn.state.options)
        p.fields["built_deck"] = list(deck)
        p.fields["offers"] = None


def d2_shuffle_and_draw(turn: Turn) -> None:
    """Each deck is shuffled and its top cards drawn into the hand, slot 1 first (§5.3)."""
    size = int(turn.state.options["hand_size"])
    for p in turn.state.players:
        if not alive(p):
            continue
        p.fields["deck"] = shuffled(turn.rng, p.fields["built_deck"])
        p.fields["hand"] = [draw_card(turn, p.name) for _ in range(size)]
        turn.tell(p.name, "cards_drawn", cards=list(p.fields["hand"]), reason="initial")
    turn.announce("decks_built", players=[p.name for p in turn.state.players if alive(p)])
    for event in turn.public + turn.private:
        turn.emit(event)
    turn.public, turn.private = [], []


def s1_rebuild(turn: Turn) -> None:
    """Rebuild orders of the phase just ended: the new deck replaces the old, Blanks are swapped."""
    if turn.kind == DRAFT:
        return
    for name in turn.alive0:
        p = turn.p(name)
        if not alive(p) or REBUILD_SLOT not in turn.inputs.orders.get(name, {}):
            continue
        deck = _new_deck(turn, name) or []
        p.fields["built_deck"] = list(deck)
        p.fields["deck"] = shuffled(turn.rng, deck)
        p.fields["offers"] = None
        cards = hand(p)
        blanks = [k for k, c in enumerate(cards) if c == BLANK]
        if blanks:
            turn.emit_private(
                name, "cards_discarded", cards=[BLANK] * len(blanks), reason="rebuild"
            )
            drawn = []
            for k in blanks:
                cards[k] = draw_card(turn, name)
                drawn.append(cards[k])
            p.fields["hand"] = cards
            turn.emit_private(name, "cards_drawn", cards=drawn, reason="rebuild")


def s2_rebuild_offers(turn: Turn) -> None:
    """Who may rebuild this phase: a hand of Blanks only (Rot aside); Law gets new offers."""
    for p in turn.living():
        if only_blanks(hand(p)):
            p.fields["can_rebuild"] = True
            by = "picks" if p.faction == LAW else "deck"
            extra = {"deck_rules": deck_rules(p, turn.state.options)} if by == "deck" else {}
            turn.emit_private(p.name, "rebuild_available", by=by, **extra)
            if p.faction == LAW:
                if not p.fields.get("offers"):
                    p.fields["offers"] = draft_offers(turn.rng, turn.coll, turn.state.options)
                turn.emit_private(p.name, "draft_offers", kind="rebuild", offers=p.fields["offers"])
        else:
            p.fields["can_rebuild"] = False
            if turn.kind != DRAFT:
                p.fields["offers"] = None


def s3_hands(turn: Turn) -> None:
    """Every living player gets the hand; at night each mafia member sees the partner's hand."""
    coming = next_phase(turn.inputs.phase.id)
    send_hands(turn)
    if coming.kind == "night":
        partner_events(turn, first=coming.number == 1)


def send_hands(turn: Turn) -> None:
    """§3.4: every living player's hand, points and deck size, at the start of a phase."""
    for p in turn.living():
        deck = p.fields.get("deck") or []
        turn.emit_private(
            p.name,
            "hand",
            cards=hand(p),
            points=int(p.fields.get("points", 0)),
            deck_size=len(deck),
        )


def partner_events(turn: Turn, *, first: bool) -> None:
    """§3.4: on night 1 the partner's roles, deck and hand; every night the partner's hand."""
    for p in turn.living():
        if not is_mafia(p):
            continue
        q = partner_of(turn.state, p)
        if q is None or not alive(q):
            continue
        if first:
            turn.emit_private(
                p.name,
                "partner_info",
                partner=q.name,
                role=q.role,
                visible_role=q.fields.get("visible_role"),
                deck=list(q.fields.get("built_deck") or q.fields.get("deck") or []),
                hand=hand(q),
            )
        turn.emit_private(p.name, "partner_hand", partner=q.name, cards=hand(q))


def first_phase_partners(turn: Turn) -> None:
    """A game set up mid-way (scenarios) learns its first night's partner hands here."""
    if not turn.state.data.pop("partners_pending", False) or not turn.night:
        return
    partner_events(turn, first=turn.number == 1)


DRAFT_STEPS: tuple[Step[Turn], ...] = (
    Step("D1 Недостающие выборы", d1_complete_decks, d1_complete_decks.__doc__ or ""),
    Step("D2 Колоды и руки", d2_shuffle_and_draw, d2_shuffle_and_draw.__doc__ or ""),
)
START_STEPS: tuple[Step[Turn], ...] = (
    Step("S1 Пересборка", s1_rebuild, s1_rebuild.__doc__ or ""),
    Step("S2 Право на пересборку", s2_rebuild_offers, s2_rebuild_offers.__doc__ or ""),
    Step("S3 Руки", s3_hands, s3_hands.__doc__ or ""),
)

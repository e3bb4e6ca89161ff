"""What the host sees beside a phase: deck building, who has sent what, and the hands, in the
host's language (the words are texts.HOST; English keeps the ids of roles, actions and cards,
as it always has; Russian names them as the game's posts do)."""

from __future__ import annotations

from collections.abc import Mapping

from engine.core.model import GameState, PlayerState
from engine.core.numbers import plural_en, plural_ru
from engine.core.ruleset import HostTable, PhaseInputs
from rulesets.minimafik.roles import BLANK, CARD_SLOT, DRAFT, LAW, REBUILD_SLOT, ROT
from rulesets.minimafik.state import alive, character, collection, hand, leader
from rulesets.minimafik.texts import ACTIONS, HOST, PICKS, ROLES

ABILITY = "ability:"


def _label(p: PlayerState) -> str:
    """The player as the host knows him, with his character where it has another name."""
    return p.name if character(p) == p.name else f"{p.name} ({character(p)})"


class _Words:
    """The host's words in one language: the table's, and the game's names of its things."""

    def __init__(self, state: GameState, lang: str) -> None:
        self.lang = lang if lang in HOST else "en"
        self.words: Mapping[str, str] = HOST[self.lang]
        self.state = state

    def __getitem__(self, key: str) -> str:
        return self.words[key]

    def role(self, role: str) -> str:
        return role if self.lang == "en" else ROLES[self.lang].get(role, role)

    def action(self, action: str) -> str:
        return action if self.lang == "en" else ACTIONS[self.lang].get(action, action)

    def card(self, card_id: str) -> str:
        """A card by its id in English, by the name the game's collection gives it otherwise."""
        coll = collection(self.state)
        if self.lang == "en" or not coll.knows(card_id):
            return card_id
        return f"«{coll.card(card_id).name}»"

    def slot(self, slot: str) -> str:
        """An order in force by its ledger slot: "armor", "ability:<id>" (its name in Russian)."""
        if self.lang == "en":
            return slot
        if slot.startswith(ABILITY):
            wanted = slot[len(ABILITY) :]
            names = {
                a.id: a.name
                for role in collection(self.state).visible_roles.values()
                for a in role.abilities
            }
            return f"{self.action('use_ability')} «{names.get(wanted, wanted)}»"
        return self.action(slot)

    def picks(self, done: int, total: int) -> str:
        forms = PICKS[self.lang]
        if self.lang == "ru":
            form = plural_ru(done, forms[0], forms[1], forms[2])
        else:
            form = plural_en(done, forms[0], forms[1])
        return form.format(done=done, total=total)


def host_progress(state: GameState, inputs: PhaseInputs, lang: str = "en") -> list[str]:
    """One line per living character: deck building (draft, rebuild) and the orders in force."""
    said = _Words(state, lang)
    lines = []
    draft = inputs.phase.id.kind == DRAFT
    for p in state.players:
        if not alive(p):
            continue
        slots = inputs.orders.get(p.name, {})
        parts = []
        if draft or p.fields.get("can_rebuild"):
            build = slots.get(REBUILD_SLOT)
            what = said["draft" if draft else "rebuild"]
            if p.faction == LAW:
                picks = list(build.args["picks"]) if build else []
                done = sum(1 for x in picks if x is not None)
                total = len(p.fields.get("offers") or [])
                parts.append(f"{what}: {said.picks(done, total)}")
            else:
                parts.append(f"{what}: {said['deck sent' if build else 'deck not sent']}")
        if not draft:
            card = slots.get(CARD_SLOT)
            if card is not None:
                ids = [card.args["card"]] if card.args.get("card") else card.args.get("cards", [])
                separator = "," if said.lang == "en" else ", "
                cards = separator.join(said.card(str(c)) for c in ids)
                parts.append(f"{said.action(str(card.action))} {cards}")
            for slot in sorted(slots):
                if slot not in (CARD_SLOT, REBUILD_SLOT):
                    parts.append(said.slot(slot))
            vote = inputs.votes.get(p.name)
            parts.append(said["vote"].format(target=vote.target) if vote else said["no vote"])
        lines.append(f"{_label(p)}: {'; '.join(parts) or said['nothing yet']}")
    return lines


def hands_table(state: GameState, lang: str = "en") -> HostTable:
    """Each character's hand size (a hand is a life: no cards, or only Rot, and it dies),
    its Rot and Blank cards, the deck and the points, as of the last resolution."""
    said = _Words(state, lang)
    chief = leader(state)
    rows = []
    for p in state.players:
        cards = hand(p)
        notes = [] if alive(p) else [said["dead"]]
        if p.name == chief:
            notes.append(said["Leader"])
        rows.append(
            (
                _label(p),
                said.role(p.role or ""),
                str(len(cards)),
                str(sum(1 for c in cards if c == ROT)),
                str(sum(1 for c in cards if c == BLANK)),
                str(len(p.fields.get("deck") or [])),
                str(p.fields.get("points", 0)),
                ", ".join(notes),
            )
        )
    columns = ("character", "role", "hand", "Rot", "Blank", "deck", "points", "notes")
    return HostTable(said["title"], tuple(said[c] for c in columns), tuple(rows))

"""Substitutes from the reserve: a seat offered by PM to the next player of `[players]
reserve`, who takes it by answering «беру» / "accept" in time.

The offer names the seat's player and the time to answer, and nothing of the role: the
role PM goes only with the handover, which is what `game replace` does. The handover's
PMs and the public word of the substitution are published as the review mode says (the
host approves them unless review is auto). A «нет» / "decline", or no answer in time,
passes the offer to the next in the reserve.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from engine.i18n import L_, said_of
from engine.publish import pm_draft, post_draft
from engine.render import format_dt
from engine.signup import word_key
from engine.store import StoreError
from engine.store.models import SubstituteOffer
from engine.wording import inflect_name

if TYPE_CHECKING:
    from engine.service.driver import GameDriver

log = logging.getLogger("forumgm.substitutes")

ACCEPT = ("беру", "беру место", "согласен", "согласна", "да", "accept", "/accept", "yes")
DECLINE = ("нет", "не беру", "отказываюсь", "decline", "/decline", "no")
DEFAULT_HOURS = 24.0


def answer_of(text: str) -> str | None:
    """ "accept", "decline" or None for a PM's first line of own words."""
    first = next((line for line in text.splitlines() if line.strip()), "")
    said = word_key(first)
    if said in {word_key(w) for w in ACCEPT}:
        return "accept"
    if said in {word_key(w) for w in DECLINE}:
        return "decline"
    return None


def _offer_text(driver: GameDriver, offer: SubstituteOffer) -> tuple[str, str]:
    tz = driver.config.schedule.tz
    title = driver.config.title
    if driver.config.language == "ru":
        until = offer.expires_at.astimezone(tz)
        when = f"{until:%d.%m.%Y %H:%M} ({until.tzname()})"
        game = f" «{title}»" if title else ""
        return "Ведущий: предложение замены", (
            f"[b]{offer.candidate}[/b], в игре{game} освобождается место: игрок "
            f"[b]{offer.leaving}[/b] выходит, и вы первый в резерве.\n"
            f"Если берёте место, ответьте на это сообщение одним словом «беру» до {when}; "
            "«нет» — если не можете, тогда место перейдёт следующему.\n"
            "Роль и всё о месте вы получите, когда согласитесь."
        )
    game = f" “{title}”" if title else ""
    when = format_dt(offer.expires_at, tz, "en")
    return "GM: a seat for you", (
        f"[b]{offer.candidate}[/b], a seat in the game{game} is free: "
        f"[b]{offer.leaving}[/b] is leaving, and you are first in the reserve.\n"
        f"To take it, answer this message with the one word “accept” by {when}; "
        "“decline” if you cannot, and the seat goes to the next in line.\n"
        "The role and everything about the seat come once you accept."
    )


def next_candidate(driver: GameDriver, seat: str) -> str | None:
    """The first of `[players] reserve` who plays in no seat, was never offered this seat,
    and holds no other offer now."""
    slots = driver.slots()
    offers = driver.store.offers(driver.game_id)
    asked = {o.candidate.casefold() for o in offers if o.seat == seat}
    busy = {o.candidate.casefold() for o in offers if o.status in ("offered", "accepted")}
    for name in driver.config.reserve:
        key = name.casefold()
        if slots.slot(name) is None and key not in asked and key not in busy:
            return name
    return None


def offer_seat(
    driver: GameDriver,
    name: str,
    *,
    reason: str,
    now: datetime,
    hours: float = DEFAULT_HOURS,
) -> SubstituteOffer:
    """Offer the seat `name` holds (or held) to the next of the reserve; the open offer if
    one is out already. StoreError when there is no seat or nobody left to ask."""
    slots = driver.slots()
    seat = slots.slot(name)
    if seat is None:
        raise StoreError(
            L_(
                "{name!r} holds no seat in this game (seats: {seats})",
                name=name,
                seats=", ".join(slots.keys),
            )
        )
    open_ = driver.store.offers(driver.game_id, seat=seat, status="offered")
    if open_:
        return open_[0]
    candidate = next_candidate(driver, seat)
    if candidate is None:
        reserve = ", ".join(driver.config.reserve) or L_("empty")
        raise StoreError(
            L_(
                "nobody in the reserve to offer {seat}'s seat to ([players] reserve: {reserve}; "
                "each is asked once): forumgm game replace names a substitute by hand",
                seat=seat,
                seat_gen=_gen(driver, seat),
                reserve=reserve,
            )
        )
    offer = driver.store.offer_seat(
        driver.game_id,
        seat=seat,
        leaving=slots.current(seat),
        candidate=candidate,
        reason=reason,
        at=now,
        expires=now + timedelta(hours=hours),
    )
    subject, body = _offer_text(driver, offer)
    marker = driver.marker("offer", offer.id, candidate)
    ph = driver.store.current_phase(driver.game_id)
    phase = ph.phase if ph is not None else None
    driver.store.enqueue(
        driver.game_id, phase, [pm_draft(candidate, driver._tagged(subject), body, marker)]
    )
    # It says nothing of the role: it goes as soon as the game's start is out.
    driver.store.approve(driver.game_id, phase, markers=[marker])
    driver.say(
        L_(
            "seat {seat} offered to {player} (answer by {at})",
            seat=seat,
            seat_gen=_gen(driver, seat),
            player=candidate,
            player_dat=inflect_name(candidate, "dat", driver.config.genders.get(candidate)),
            at=offer.expires_at.isoformat(),
        )
    )
    return offer


def check_offers(driver: GameDriver, now: datetime) -> list[str]:
    """Take the answers to the open offers (PMs from the candidate since the offer), and
    pass an offer declined or run out to the next of the reserve. What happened."""
    lines: list[str] = []
    for offer in driver.store.offers(driver.game_id, status="offered"):
        verdict, pm_id = _answer(driver, offer, now)
        if verdict == "accept":
            _accept(driver, offer, now, pm_id)
            lines.append(
                L_(
                    "{player} took seat {seat}",
                    player=offer.candidate,
                    seat=offer.seat,
                    seat_gen=_gen(driver, offer.seat),
                )
            )
            continue
        if verdict is None and now < offer.expires_at:
            continue
        status = "declined" if verdict == "decline" else "expired"
        driver.store.answer_offer(offer.id, status, now, pm_id)
        seat_gen = _gen(driver, offer.seat)
        lines.append(
            L_(
                "{player} declined seat {seat}",
                player=offer.candidate,
                seat=offer.seat,
                seat_gen=seat_gen,
            )
            if status == "declined"
            else L_(
                "{player} expired seat {seat}",
                player=offer.candidate,
                seat=offer.seat,
                seat_gen=seat_gen,
            )
        )
        hours = (offer.expires_at - offer.offered_at).total_seconds() / 3600
        try:
            offer_seat(driver, offer.leaving, reason=offer.reason, now=now, hours=hours)
        except StoreError as exc:
            why = said_of(exc)
            log.warning(L_("game {game}: {what}", game=driver.game_id, what=why))
            lines.append(why)
    for line in lines:
        driver.say(line)
    return lines


def _answer(
    driver: GameDriver, offer: SubstituteOffer, now: datetime
) -> tuple[str | None, str | None]:
    until = min(now, offer.expires_at)
    items = [
        i
        for i in driver.store.pms_in(driver.game_id, until, after=offer.offered_at)
        if i.author.casefold() == offer.candidate.casefold()
    ]
    bodies = driver.store.pm_bodies([i.revision for i in items])
    for item in sorted(items, key=lambda i: i.at):
        verdict = answer_of(bodies[item.revision].text())
        if verdict is not None:
            return verdict, item.id
    return None, None


def _gen(driver: GameDriver, seat: str) -> str:
    """A seat's name in the genitive, for the Russian of a line about it («место Оли», not
    «место Оля»); an English line leaves the field unused."""
    return inflect_name(seat, "gen", driver.config.genders.get(seat))


def _accept(driver: GameDriver, offer: SubstituteOffer, now: datetime, pm_id: str | None) -> None:
    """What `game replace` does, and a word in the thread; published as review says."""
    auto = driver.config.review == "auto"
    seat = driver.replace(offer.leaving, offer.candidate, approve=auto)
    driver.store.answer_offer(offer.id, "accepted", now, pm_id)
    if driver.config.language == "ru":
        gender = driver.config.genders.get(offer.leaving)
        leaving = inflect_name(offer.leaving, "gen", gender)
        text = f"Замена: вместо [b]{leaving}[/b] теперь играет [b]{offer.candidate}[/b]."
    else:
        text = (
            f"Substitution: [b]{offer.candidate}[/b] now plays instead of [b]{offer.leaving}[/b]."
        )
    marker = driver.marker("substitution", seat, offer.candidate)
    driver.store.enqueue(driver.game_id, None, [post_draft(text, marker)])
    if auto and driver._start_approved():
        driver.store.approve(driver.game_id, None, markers=[marker])
    from engine.app.game_file import write_replacement

    try:
        write_replacement(driver.config.path, offer.candidate, offer.leaving, now)
    except OSError as exc:
        log.warning(
            L_(
                "game {game}: {path}: cannot write the substitution ({why}): the store has it",
                game=driver.game_id,
                path=driver.config.path,
                why=str(exc),
            )
        )

"""The hosts are told when to look: a PM on the board to each of `[game] hosts`, and an
e-mail where `[notify] smtp` is set — when a phase's results wait for review, when the
deadline they announce passed while they waited, when the game's steps have failed for
longer than `[notify] failed_after` (the board down, the login held), and at once when the
board refuses the GM's sends for hours (a limit such as Discourse's personal messages a day:
the PM to the hosts waits behind it too, the e-mail does not).

Each cause is told at most once per phase: the store keeps what was told (`host_notices`),
so a restarted service tells nothing twice. The PM goes through the outbox like everything
the GM sends (a marker, nothing twice), approved at once: it is for the hosts, not players.
A notice that could not be e-mailed is tried again at the next step (its PM's marker keeps
that from a second PM).
"""

from __future__ import annotations

import logging
import os
import smtplib
import ssl
from collections.abc import Mapping
from datetime import datetime
from email.message import EmailMessage
from urllib.parse import unquote, urlsplit

from engine.i18n import DEFAULT, L_, PhaseWord, Said, _, current, said_of, shown, use
from engine.publish import pm_draft, strip_markers
from engine.service.driver import GameDriver
from engine.service.posts import renderer_for
from engine.service.runner import failure
from engine.store.models import OutboxStatus, PhaseRecord, PhaseStatus

log = logging.getLogger("forumgm.notify")

REVIEW, MISSED, FAILING, LIMITED = "review", "missed", "failing", "limited"
"""The causes a host is told of (one notice per phase and cause)."""


class CauseWord(Said):
    """A notice's cause in a line for the host: its id in English (the log file's, as the
    store keeps it), in words when shown in another language («итоги ждут проверки»)."""

    def in_(self, lang: str | None = None) -> str:
        cause = str.__str__(self)
        lang = current() if lang is None else lang
        if lang == DEFAULT:
            return cause
        with use(lang):
            words = {
                REVIEW: _("results wait for review"),
                MISSED: _("the deadline passed while results waited"),
                FAILING: _("the game's steps keep failing"),
                LIMITED: _("the board limits the GM's sends"),
            }
        return words.get(cause, cause)


class NotifyError(Exception):
    """An e-mail notice could not be sent (the message says why; never the password)."""


def send_email(
    url: str, sender: str, to: tuple[str, ...], subject: str, text: str, *, timeout: float = 30
) -> None:
    """Send one plain-text e-mail through the SMTP server `url` names:
    smtp://[user:password@]host[:port], smtps://… (TLS) or smtp+starttls://…."""
    parts = urlsplit(url)
    if parts.scheme not in ("smtp", "smtps", "smtp+starttls") or not parts.hostname:
        raise NotifyError(
            L_("[notify] smtp: the variable must hold smtp://host:port (or smtps://)")
        )
    message = EmailMessage()
    message["From"], message["To"], message["Subject"] = sender, ", ".join(to), subject
    message.set_content(text)
    port = parts.port or (465 if parts.scheme == "smtps" else 25)
    try:
        if parts.scheme == "smtps":
            context = ssl.create_default_context()
            client: smtplib.SMTP = smtplib.SMTP_SSL(
                parts.hostname, port, timeout=timeout, context=context
            )
        else:
            client = smtplib.SMTP(parts.hostname, port, timeout=timeout)
        with client:
            if parts.scheme == "smtp+starttls":
                client.starttls(context=ssl.create_default_context())
            if parts.username:
                client.login(unquote(parts.username), unquote(parts.password or ""))
            client.send_message(message)
    except (OSError, smtplib.SMTPException) as exc:
        # The URL may hold a password: only the server's address is named.
        raise NotifyError(
            L_(
                "e-mail through {server} failed: {error}",
                server=f"{parts.hostname}:{port}",
                error=type(exc).__name__,
            )
        ) from None


class Notifier:
    """Tells the hosts of one driven game when it needs them; `db` is how `forumgm review`
    names its store in the notice (`--db …`), if not the default."""

    def __init__(
        self, driver: GameDriver, *, db: str | None = None, environ: Mapping[str, str] | None = None
    ) -> None:
        self.driver = driver
        self.db = db
        self.environ = os.environ if environ is None else environ

    @property
    def wanted(self) -> bool:
        c = self.driver.config
        return bool(c.hosts) or c.notify.smtp is not None

    async def after_step(self, status: str, failed: bool, now: datetime) -> None:
        """Look at the game after one step (`status` its answer) and tell what is due; the
        PMs go out at once unless the step failed (then with the next one that works)."""
        if not self.wanted:
            return
        told = self._look(status, failed, now)
        if told and not failed:
            await self.driver.publisher.publish(now)

    def _look(self, status: str, failed: bool, now: datetime) -> bool:
        d, c = self.driver, self.driver.config
        since = d.store.failing_since(d.game_id, now if failed else None)
        ph = d.store.current_phase(d.game_id)
        if ph is None:
            return False
        told = False
        if failed and since is not None and now - since >= c.notify.failed_after:
            minutes = round((now - since).total_seconds() / 60)
            # What failed, in the game's language like the rest of the notice.
            why = shown(failure(status), c.language)
            told |= self._tell(ph, FAILING, now, minutes=minutes, why=why)
        if d.publisher.limit_met is not None:
            # The board refuses the GM's sends for hours (Discourse's personal messages a
            # day): at once, not after failed_after — the steps go on meanwhile.
            told |= self._tell(ph, LIMITED, now, why=shown(d.publisher.limit_met, c.language))
        if ph.status is not PhaseStatus.RESOLVED:
            return told
        if d.deadline_missed(ph, now):
            told |= self._tell(ph, MISSED, now, deadline=ph.next_deadline)
        elif self._waits(ph):
            told |= self._tell(ph, REVIEW, now, warnings=len(d.held_warnings(ph)))
        return told

    def _waits(self, ph: PhaseRecord) -> bool:
        """The phase's results are drafted and wait for the host's approval."""
        item = self.driver.store.find_by_marker(self.driver.marker(ph.phase, "results"))
        return item is not None and item.status is OutboxStatus.DRAFT

    def _tell(self, ph: PhaseRecord, cause: str, now: datetime, **ctx: object) -> bool:
        """Tell the hosts `cause` for `ph` unless they were told; whether PMs were queued."""
        d = self.driver
        if not d.store.notice_once(d.game_id, ph.phase, cause, at=now):
            return False  # told already (this process or one before a restart)
        c = d.config
        db = f" --db {self.db}" if self.db else ""
        title = c.title or c.path
        body = renderer_for(d.renderer, "host_notice").render_post(
            "host_notice",
            cause=cause,
            title=title,
            phase=ph.phase,
            path=c.path,
            db=db,
            dashboard=f"{c.notify.dashboard}/games/{d.game_id}" if c.notify.dashboard else None,
            **ctx,
        )
        subject = d._tagged(
            f"forumgm: {title}: нужен ведущий"
            if c.language == "ru"
            else f"forumgm: {title}: the host is needed"
        )
        drafts = [
            pm_draft(host, subject, body, d.marker("notice", ph.phase, cause, host))
            for host in c.hosts
        ]
        if drafts:
            d._enqueue_new(None, drafts)
            d.store.approve(d.game_id, None, markers=[x.marker for x in drafts])
        log.warning(
            L_(
                "game {game}: {phase}: the hosts are told: {cause}",
                game=d.game_id,
                phase=PhaseWord(ph.phase),
                cause=CauseWord(cause),
            )
        )
        if c.notify.smtp is None:
            return bool(drafts)
        url = self.environ.get(c.notify.smtp.name) if c.notify.smtp.kind == "env" else None
        try:
            if not url:
                raise NotifyError(
                    L_("[notify] smtp: the variable {name} is not set", name=str(c.notify.smtp))
                )
            text = strip_markers(_plain(body))
            send_email(url, c.notify.email_from, c.notify.email_to, subject, text)
        except NotifyError as exc:
            log.error(
                L_(
                    "game {game}: {why}; tried again at the next step",
                    game=d.game_id,
                    why=said_of(exc),
                )
            )
            d.store.forget_notice(d.game_id, ph.phase, cause)
        return bool(drafts)


def _plain(bbcode: str) -> str:
    """The notice's BBCode as the e-mail's plain text."""
    for tag in ("[b]", "[/b]", "[code]", "[/code]"):
        bbcode = bbcode.replace(tag, "")
    return bbcode

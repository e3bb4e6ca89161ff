"""The `Store`: the one repository object the scraper, engine and app talk to."""

from __future__ import annotations

from engine.store.repo.dashboard import DashboardRepo
from engine.store.repo.games import GamesRepo
from engine.store.repo.host import HostRepo
from engine.store.repo.leases import LeasesRepo
from engine.store.repo.outbox import OutboxRepo
from engine.store.repo.parse import ParseRepo
from engine.store.repo.raw import RawRepo
from engine.store.repo.signup import SignupRepo
from engine.store.repo.steer import SteerRepo


class Store(
    GamesRepo,
    RawRepo,
    ParseRepo,
    OutboxRepo,
    LeasesRepo,
    HostRepo,
    DashboardRepo,
    SignupRepo,
    SteerRepo,
):
    """Boards and games, raw posts/PMs with history, parse results, events, the outbox, the
    host's accounts and audit log, and the dashboard's sessions and login throttle, and sign-up threads.

    Each method runs in its own transaction. Rows come back detached: read their columns,
    and go through the store again for anything related.
    """

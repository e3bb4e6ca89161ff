"""The store's tables, all on one `Base.metadata` that the migrations follow."""

from engine.store.models.base import Base, UTCDateTime, utcnow
from engine.store.models.dashboard import DashboardSession, LoginThrottle
from engine.store.models.game import (
    Board,
    Game,
    GameLease,
    GameStatus,
    PhaseRecord,
    PhaseStatus,
    Player,
)
from engine.store.models.host import HostAccount, HostAction, HostMeasure, HostNotice, Setting
from engine.store.models.raw import (
    OutsiderMessage,
    RawPM,
    RawPMRevision,
    RawPost,
    RawPostRevision,
)
from engine.store.models.results import (
    EventRow,
    HostOverride,
    OrderStatus,
    OutboxItem,
    OutboxKind,
    OutboxStatus,
    OverrideTarget,
    ParseCacheRow,
    ParsedOrderRow,
    ParseWarningRow,
)
from engine.store.models.signup import (
    Signup,
    SignupDecision,
    SignupEntry,
    SignupMessage,
    SignupPost,
    SubstituteOffer,
)

__all__ = [
    "Base",
    "Board",
    "DashboardSession",
    "EventRow",
    "Game",
    "GameLease",
    "GameStatus",
    "HostAccount",
    "HostAction",
    "HostMeasure",
    "HostNotice",
    "HostOverride",
    "LoginThrottle",
    "OrderStatus",
    "OutboxItem",
    "OutboxKind",
    "OutboxStatus",
    "OutsiderMessage",
    "OverrideTarget",
    "ParseCacheRow",
    "ParseWarningRow",
    "ParsedOrderRow",
    "PhaseRecord",
    "PhaseStatus",
    "Player",
    "RawPM",
    "RawPMRevision",
    "RawPost",
    "RawPostRevision",
    "Setting",
    "Signup",
    "SignupDecision",
    "SignupEntry",
    "SignupMessage",
    "SignupPost",
    "SubstituteOffer",
    "UTCDateTime",
    "utcnow",
]

"""Boards, games, players, the game state and the phase lifecycle."""

from __future__ import annotations

import secrets
from collections.abc import Iterable, Mapping
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from engine.core import GameState, Phase, PhaseId
from engine.store.models import Board, Game, GameStatus, PhaseRecord, PhaseStatus, Player, utcnow
from engine.store.repo.base import (
    InvalidTransition,
    NotFound,
    RepoBase,
    StoreError,
    aware,
    get_game_row,
    get_phase_row,
)


def apply_state(
    session: Session, game: Game, state: GameState, in_play: Iterable[str] | None
) -> None:
    """Store the state on the game and mirror alive/in play onto the player rows.

    A state that has a winner does not finish the game: its last results are still to be
    published (perhaps after the host's review), and the service drives a game until it is
    `FINISHED` — which the driver sets once those results are on the board."""
    game.state = state.to_json()
    playing = set(in_play) if in_play is not None else None
    rows = session.scalars(select(Player).where(Player.game_id == game.id))
    by_name = {p.name: p for p in rows}
    for ps in state.players:
        row = by_name.get(ps.name)
        if row is None:
            continue
        row.role, row.faction = ps.role, ps.faction
        row.alive = bool(ps.fields.get("alive", True))
        row.in_play = ps.name in playing if playing is not None else row.alive


class GamesRepo(RepoBase):
    def create_board(
        self, engine: str, base_url: str, gm_user: str, credentials_ref: str | None = None
    ) -> Board:
        with self._sessions.begin() as s:
            board = Board(
                engine=engine, base_url=base_url, gm_user=gm_user, credentials_ref=credentials_ref
            )
            s.add(board)
        return board

    def get_board(self, board_id: int) -> Board:
        with self._sessions() as s:
            return self._board_row(s, board_id)

    def login_tried(self, board_id: int, at: datetime) -> None:
        """The service is about to log in to the board on its own."""
        with self._sessions.begin() as s:
            self._board_row(s, board_id).login_tried_at = at

    def login_refused(self, board_id: int, at: datetime, error: str, refused_hash: str) -> None:
        """The board refused the login: no more logins on its own until the host acts.
        `refused_hash` is a salted hash of the refused password (never the password)."""
        with self._sessions.begin() as s:
            row = self._board_row(s, board_id)
            row.login_failed_at, row.login_error = at, error
            row.login_refused_hash = refused_hash

    def login_went_wrong(self, board_id: int, error: str) -> None:
        """A login neither went through nor was refused (the board down…): tried again later."""
        with self._sessions.begin() as s:
            self._board_row(s, board_id).login_error = error

    def login_cleared(self, board_id: int) -> None:
        """A login went through: whatever was refused before no longer holds."""
        with self._sessions.begin() as s:
            row = self._board_row(s, board_id)
            row.login_failed_at = row.login_error = row.login_refused_hash = None

    def limit_sends(self, board_id: int, kind: str, until: datetime, why: str) -> None:
        """The board refuses the account's sends of `kind` ("pm", "post") until `until`
        (`why`: its line): kept here, every process and every `run --once` waits for it."""
        with self._sessions.begin() as s:
            row = self._board_row(s, board_id)
            limits = dict(row.send_limits or {})
            limits[kind] = {"until": until.isoformat(), "why": why}
            row.send_limits = limits

    def lift_send_limit(self, board_id: int, kind: str) -> None:
        """A send of `kind` went through: the limit is over."""
        with self._sessions.begin() as s:
            row = self._board_row(s, board_id)
            if row.send_limits and kind in row.send_limits:
                row.send_limits = {k: v for k, v in row.send_limits.items() if k != kind} or None

    def send_limits(self, board_id: int) -> dict[str, tuple[datetime, str]]:
        """Kind → (when the limit lifts, the board's line), as `limit_sends` kept them (one
        past its time too: it is lifted once a send of its kind goes through)."""
        with self._sessions() as s:
            kept = self._board_row(s, board_id).send_limits or {}
        limits = {}
        for kind, limit in kept.items():
            try:
                until = aware(datetime.fromisoformat(limit["until"]))
            except (KeyError, TypeError, ValueError):
                continue  # not one this code wrote: no limit, a send tries
            limits[kind] = (until, str(limit.get("why", "")))
        return limits

    @staticmethod
    def _board_row(s: Session, board_id: int) -> Board:
        row = s.get(Board, board_id)
        if row is None:
            raise NotFound(f"no board with id {board_id}")
        return row

    def boards(self) -> list[Board]:
        with self._sessions() as s:
            return list(s.scalars(select(Board).order_by(Board.id)))

    def find_board(self, base_url: str, gm_user: str) -> Board | None:
        with self._sessions() as s:
            query = select(Board).where(Board.base_url == base_url, Board.gm_user == gm_user)
            return s.scalars(query).first()

    def games(self, status: GameStatus | None = None) -> list[Game]:
        with self._sessions() as s:
            query = select(Game).order_by(Game.id)
            if status is not None:
                query = query.where(Game.status == status)
            return list(s.scalars(query))

    def create_game(
        self,
        board_id: int,
        thread_id: str,
        ruleset: str,
        *,
        seed: int,
        options: Mapping[str, Any] | None = None,
        title: str = "",
        thread_url: str | None = None,
        language: str = "ru",
        time_zone: str = "Europe/Moscow",
    ) -> Game:
        with self._sessions.begin() as s:
            game = Game(
                board_id=board_id,
                thread_id=thread_id,
                ruleset=ruleset,
                seed=seed,
                options=dict(options or {}),
                title=title,
                thread_url=thread_url,
                language=language,
                time_zone=time_zone,
                status=GameStatus.SETUP,
                marker_key=secrets.token_hex(32),
            )
            s.add(game)
        return game

    def get_game(self, game_id: int) -> Game:
        with self._sessions() as s:
            return get_game_row(s, game_id)

    def find_game(self, board_id: int, thread_id: str) -> Game | None:
        with self._sessions() as s:
            return s.scalar(
                select(Game).where(Game.board_id == board_id, Game.thread_id == thread_id)
            )

    def set_game_names(
        self, game_id: int, *, title: str, tag: str | None, accounts: Iterable[str]
    ) -> None:
        """What PMs are routed to the game by: its title, its tag, who plays or may play."""
        with self._sessions.begin() as s:
            game = get_game_row(s, game_id)
            game.title, game.tag, game.accounts = title, tag, sorted(set(accounts))

    def board_games(self, board_id: int, *, finished: bool = False) -> list[tuple[Game, list[str]]]:
        """The running games on one board (one GM account), each with every name that ever
        held a seat in it (substitutes and those they replaced): two queries. With
        `finished`, the games that ended on it too (their players' PMs stay theirs)."""
        wanted = [GameStatus.RUNNING, GameStatus.FINISHED] if finished else [GameStatus.RUNNING]
        with self._sessions() as s:
            games = list(
                s.scalars(
                    select(Game)
                    .where(Game.board_id == board_id, Game.status.in_(wanted))
                    .order_by(Game.id)
                )
            )
            names: dict[int, list[str]] = {g.id: [] for g in games}
            if games:
                query = select(Player.game_id, Player.name).where(Player.game_id.in_(names))
                for game_id, name in s.execute(query):
                    names[game_id].append(name)
        return [(g, names[g.id]) for g in games]

    def set_game_status(self, game_id: int, status: GameStatus) -> None:
        with self._sessions.begin() as s:
            get_game_row(s, game_id).status = status

    def save_state(
        self, game_id: int, state: GameState, *, in_play: Iterable[str] | None = None
    ) -> None:
        """Store `state` as the game's current state; `in_play` is the ruleset's view of it."""
        with self._sessions.begin() as s:
            apply_state(s, get_game_row(s, game_id), state, in_play)

    def load_state(self, game_id: int) -> GameState | None:
        with self._sessions() as s:
            raw = get_game_row(s, game_id).state
        return GameState.from_json(raw) if raw is not None else None

    def add_players(
        self, game_id: int, seats: Iterable[tuple[str, str | None, str | None]]
    ) -> None:
        """Seat the players of a new game, in order from seat 1: (name, role, faction) each,
        in one transaction."""
        with self._sessions.begin() as s:
            get_game_row(s, game_id)
            s.add_all(
                Player(game_id=game_id, seat=seat, name=name, role=role, faction=faction)
                for seat, (name, role, faction) in enumerate(seats, start=1)
            )

    def add_player(
        self,
        game_id: int,
        name: str,
        *,
        seat: int | None = None,
        board_user_id: str | None = None,
        role: str | None = None,
        faction: str | None = None,
    ) -> Player:
        """Seat a player; without `seat`, the next seat after the last one."""
        with self._sessions.begin() as s:
            get_game_row(s, game_id)
            if seat is None:
                last = s.scalar(select(func.max(Player.seat)).where(Player.game_id == game_id))
                seat = (last or 0) + 1
            player = Player(
                game_id=game_id,
                seat=seat,
                name=name,
                board_user_id=board_user_id,
                role=role,
                faction=faction,
            )
            s.add(player)
        return player

    def players(self, game_id: int, *, include_replaced: bool = False) -> list[Player]:
        """The players in seating order; substituted-out players only when asked."""
        query = select(Player).where(Player.game_id == game_id)
        if not include_replaced:
            query = query.where(Player.replaced_by.is_(None))
        with self._sessions() as s:
            return list(s.scalars(query.order_by(Player.seat, Player.id)))

    def replace_player(
        self,
        game_id: int,
        name: str,
        substitute: str,
        *,
        at: datetime | None = None,
        board_user_id: str | None = None,
    ) -> Player:
        """A substitute takes over the seat `name` holds or held (the chain grows at its end),
        with its role and flags, from `at` on."""
        with self._sessions.begin() as s:
            rows = list(s.scalars(select(Player).where(Player.game_id == game_id)))
            by_name = {r.name: r for r in rows}
            by_id = {r.id: r for r in rows}
            old = by_name.get(name)
            if old is None:
                raise NotFound(f"game {game_id} has no player {name!r}")
            if substitute in by_name:
                raise StoreError(f"{substitute!r} already plays in this game")
            while old.replaced_by is not None:  # the seat's current holder
                old = by_id[old.replaced_by]
            new = Player(
                game_id=game_id,
                seat=old.seat,
                name=substitute,
                board_user_id=board_user_id,
                role=old.role,
                faction=old.faction,
                alive=old.alive,
                in_play=old.in_play,
                since=at or utcnow(),
            )
            s.add(new)
            s.flush()
            old.replaced_by = new.id
        return new

    def open_phase(
        self,
        game_id: int,
        phase: Phase,
        state: GameState,
        *,
        read_from: Mapping[str, Any] | None = None,
    ) -> PhaseRecord:
        """Start taking commands for `phase`; `state` is the state it starts from, and
        `read_from` the board cursors its deadline re-read starts at (None: the start)."""
        with self._sessions.begin() as s:
            get_game_row(s, game_id).status = GameStatus.RUNNING
            row = PhaseRecord(
                game_id=game_id,
                phase=str(phase.id),
                opened_at=phase.opened_at,
                deadline=phase.deadline,
                status=PhaseStatus.OPEN,
                state_before=state.to_json(),
                read_from=dict(read_from) if read_from is not None else None,
            )
            s.add(row)
        return row

    def set_next_deadline(self, game_id: int, phase: PhaseId | str, deadline: datetime) -> None:
        """The deadline the phase's results announce for the next phase (and it will get)."""
        with self._sessions.begin() as s:
            get_phase_row(s, game_id, phase).next_deadline = deadline

    def shift_schedule(self, game_id: int, by: timedelta) -> int:
        """Every deadline of the game's schedule from now on moves by `by` more; the total
        shift in seconds."""
        with self._sessions.begin() as s:
            game = get_game_row(s, game_id)
            game.deadline_shift = int(game.deadline_shift or 0) + int(by.total_seconds())
            return game.deadline_shift

    def get_phase(self, game_id: int, phase: PhaseId | str) -> PhaseRecord:
        with self._sessions() as s:
            return get_phase_row(s, game_id, phase)

    def phases(self, game_id: int) -> list[PhaseRecord]:
        with self._sessions() as s:
            query = select(PhaseRecord).where(PhaseRecord.game_id == game_id)
            return list(s.scalars(query.order_by(PhaseRecord.opened_at, PhaseRecord.id)))

    def current_phase(self, game_id: int) -> PhaseRecord | None:
        """The latest phase: one row (the others' states stay unread)."""
        query = (
            select(PhaseRecord)
            .where(PhaseRecord.game_id == game_id)
            .order_by(PhaseRecord.opened_at.desc(), PhaseRecord.id.desc())
            .limit(1)
        )
        with self._sessions() as s:
            return s.scalar(query)

    def phase_before(self, game_id: int, ph: PhaseRecord) -> str | None:
        """The name of the phase opened just before `ph` (None: `ph` is the first)."""
        query = (
            select(PhaseRecord.phase)
            .where(PhaseRecord.game_id == game_id, PhaseRecord.id != ph.id)
            .where(PhaseRecord.opened_at <= ph.opened_at)
            .order_by(PhaseRecord.opened_at.desc(), PhaseRecord.id.desc())
            .limit(1)
        )
        with self._sessions() as s:
            return s.scalar(query)

    def previous_deadline(self, game_id: int, before: datetime) -> datetime | None:
        """The latest deadline of the game's phases that ended before `before`."""
        query = select(func.max(PhaseRecord.deadline)).where(
            PhaseRecord.game_id == game_id, PhaseRecord.deadline < before
        )
        with self._sessions() as s:
            found = s.scalar(query)
        return aware(found) if found is not None else None

    def freeze_phase(
        self, game_id: int, phase: PhaseId | str, *, at: datetime | None = None
    ) -> PhaseRecord:
        """The deadline passed: no more commands are taken for the phase."""
        with self._sessions.begin() as s:
            row = get_phase_row(s, game_id, phase)
            if row.status is not PhaseStatus.OPEN:
                raise InvalidTransition(f"phase {row.phase} is {row.status}, not open")
            row.status = PhaseStatus.FROZEN
            row.frozen_at = at or utcnow()
        return row

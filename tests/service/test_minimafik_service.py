"""A minimafik game as a host runs it: a game file, the local board, the CLI, a chosen clock.

The draft and night 1 go through `GameDriver` by the host's commands: deck picks and orders
by PM, receipts, `review` with the draft's progress and a held warning, approval, the freeze
and resolution at each deadline, and what players then see on the board (the thread, and
the hand in every player's PMs).
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

from typer.testing import CliRunner

from engine.app.cli import app
from engine.store import open_store
from forums.local import LocalBoard
from forums.records import PrivateMessage
from tests.service.helpers import game_toml, local_board

SEATS = {
    "Destiny": "Grillby",
    "Cornix": "Ворон",
    "Alu": "Mr. Fiks",
    "VanSLis": "Труп",
    "Nekr0": "Выживший",
    "Ингероид": "Бадди",
}
ROLES = {"Alu": "killer", "VanSLis": "boss"}
LAW = [n for n in SEATS if n not in ROLES]
MSK = ZoneInfo("Europe/Moscow")
DRAFT_AT = datetime(2026, 12, 2, 11, 0, tzinfo=MSK)
NIGHT_AT = datetime(2026, 12, 3, 9, 0, tzinfo=MSK)
KILLER_DECK = "колода: Удар x2, Засада x2, Яд x2, Потасовка, Щит x2, Телохранитель, Заначка, Подзорная труба, Монетка"
BOSS_DECK = "колода: Заначка x2, Снабжение x2, Перевязка, Подкуп, Подзорная труба x2, Подглядывание, Записка, Удар, Щит, Дымовая завеса"


def _setup(tmp_path: Path, options: str = "") -> tuple[Path, str, LocalBoard, str]:
    url = f"sqlite:///{tmp_path / 'board.sqlite'}"
    board, thread = local_board(url, list(SEATS), title="Минимафик")
    text = game_toml(
        url=url,
        thread=thread,
        players=list(SEATS),
        ruleset="minimafik",
        review="warnings",
        password="env:TEST_GM_PASSWORD",
        start="2026-12-01 19:00",
        deadlines="every day 19:00",
        roles=ROLES,
    )
    characters = "".join(f'"{nick}" = "{name}"\n' for nick, name in SEATS.items())
    text += f"[options]\n{options}[options.characters]\n{characters}"
    path = tmp_path / "game.toml"
    path.write_text(text, encoding="utf-8")
    return path, f"sqlite:///{tmp_path / 'store.sqlite'}", board, thread


def _inbox(board: LocalBoard, name: str) -> list[PrivateMessage]:
    user = board.user(name)
    assert user is not None
    return board.pms_after(user, "inbox", 0)


def test_the_draft_and_a_night_through_the_service(tmp_path: Path) -> None:
    path, db, board, thread = _setup(tmp_path)
    runner = CliRunner(env={"TEST_GM_PASSWORD": "gm-secret", "COLUMNS": "200"})

    def forumgm(now: str, *args: str) -> str:
        result = runner.invoke(app, [*args, "--db", db], env={"FORUMGM_NOW": now})
        assert result.exit_code == 0, result.output
        return result.output

    checked = runner.invoke(
        app, ["game", "validate", str(path)], env={"FORUMGM_NOW": "2026-12-01T18:00+03:00"}
    )
    assert checked.exit_code == 0 and "minimafik, 6 players" in checked.output, checked.output
    forumgm("2026-12-01T18:00+03:00", "game", "start", str(path))
    forumgm("2026-12-01T18:00+03:00", "review", str(path), "--approve")
    out = forumgm("2026-12-01T19:05+03:00", "run", str(path), "--once")
    assert "draft: open until" in out
    opening = board.posts_after(thread, 0)
    assert len(opening) == 1
    assert "Минимафик: игра начинается" in opening[0].body.full_text()
    assert "Cornix — Ворон" in opening[0].body.full_text()
    offers = _inbox(board, "Cornix")[-1].body.full_text()
    assert "Ваша тайная роль: Мирный житель" in offers and "1. а) «" in offers

    # Deck building by PM; one line the parser cannot read holds the results for the host.
    for nick in LAW:
        board.pm_as(
            nick, ["Ведущий"], "колода", "выбор: 1а 2б 3а 4б 5а 6б 7а 8б 9а 10б", at=DRAFT_AT
        )
    board.pm_as("Alu", ["Ведущий"], "колода", KILLER_DECK, at=DRAFT_AT)
    board.pm_as("VanSLis", ["Ведущий"], "колода", "колода: Удар x5", at=DRAFT_AT)
    out = forumgm("2026-12-02T12:00+03:00", "run", str(path), "--once")
    assert "draft: open until" in out
    receipt = _inbox(board, "Cornix")[-1].body.full_text()
    assert "Выбор принят: 10 из 10" in receipt
    rejected = _inbox(board, "VanSLis")[-1].body.full_text()
    assert "не принят" in rejected and "больше двух копий" in rejected
    review = forumgm("2026-12-02T12:01+03:00", "review", str(path))
    assert "Cornix (Ворон): draft: 10/10 picks" in review
    assert "VanSLis (Труп): draft: deck not sent yet" in review
    assert "too_many_copies" in review
    board.pm_as("VanSLis", ["Ведущий"], "колода", BOSS_DECK, at=DRAFT_AT + timedelta(hours=1))
    forumgm("2026-12-02T13:00+03:00", "run", str(path), "--once")
    review = forumgm("2026-12-02T13:01+03:00", "review", str(path))
    assert "VanSLis (Труп): draft: deck sent" in review

    # The draft's deadline: the results wait for the host (a rejected order is a warning).
    out = forumgm("2026-12-02T19:01+03:00", "run", str(path), "--once")
    assert "wait for the host" in out
    forumgm("2026-12-02T19:02+03:00", "review", str(path), "--approve")
    out = forumgm("2026-12-02T19:03+03:00", "run", str(path), "--once")
    assert "night 1: open until" in out
    posts = [p.body.full_text() for p in board.posts_after(thread, 0)]
    assert any("Сбор колод завершён" in p for p in posts)
    hand = _inbox(board, "Cornix")[-1].body.full_text()
    assert "Ваша рука, сверху вниз:" in hand and "Карт в колоде: 5." in hand
    partner = _inbox(board, "Alu")[-1].body.full_text()
    assert "Ваш напарник — Труп" in partner and "Рука напарника" in partner

    # Night 1: orders by PM, by character name or nickname.
    store = open_store(db)
    state = store.load_state(1)
    assert state is not None
    board.pm_as("Alu", ["Ведущий"], "ночь", "мафия: Ворона\nлидер: Бадди", at=NIGHT_AT)
    board.pm_as("VanSLis", ["Ведущий"], "ночь", "убить Cornix", at=NIGHT_AT)
    board.pm_as("Cornix", ["Ведущий"], "ночь", "сброс 1\nлидер: Бадди", at=NIGHT_AT)
    board.pm_as("Nekr0", ["Ведущий"], "ночь", "броня Ворону\nлидер: Ингероид", at=NIGHT_AT)
    board.pm_as("Destiny", ["Ведущий"], "ночь", "голосую в лидеры за Выжившего", at=NIGHT_AT)
    out = forumgm("2026-12-03T10:00+03:00", "run", str(path), "--once")
    assert "night 1: open until" in out
    assert "Принято: броня для" in _inbox(board, "Nekr0")[-1].body.full_text()
    out = forumgm("2026-12-03T19:01+03:00", "run", str(path), "--once")
    assert "day 1: open until" in out
    results = board.posts_after(thread, 0)[-2].body.full_text()  # then the day's opening post
    assert "Итоги ночи 1" in results
    assert "Новый Лидер — Бадди" in results
    assert "Карт в руке: Grillby — 5, Ворон — " in results
    assert _inbox(board, "Cornix")[-1].subject == "Итоги ночи 1"
    night = _inbox(board, "Cornix")[-1].body.full_text()
    assert "Сброшена на замену: «Щит»" in night and "Вы получаете 3 урона" in night
    assert "броня — 1" in night and "Ваша рука, сверху вниз:" in night
    assert "Мафия выбрала цель: Ворон, урон 3." in _inbox(board, "Alu")[-1].body.full_text()
    assert "Наступает день 1." in board.posts_after(thread, 0)[-1].body.full_text()
    # Nothing secret in the thread: no card, no role, no vote count of the election.
    thread_text = "\n".join(p.body.full_text() for p in board.posts_after(thread, 0))
    for secret in ("Удар", "Киллер", "Босс", "Мирный житель", "мафия:"):
        assert secret not in thread_text


def test_a_game_on_the_hosts_own_card_collection(tmp_path: Path) -> None:
    """`[options] collection` names the host's file beside the game file: the draft offers
    its cards, and the started game keeps them when the file changes later."""
    sample = (
        Path(__file__).resolve().parents[2] / "rulesets" / "minimafik" / "sample_collection.yaml"
    )
    own = re.sub(r"name: ([^,]+),", r"name: \1 Плюс,", sample.read_text(encoding="utf-8"))
    (tmp_path / "cards.yaml").write_text(own, encoding="utf-8")
    path, db, board, _ = _setup(tmp_path, 'collection = "cards.yaml"\n')
    runner = CliRunner(env={"TEST_GM_PASSWORD": "gm-secret"})

    def forumgm(now: str, *args: str) -> str:
        result = runner.invoke(app, [*args, "--db", db], env={"FORUMGM_NOW": now})
        assert result.exit_code == 0, result.output
        return result.output

    forumgm("2026-12-01T18:00+03:00", "game", "start", str(path))
    (tmp_path / "cards.yaml").write_text(sample.read_text(encoding="utf-8"), encoding="utf-8")
    forumgm("2026-12-01T18:00+03:00", "review", str(path), "--approve")
    forumgm("2026-12-01T19:05+03:00", "run", str(path), "--once")
    offers = _inbox(board, "Cornix")[-1].body.full_text()
    pairs = re.findall(r"[аб]\) «([^»]+)»", offers)
    assert len(pairs) == 20 and all(name.endswith(" Плюс") for name in pairs), offers
    board.pm_as("Cornix", ["Ведущий"], "колода", f"беру: {pairs[1]}", at=DRAFT_AT)
    forumgm("2026-12-02T12:00+03:00", "run", str(path), "--once")
    assert "Выбор принят: 1 из 10" in _inbox(board, "Cornix")[-1].body.full_text()

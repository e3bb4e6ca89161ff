"""The rulesets' own parse warnings in the host's language: each ruleset's table of messages
is made of `N_()` templates, the warnings catalogue has the Russian of each, and a game's
review on the dashboard shows a ruleset's warning in Russian with `--lang ru` and in English
with `--lang en` (the warning is stored in English either way)."""

from __future__ import annotations

import html
import re
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po

from engine import i18n
from engine.app.game_file import load_game
from engine.app.review import Review
from rulesets.classic import intake as classic
from rulesets.minimafik import messages as minimafik
from rulesets.twelve_rooms import codes as twelve_rooms
from rulesets.votecount import intake as votecount
from rulesets.yakuza import intake as yakuza
from tests.app.dashboard_client import client, log_in, make_dashboard, set_password
from tests.app.review_game import ReviewGame
from tests.service.helpers import local_board

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "docs" / "examples"
BEFORE = "2027-01-10T12:00+03:00"
TABLES = {
    "classic": classic._MESSAGES,
    "votecount": votecount._MESSAGES,
    "yakuza": yakuza._MESSAGES,
    "twelve-rooms": twelve_rooms.MESSAGES,
    "minimafik": minimafik.MESSAGES,
}
"""Each ruleset's messages by warning code."""


def _catalogue(counted: bool = False) -> dict[str, str]:
    """The warnings catalogue's templates and their Russian; with `counted`, a counted
    template (`Nn_`) too, by its English singular (all its forms filled in)."""
    path = i18n.LOCALE_DIR / "ru" / "LC_MESSAGES" / "warnings.po"
    with path.open("rb") as f:
        found = {}
        for m in read_po(f, locale="ru"):
            if m.id and isinstance(m.id, str):
                found[str(m.id)] = str(m.string)
            elif m.id and counted:
                found[str(m.id[0])] = "" if not all(m.string) else str(m.string[0])
        return found


def _marked_in_rulesets() -> set[str]:
    keywords = {"N_": None, "Nn_": (1, 2)}
    found = extract_from_dir(ROOT, [("rulesets/**.py", "python")], keywords=keywords)
    return {
        m[2] if isinstance(m[2], str) else m[2][0] for m in found if m[0].startswith("rulesets")
    }


def test_every_warning_template_of_the_rulesets_has_its_russian() -> None:
    marked, russian = _marked_in_rulesets(), _catalogue(counted=True)
    every_table = {text for table in TABLES.values() for text in table.values()}
    assert every_table <= marked, "a ruleset's message not marked N_()"
    proxy = "the member's own order replaces what a faction-mate ordered for him"
    assert proxy in marked  # yakuza's one message made outside its table
    lacking = sorted(t for t in marked if not russian.get(t))
    assert lacking == [], "warnings.po lacks these (engine/locale/README.md)"


@pytest.mark.parametrize("ruleset", sorted(TABLES))
def test_each_ruleset_message_is_shown_as_its_own_russian(ruleset: str) -> None:
    """The matcher gives every stored message its own entry: a short text is never taken for
    a longer one's field, nor a longer one for a shorter one."""
    russian = _catalogue()
    for code, text in TABLES[ruleset].items():
        assert i18n.warning_text(text, "ru") == russian[text], (code, text)
        assert i18n.warning_text(text, "en") == text
        assert re.search("[а-яё]", russian[text], re.I), (code, russian[text])


def test_every_template_of_the_catalogue_comes_back_as_its_own_translation() -> None:
    field = re.compile(r"\{(\w+)\}")
    for template, translated in _catalogue().items():
        values = {name: f"<{name} 1>" for name in field.findall(template)}
        if "action" in values:
            values["action"] = "vote"
        if "said" in values:  # another marked text inside: it is said in Russian too
            values["said"] = "the ability is spent"
        if not values:  # a whole message, braces and all ("expected a mapping {role: count}")
            assert i18n.warning_text(template, "ru") == translated, template
            continue
        expected = translated.format(
            **{**values, "action": "голос", "said": "способность израсходована"}
        )
        assert i18n.warning_text(template.format(**values), "ru") == expected, template


def test_only_an_action_field_is_read_as_a_word_of_the_catalogue() -> None:
    """A player's words or name that happen to be a command's or a ruleset message's English
    stay as written; the command name a warning starts with is translated."""
    said = i18n.warning_text("check: «the target is not in play» is not a player", "ru")
    assert said == "проверка: «the target is not in play» — нет такого игрока"
    said = i18n.warning_text("check no longer plays this slot: vote", "ru")
    assert said == "check больше не играет за это место: vote"
    # A message with a ruleset text inside it is not that text.
    assert i18n.warning_text("the target is not in play, or not", "ru") == (
        "the target is not in play, or not"
    )
    assert i18n.warning_text("the target is not in play", "ru") == "цель вне игры"


# -- a game of each ruleset on the local board, its review on the dashboard ------------------


def _started(
    tmp_path: Path, ruleset: str, monkeypatch: pytest.MonkeyPatch
) -> tuple[ReviewGame, datetime]:
    """The example game of `ruleset` started on a local board, its first phase open; and the
    moment it opened."""
    source = EXAMPLES / f"{ruleset}.toml"
    config = load_game(source)
    board_url = f"sqlite:///{tmp_path / 'board.sqlite'}"
    board, thread = local_board(board_url, config.players, gm=config.gm_user)
    text = source.read_text(encoding="utf-8")
    text = text.replace('url = "sqlite:///rehearsal-board.sqlite"', f'url = "{board_url}"')
    path = tmp_path / "game.toml"
    path.write_text(text.replace('thread = "1"', f'thread = "{thread}"'), encoding="utf-8")
    monkeypatch.setenv("FORUMGM_GM_PASSWORD", "gm-secret")
    g = ReviewGame(path, f"sqlite:///{tmp_path / 'store.sqlite'}", board, thread)
    for words, at in (
        (("game", "start", str(path)), BEFORE),
        (("review", str(path), "--approve"), BEFORE),
        (("run", str(path), "--once"), config.start.isoformat()),
    ):
        result = g.cli(*words, at=at)
        assert result.exit_code == 0, result.output
    return g, config.start


CASES = [
    # ruleset, sender, in the thread (else by PM), what he writes, the code, English, Russian
    (
        "classic",
        "Вася",
        True,
        "голосую за Петю",
        "thread_vote_ignored",
        "a vote in the thread does not count; votes count only by PM",
        "голос в теме не засчитывается: голоса принимаются только в ЛС",
    ),
    (
        "votecount",
        "Carol",
        False,
        "голосую за Alice",
        "pm_vote_ignored",
        "votes count only in the game thread",
        "голоса засчитываются только в игровой теме",
    ),
    (
        "yakuza",
        "Петя",
        True,
        "проверяю Васю",
        "thread_order_ignored",
        "night orders count only by PM",
        "ночные приказы засчитываются только в ЛС",
    ),
    (
        "twelve-rooms",
        "Маша",
        False,
        "голосую за Васю",
        "not_allowed",
        "not allowed in this phase or for this player",
        "в этой фазе или этому игроку это не разрешено",
    ),
    (
        "minimafik",
        "Alu",
        False,
        "голосую за Destiny",
        "wrong_phase",
        "not possible in this phase",
        "в этой фазе так нельзя",
    ),
]


def _warnings_shown(g: ReviewGame, monkeypatch: pytest.MonkeyPatch, at: str, lang: str) -> str:
    """The texts of the warnings on the game's page of the dashboard in `lang`."""
    c = client(make_dashboard(g, monkeypatch, at=at, lang=lang))
    log_in(c)
    page = c.get("/games/1")
    assert page.status_code == 200
    assert f'<html lang="{lang}">' in page.text
    found = re.findall(r'<p class="text">(.*?)</p>', page.text, re.S)
    return "\n".join(html.unescape(t) for t in found)


@pytest.mark.parametrize(
    ("ruleset", "sender", "thread", "text", "code", "english", "russian"), CASES
)
def test_a_rulesets_own_warning_in_the_hosts_language(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    ruleset: str,
    sender: str,
    thread: bool,
    text: str,
    code: str,
    english: str,
    russian: str,
) -> None:
    g, opened = _started(tmp_path, ruleset, monkeypatch)
    sent = opened + timedelta(hours=1)
    if thread:
        g.board.post_as(sender, g.thread, text, at=sent)
    else:
        g.board.pm_as(sender, [load_game(g.path).gm_user], "ход", text, at=sent)
    now = (sent + timedelta(minutes=5)).isoformat()
    polled = g.cli("run", str(g.path), "--once", at=now)
    assert polled.exit_code == 0, polled.output
    set_password(g)
    rv = Review(make_dashboard(g, monkeypatch, at=now).drivers[0], by="t", via="test")
    stored = [(w.warning.code, w.warning.player, w.warning.message) for w in rv.warnings()]
    assert (code, sender, english) in stored  # stored in English, as scenario files read it

    shown_ru = _warnings_shown(g, monkeypatch, now, "ru")
    assert russian in shown_ru and english not in shown_ru
    shown_en = _warnings_shown(g, monkeypatch, now, "en")
    assert english in shown_en and russian not in shown_en
    # The CLI's review names the warning by its code and the player's words, in either language.
    review = g.cli("--lang", "ru", "review", str(g.path), at=now)
    assert review.exit_code == 0, review.output
    assert f"{code} {sender} '{text}'" in review.output

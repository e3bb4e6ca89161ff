"""The dashboard in the host's language: `--lang` (FORUMGM_LANG), else the browser's
Accept-Language, else the games' language; its words and the parse warnings from the gettext
catalogues (engine/locale), and no pick list that starts on a player."""

from __future__ import annotations

import html
import re

import pytest

from engine import i18n
from engine.app.review import Review
from tests.app.dashboard_client import client, csrf_of, log_in, make_dashboard, set_password
from tests.app.review_game import ReviewGame, review_game

__all__ = ["review_game"]


def _russian(g: ReviewGame, monkeypatch: pytest.MonkeyPatch, **headers: str) -> str:
    monkeypatch.delenv(i18n.ENV)
    set_password(g)
    c = client(make_dashboard(g, monkeypatch))
    c.headers.update(headers)
    log_in(c)
    return c.get("/games/1").text


def test_a_russian_game_is_shown_in_russian_without_a_language_asked(
    review_game: ReviewGame, monkeypatch: pytest.MonkeyPatch
) -> None:
    page = _russian(review_game, monkeypatch)  # the game file's language = "ru" (the default)
    assert '<html lang="ru">' in page
    assert "3 предупреждения держат итоги" in page
    assert "Предупреждения разбора" in page and "Одобрить и опубликовать" in page
    # The warning the matcher made in English reads in Russian, with the player's words.
    assert "голос: «Ксюшу» — нет такого игрока" in html.unescape(page)
    assert "Parse warnings" not in page and "is not a player" not in page


def test_the_browser_asks_for_english(
    review_game: ReviewGame, monkeypatch: pytest.MonkeyPatch
) -> None:
    page = _russian(review_game, monkeypatch, **{"accept-language": "en-GB,en;q=0.9,ru;q=0.5"})
    assert '<html lang="en">' in page and "3 warning(s) hold the results" in page
    assert "vote: «Ксюшу» is not a player" in html.unescape(page)


def test_the_hosts_lang_wins_over_the_browser(
    review_game: ReviewGame, monkeypatch: pytest.MonkeyPatch
) -> None:
    set_password(review_game)
    c = client(make_dashboard(review_game, monkeypatch, lang="ru"))
    c.headers["accept-language"] = "en"
    log_in(c)
    assert "Предупреждения разбора" in c.get("/games/1").text


def test_no_pick_list_starts_on_a_player_and_an_empty_pick_is_refused_where_it_was_made(
    review_game: ReviewGame, monkeypatch: pytest.MonkeyPatch
) -> None:
    page = _russian(review_game, monkeypatch)
    selects = re.findall(r"<select name=\"(?:name|player)\"[^>]*>(.*?)</select>", page, re.S)
    assert len(selects) >= 4  # three warnings' "another player", the orders', steer's
    for options in selects:
        first = re.match(r"<option ([^>]*)>", options)
        assert first is not None and first.group(1) == 'value="" selected disabled', options
        assert options.count("selected") == 1
    rv = Review(make_dashboard(review_game, monkeypatch).drivers[0], by="t", via="test")
    olya = next(w.id for w in rv.warnings() if w.warning.player == "Оля")
    c = client(make_dashboard(review_game, monkeypatch))
    log_in(c)
    token = csrf_of(c.get("/games/1").text)
    answer = c.post(
        "/games/1/fix", data={"csrf": token, "warning": str(olya), "name": "", "back": f"w{olya}"}
    )
    assert answer.url.fragment == f"w{olya}"
    article = re.search(rf'<article[^>]*id="w{olya}">(.*?)</article>', answer.text, re.S)
    assert article is not None
    assert "игрок не выбран: выберите его в списке" in article.group(1)
    assert 'class="flash error"' in article.group(1)
    assert not rv.warnings()[0].resolved_by_host


def test_every_text_marked_in_the_code_has_its_russian() -> None:
    from babel.messages.extract import extract_from_dir
    from babel.messages.pofile import read_po

    root = i18n.LOCALE_DIR.parents[1]
    method_map = [
        ("engine/**.py", "python"),
        ("scraper/**.py", "python"),
        ("engine/app/dashboard/templates/**.j2", "jinja2"),
    ]
    boards = [("forums/**.py", "python")]
    for domain, keywords, where in (
        (
            "forumgm",
            {"_": None, "_m": None, "ngettext": (1, 2), "L_": None, "Ln_": (1, 2)},
            method_map,
        ),
        ("warnings", {"N_": None, "Nn_": (1, 2)}, method_map),
        ("boards", {"N_": None}, boards),
    ):
        marked = {
            m[2] if isinstance(m[2], str) else m[2][0]
            for m in extract_from_dir(root, where, keywords=keywords)
            if m[0].startswith(("engine", "scraper", "forums"))
        }
        path = i18n.LOCALE_DIR / "ru" / "LC_MESSAGES" / f"{domain}.po"
        with path.open("rb") as f:
            po = read_po(f, locale="ru")
        done = {m.id if isinstance(m.id, str) else m.id[0] for m in po if m.id and m.string}
        assert marked - done == set(), f"{domain}.po lacks these (engine/locale/README.md)"
        for m in po:
            forms = [m.string] if isinstance(m.string, str) else list(m.string)
            assert not m.id or all(forms), f"{domain}.po: {m.id!r} has an empty translation"

"""`FluxbbBoard.find_user` over FluxBB's member list as the real board served it: the
search's one page, and the whole list on two pages (the GM's group may not search users,
so the board ignores the name): read on to page 2, and no further than the last page
(FluxBB answers a page past the end with page 1); a Cyrillic name in another case, which
SQLite's LIKE does not find, asked for again as such names are written."""

from __future__ import annotations

from dataclasses import dataclass

import httpx

from forums.fluxbb import pages
from forums.punfamily import spellings
from forums.records import User
from tests.adapter_helpers import run
from tests.forums.fluxbb.helpers_fluxbb import BASE, page
from tests.forums.fluxbb.test_fluxbb_board import FakeFluxbb, board


@dataclass
class ListingFluxbb(FakeFluxbb):
    """The fake FluxBB with its member list: `search` (the GM may search users: the saved
    search for Маша) or the whole list of 68 users on two saved pages."""

    search: bool = False
    sqlite: bool = False
    """The search as FluxBB's LIKE on SQLite makes it: only `Маша` itself finds her."""
    stuck: bool = False
    """Serve page 1 whatever page is asked for (a board that ignores `p`)."""

    def answer(self, request: httpx.Request) -> httpx.Response:
        if request.url.path != "/userlist.php":
            return super().answer(request)
        self.requests.append(request)
        if self.sqlite and request.url.params["username"] != "Маша":
            return self.html("userlist_no_hits_en.html", {})
        if self.search or self.sqlite:
            return self.html("userlist_en.html", {})
        number = request.url.params.get("p", "1")
        shown = "2" if number == "2" and not self.stuck else "1"  # FluxBB: past the end is 1
        return self.html(f"userlist_nosearch_p{shown}_en.html", {})

    def names_asked(self) -> list[str]:
        return [r.url.params["username"] for r in self.requests if r.url.path == "/userlist.php"]

    def pages_asked(self) -> list[str]:
        return [r.url.params.get("p", "1") for r in self.requests if r.url.path == "/userlist.php"]


def test_the_whole_list_is_read_in_pages_of_fifty_with_their_count() -> None:
    first = pages.parse_member_list(page("userlist_nosearch_p1_en.html"), BASE)
    second = pages.parse_member_list(page("userlist_nosearch_p2_en.html"), BASE)
    assert (len(first.users), first.page, first.pages) == (50, 1, 2)
    assert (len(second.users), second.page, second.pages) == (18, 2, 2)
    assert first.users[:2] == (User("9", "Lena"), User("2", "admin"))
    assert User("6", "Маша") in second.users and second.users[-1] == User("5", "Петя")
    searched = pages.parse_member_list(page("userlist_en.html"), BASE)
    assert searched.users == (User("6", "Маша"),) and (searched.page, searched.pages) == (1, 1)


def test_a_player_on_the_second_page_is_found_and_the_pages_shown_are_kept() -> None:
    fake = ListingFluxbb()
    gm, _ = board(fake)
    assert run(gm, lambda b: b.find_user(" маша ")) == User("6", "Маша")
    assert fake.pages_asked() == ["1", "2"]
    assert fake.requests[-1].url.params["username"] == "маша"
    assert run(gm, lambda b: b.find_user("LENA")) == User("9", "Lena")  # page 1, kept
    assert run(gm, lambda b: b.find_user("Петя")) == User("5", "Петя")
    assert fake.pages_asked() == ["1", "2"]


def test_a_name_on_no_page_is_not_found_after_the_last_page() -> None:
    fake = ListingFluxbb()
    gm, _ = board(fake)
    assert run(gm, lambda b: b.find_user("Никто")) is None
    assert fake.pages_asked() == ["1", "2"]


def test_a_board_that_serves_page_one_for_every_page_is_read_twice_only() -> None:
    fake = ListingFluxbb(stuck=True)
    gm, _ = board(fake)
    assert run(gm, lambda b: b.find_user("Маша")) is None
    assert fake.pages_asked() == ["1", "2"]


def test_the_search_finds_the_player_on_its_one_page() -> None:
    fake = ListingFluxbb(search=True)
    gm, _ = board(fake)
    assert run(gm, lambda b: b.find_user("Маша ")) == User("6", "Маша")
    assert fake.pages_asked() == ["1"]
    sent = fake.requests[-1].url.params
    assert (sent["username"], sent["sort_by"], sent["show_group"]) == ("Маша", "username", "-1")


def test_a_name_with_letters_outside_a_z_is_asked_again_as_such_names_are_written() -> None:
    assert spellings("Lena") == ["Lena"]  # SQLite's LIKE folds A-Z itself
    assert spellings("маша") == ["маша", "Маша", "МАША"]
    assert spellings("иван пЕТРОВ") == [
        "иван пЕТРОВ", "Иван петров", "Иван Петров", "иван петров", "ИВАН ПЕТРОВ"
    ]  # fmt: skip
    fake = ListingFluxbb(sqlite=True)
    gm, _ = board(fake)
    assert run(gm, lambda b: b.find_user("маша")) == User("6", "Маша")
    assert fake.names_asked() == ["маша", "Маша"]
    fake.requests.clear()
    assert run(gm, lambda b: b.find_user("Никто")) is None
    assert fake.names_asked() == ["Никто", "никто", "НИКТО"]


def test_a_list_that_offers_no_search_is_not_asked_again_by_other_spellings() -> None:
    fake = ListingFluxbb()
    gm, _ = board(fake)
    assert run(gm, lambda b: b.find_user("никто")) is None
    assert fake.names_asked() == ["никто", "никто"]  # pages 1 and 2, once

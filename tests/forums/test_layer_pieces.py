"""The pieces of the shared adapter layer that the paged engines (MyBB, vBulletin, SMF,
FluxBB) stopped repeating: their stock settings, the greeting after a login, inbox and sent
over PM folders, a numbered thread page's size and start, a redirect page's target."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

import pytest

from engine.i18n import board_text
from forums.board import PMPage
from forums.dates import shown_time
from forums.errors import BoardError, CaptchaRequired, LoginFailed, SessionExpired
from forums.fluxbb.board import FluxbbBoard
from forums.html import parse_html, redirect_target
from forums.mybb.board import MybbBoard
from forums.pages import MemberList, PageKind, TopicPage, page_size
from forums.records import Cursor, Post, PostBody, User
from forums.smf.board import SmfBoard
from forums.smf.selectors import DEFAULT as SMF_DEFAULT
from forums.vbulletin.board import VbulletinBoard
from forums.webboard import Answer, Gone, Said

BASE = "https://forum.example.org/"


def _post(number: int) -> Post:
    when = datetime(2026, 12, 5, 12, number, tzinfo=UTC)
    return Post(str(100 + number), "7", number, "Masha", None, when, PostBody(()))


def test_each_engine_states_its_stock_flood_wait_and_the_host_may_set_another() -> None:
    assert SmfBoard(BASE, "gm", "pw").flood_wait == 6.0
    assert FluxbbBoard(BASE, "gm", "pw").flood_wait == 60.0
    assert MybbBoard(BASE, "gm", "pw").flood_wait == 30.0
    assert VbulletinBoard(BASE, "gm", "pw").flood_wait == 30.0
    assert MybbBoard(BASE, "gm", "pw", flood_wait=5).flood_wait == 5


def test_a_paged_board_keeps_the_hosts_zone_date_order_and_selectors() -> None:
    board = MybbBoard(BASE, "gm", "pw", tz=UTC, date_order="dmy")
    assert (board._tz, board.tz, board.date_order, board._order_known) == (UTC, UTC, "dmy", True)
    stock = VbulletinBoard(BASE, "gm", "pw")
    assert (stock._tz, stock.date_order, stock._order_known) == (None, "mdy", False)
    assert SmfBoard(BASE, "gm", "pw").selectors is SMF_DEFAULT


def test_a_date_order_for_an_engine_whose_pages_say_it_is_refused() -> None:
    with pytest.raises(ValueError, match="smf reads the order of its dates"):
        SmfBoard(BASE, "gm", "pw", date_order="dmy")


def test_set_date_format_reaches_the_board_through_its_mixin() -> None:
    assert MybbBoard(BASE, "gm", "pw", set_date_format=True).set_date_format is True
    assert MybbBoard(BASE, "gm", "pw").set_date_format is False


def test_the_greeting_after_a_login_must_name_the_gm_in_any_case() -> None:
    board = SmfBoard(BASE, "Ведущий", "pw")
    assert board.greeted(User("1", "ведущий"), "logging in").name == "ведущий"
    assert board.session.me == User("1", "ведущий")
    with pytest.raises(LoginFailed, match=r"shows a guest \(cookies refused\?\)"):
        board.greeted(None, "logging in")
    with pytest.raises(LoginFailed, match="shows Masha"):
        board.greeted(User("2", "Masha"), "logging in")


def test_a_captcha_or_two_step_page_is_refused_with_the_hosts_line() -> None:
    board = MybbBoard(BASE, "gm", "pw")
    board.refuse(PageKind.TOPIC)
    with pytest.raises(CaptchaRequired, match="solving the CAPTCHA"):
        board.refuse(PageKind.CAPTCHA)
    with pytest.raises(LoginFailed, match="User CP"):
        board.refuse(PageKind.TWO_STEP)


def test_inbox_and_sent_read_the_engines_own_folders() -> None:
    read: list[tuple[tuple[str, ...], Cursor | None]] = []

    class Folders(VbulletinBoard):
        async def read_pms(self, folders: object, since: Cursor | None) -> PMPage:
            read.append((tuple(folders), since))  # type: ignore[arg-type]
            return PMPage(items=[], cursor=Cursor({"last_id": 9}))

    board = Folders(BASE, "gm", "pw")
    cursor = Cursor({"last_id": 3})
    asyncio.run(board.inbox(cursor))
    asyncio.run(board.sent())
    assert read == [(("0",), cursor), (("-1",), None)]


def test_a_board_without_private_messages_has_empty_folders_and_keeps_the_cursor() -> None:
    board = FluxbbBoard(BASE, "gm", "pw")
    cursor = Cursor({"last_id": 4})
    assert asyncio.run(board.inbox(cursor)) == PMPage(items=[], cursor=cursor)
    assert asyncio.run(board.sent()) == PMPage(items=[], cursor=Cursor({"last_id": 0}))


def test_a_page_before_the_last_is_full_and_the_last_keeps_the_size_seen() -> None:
    assert page_size(20, 1, 3, None, 10) == 20
    assert page_size(20, 1, 3, 15, 10) == 20
    assert page_size(4, 3, 3, 20, 10) == 20
    assert page_size(4, 1, 1, None, 10) == 10
    assert page_size(12, 1, 1, None, 10) == 12


def test_a_numbered_page_starts_after_the_pages_before_it_and_the_last_tells_the_total() -> None:
    posts = [_post(1), _post(2)]
    middle = TopicPage.numbered(BASE, "7", "Game", posts, (2, 3, 20), "gm")
    assert (middle.start, middle.total_posts, middle.per_page) == (20, None, 20)
    last = TopicPage.numbered(BASE, "7", "Game", posts, (3, 3, 20), None)
    assert (last.start, last.total_posts, last.logged_in_as) == (40, 42, None)


def test_a_redirect_page_leads_where_its_refresh_says_else_to_its_link() -> None:
    refresh = '<meta http-equiv="Refresh" content="2; URL=showthread.php?p=5#post5">'
    tree = parse_html(f"<html><head>{refresh}</head><body><a href='x.php'>x</a></body></html>")
    assert redirect_target(tree, BASE + "newreply.php", "a[href]") == (
        BASE + "showthread.php?p=5#post5"
    )
    linked = parse_html("<div class='go'><a href='/t/9'>here</a></div>")
    assert redirect_target(linked, BASE + "post.php", "div.go a[href]") == BASE + "t/9"
    assert redirect_target(parse_html("<p>done</p>"), BASE, "div.go a[href]") is None


def test_a_shown_time_is_folded_and_trimmed_and_a_day_month_order_is_checked() -> None:
    assert shown_time(" (06-15-2016,\xa0 03:03 PM) ", "mdy", " ,()") == "06-15-2016, 03:03 PM"
    with pytest.raises(ValueError, match="date order must be one of"):
        shown_time("06-15-2016", "ymd", " ")
    with pytest.raises(ValueError, match="not a board time"):
        shown_time(" , ", "dmy", " ,")


def test_a_member_is_looked_for_page_by_page_and_whom_the_pages_showed_is_kept() -> None:
    asked: list[tuple[int, int]] = []
    shown = [
        MemberList((User("1", "Anna"), User("2", "Boris")), 1, 3),
        MemberList((User("3", "Вера"),), 2, 3),
        MemberList((User("4", "Gleb"),), 3, 3),
    ]

    async def listing(number: int, offset: int) -> MemberList | None:
        asked.append((number, offset))
        return shown[number - 1]

    board = SmfBoard(BASE, "gm", "pw")
    assert asyncio.run(board.find_member(" ВЕРА ", listing)) == User("3", "Вера")
    assert asked == [(1, 0), (2, 2)]
    assert board.known_member("boris") == User("2", "Boris")
    assert asyncio.run(board.find_member("Nobody", listing)) is None
    assert asked[2:] == [(1, 0), (2, 2), (3, 3)]

    async def nobody(number: int, offset: int) -> MemberList | None:
        return None

    assert asyncio.run(board.find_member("Gleb", nobody)) is None


def test_a_member_list_that_never_ends_is_left_after_its_first_pages() -> None:
    asked: list[int] = []

    async def endless(number: int, offset: int) -> MemberList | None:
        asked.append(number)
        return MemberList((User(str(number), f"user{number}"),), number, 10**6)

    board = SmfBoard(BASE, "gm", "pw")
    with pytest.raises(BoardError, match=r"'Vera' is not on the first 100 pages .*of 1000000") as e:
        asyncio.run(board.find_member(" Vera ", endless))
    assert asked == list(range(1, 101))
    assert board_text(str(e.value), "ru") == (
        f"{BASE}: имени 'Vera' нет в начале списка участников (прочитано страниц: 100 из "
        "1000000); найдите его на форуме сами"
    )
    assert board.known_member("user100") == User("100", "user100")


def test_a_member_list_that_answers_a_page_past_its_end_with_an_earlier_one_ends() -> None:
    asked: list[int] = []

    async def first_again(number: int, offset: int) -> MemberList | None:
        asked.append(number)  # FluxBB: a page past the end is page 1
        return MemberList((User("1", "Anna"),), 1, 5)

    board = SmfBoard(BASE, "gm", "pw")
    assert asyncio.run(board.find_member("Vera", first_again)) is None
    assert asked == [1, 2]


def test_a_read_that_finds_the_session_gone_logs_in_again_once_then_gives_up() -> None:
    logins: list[int] = []

    class Counted(SmfBoard):
        async def login(self) -> User:
            logins.append(self.session.logins)
            return self._logged_in(User("1", "gm"))

    board = Counted(BASE, "gm", "pw")
    answers: list[str | Gone] = [Gone("a guest's page", at=BASE + "guest"), "the page"]
    asked: list[str] = []

    async def read(url: str) -> str | Gone:
        asked.append(url)
        return answers.pop(0)

    where = iter(["sid=1", "sid=2"])
    board.begin()
    assert asyncio.run(board.as_gm(lambda: BASE + next(where), read)) == "the page"
    assert asked == [BASE + "sid=1", BASE + "sid=2"] and logins == [0]

    async def always_gone(url: str) -> str | Gone:
        return Gone("not logged in")

    board.begin()
    with pytest.raises(SessionExpired, match=r"again right after a fresh login \(not logged in"):
        asyncio.run(board.as_gm(BASE + "t/1.json", always_gone))
    assert logins == [0, 1]


def test_a_submission_logged_out_while_another_board_logged_in_uses_that_login() -> None:
    logins: list[int] = []

    class Counted(SmfBoard):
        async def login(self) -> User:
            logins.append(self.session.logins)
            return self._logged_in(User("1", "gm"))

    board = Counted(BASE, "gm", "pw")
    asyncio.run(board.ensure_login())
    sent: list[str] = []

    async def fresh() -> str:
        return f"form {len(sent) + 1}"

    async def send(form: str) -> Said[str, str]:
        sent.append(form)
        if len(sent) == 1:  # a board sharing the session logs in again meanwhile
            board.session.logged_in(User("1", "gm"))
            return Said(Answer.LOGGED_OUT, text="a guest's page")
        return Said(Answer.ACCEPTED, result="post 7")

    board.begin()
    assert asyncio.run(board.submit(BASE + "post", fresh, send)) == "post 7"
    assert sent == ["form 1", "form 2"] and logins == [0]  # the first login only: none again

"""`DiscourseBoard` with a user API key, and Discourse's limits that last hours.

A user API key (`User-Api-Key`) acts as the account that made it, within its scopes; a
revoked key, one of another site or one that may only read is refused as Discourse refuses
it (403 `invalid_access`), and forumgm says which it can be. A 429 that asks for more than
a minute (a day's personal messages, a user key's requests a day) is not waited out: it is
`FloodControl` at once, with the wait and what the site can change.
"""

from __future__ import annotations

from typing import Any

import pytest

from forums import BoardError, FloodControl, LoginFailed
from forums.discourse.board import DiscourseBoard, limit_wait, span
from tests.adapter_helpers import FakeTime, run
from tests.discourse_board import (
    BASE,
    GM,
    KEY,
    USER_KEY,
    FakeDiscourse,
    errors,
    rate_limited,
    real_posts,
)

T2108 = ("criticalfallibilism_t_2108_posts.json", "criticalfallibilism_t_2108_posts_pn_41.json")


def forum() -> FakeDiscourse:
    fake = FakeDiscourse()
    fake.add_topic(2108, "Comments", real_posts(*T2108))
    fake.add_user("Alu")
    return fake


def user_board(
    fake: FakeDiscourse, key: str = USER_KEY, **options: Any
) -> tuple[DiscourseBoard, FakeTime]:
    clock = FakeTime()
    made = DiscourseBoard(
        BASE,
        GM,
        "",
        api_key=key,
        api_key_kind="user",
        client=fake.client(),
        clock=clock,
        sleep=clock.sleep,
        min_delay=0,
        **options,
    )
    return made, clock


# -- a user API key ---------------------------------------------------------------------------


def test_a_user_key_with_the_write_scope_reads_posts_and_sends_as_its_account() -> None:
    fake = forum()
    fake.add_user_key(USER_KEY, GM, "write")
    gm, _ = user_board(fake)

    async def go(b: DiscourseBoard) -> tuple[int, str, str]:
        me = await b.login()
        page = await b.thread_posts("2108")
        post_id = await b.reply("2108", "Итоги дня 1")
        pm_id = await b.send_pm(["Alu"], "Ваша роль", "Вы — мирный житель.")
        assert me.name == GM
        return len(page.items), post_id, pm_id

    count, post_id, pm_id = run(gm, go)
    assert count == 40
    assert fake.find(int(post_id))["username"] == GM
    assert fake.find(int(pm_id))["username"] == GM
    sent = fake.requests
    assert all(r.headers.get("User-Api-Key") == USER_KEY for r in sent)
    # A user key names no account: Discourse would take Api-Username for an admin's key.
    assert not any("Api-Key" in r.headers or "Api-Username" in r.headers for r in sent)


def test_a_revoked_user_key_cannot_log_in_and_the_host_is_told_how_to_get_one() -> None:
    fake = forum()
    fake.add_user_key(USER_KEY, GM)
    fake.revoke(USER_KEY)
    gm, _ = user_board(fake)
    with pytest.raises(LoginFailed) as refused:
        run(gm, lambda b: b.login())
    text = str(refused.value)
    assert "refused the user API key" in text and "revoked" in text
    assert "'write'" in text and GM in text


def test_a_read_only_user_key_reads_but_its_post_is_refused_naming_the_scope() -> None:
    fake = forum()
    fake.add_user_key(USER_KEY, GM, "read,session_info")
    gm, _ = user_board(fake)

    async def go(b: DiscourseBoard) -> int:
        page = await b.thread_posts("2108")
        with pytest.raises(BoardError) as refused:
            await b.reply("2108", "Итоги дня 1")
        # Not a login failure: the key still works for what it may do.
        assert not isinstance(refused.value, LoginFailed)
        assert "lacks the scope 'write'" in str(refused.value)
        assert "discourse-key" in str(refused.value)
        return len(page.items)

    assert run(gm, go) == 40
    assert fake.topics[2108].posts[-1]["username"] != GM  # nothing was posted


def test_a_key_revoked_during_the_game_is_a_login_failure_at_the_next_read() -> None:
    fake = forum()
    fake.add_user_key(USER_KEY, GM)
    gm, _ = user_board(fake)

    async def go(b: DiscourseBoard) -> None:
        await b.thread_posts("2108")
        fake.revoke(USER_KEY)
        with pytest.raises(LoginFailed, match=r"refused the user API key.*revoked"):
            await b.thread_posts("2108")

    run(gm, go)


def test_a_topic_the_gm_may_not_see_is_said_so_not_blamed_on_the_key() -> None:
    fake = forum()
    fake.add_user_key(USER_KEY, GM)
    fake.queue(
        lambda r: r.url.path == "/t/2108.json",
        errors(403, "invalid_access", "You are not permitted to view the requested resource."),
    )
    gm, _ = user_board(fake)
    with pytest.raises(BoardError, match="does not let the GM account see this") as refused:
        run(gm, lambda b: b.thread_posts("2108"))
    assert not isinstance(refused.value, LoginFailed)


def test_a_user_key_of_another_account_is_refused_at_login() -> None:
    fake = forum()
    fake.add_user_key(USER_KEY, "Alu")
    gm, _ = user_board(fake)
    with pytest.raises(LoginFailed, match=r"serves 'Alu'.*made by the GM account"):
        run(gm, lambda b: b.login())


def test_a_user_key_given_as_an_admins_key_is_refused_with_the_hint_to_say_user() -> None:
    fake = forum()
    fake.add_user_key(USER_KEY, GM)
    gm = DiscourseBoard(BASE, GM, "", api_key=USER_KEY, client=fake.client(), min_delay=0)
    with pytest.raises(LoginFailed, match=r'looks like a user API key.*api_key_kind = "user"'):
        run(gm, lambda b: b.login())
    fake = forum()  # an administrator's key of another length gets no such hint
    gm = DiscourseBoard(BASE, GM, "", api_key="x" + KEY, client=fake.client(), min_delay=0)
    with pytest.raises(LoginFailed) as refused:
        run(gm, lambda b: b.login())
    assert "user API key" not in str(refused.value)


def test_an_unknown_key_kind_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="api_key_kind: one of admin, user"):
        DiscourseBoard(BASE, GM, "", api_key=KEY, api_key_kind="bot")


# -- limits that last hours -------------------------------------------------------------------


def test_the_days_personal_messages_run_out_flood_control_at_once_naming_the_setting() -> None:
    fake = forum()
    fake.pms_per_day = 2
    fake.add_user_key(USER_KEY, GM)
    gm, clock = user_board(fake)

    async def go(b: DiscourseBoard) -> FloodControl:
        await b.send_pm(["Alu"], "Роль 1", "Вы — мирный житель.")
        await b.send_pm(["Alu"], "Роль 2", "Вы — мирный житель.")
        with pytest.raises(FloodControl) as limited:
            await b.send_pm(["Alu"], "Роль 3", "Вы — мирный житель.")
        return limited.value

    limited = run(gm, go)
    assert limited.retry_after == 20 * 3600
    text = str(limited)
    assert "refuses a personal message for 20 h" in text
    assert "max_personal_messages_per_day" in text and "staff" in text
    assert "\n" not in text
    assert clock.slept == []  # not waited out in place: the runner is not held for hours
    creates = [r for r in fake.requests if r.method == "POST" and r.url.path == "/posts.json"]
    assert len(creates) == 3  # and not sent again


def test_a_limit_said_only_in_the_body_is_read_from_extras_wait_seconds() -> None:
    fake = forum()
    fake.queue(lambda r: r.method == "POST", rate_limited(5400, retry_after=False))
    gm = DiscourseBoard(BASE, GM, "", api_key=KEY, client=fake.client(), min_delay=0)
    with pytest.raises(FloodControl, match=r"for 1 h 30 min .*posts.*trust level") as limited:
        run(gm, lambda b: b.reply("2108", "Итоги дня 1"))
    assert limited.value.retry_after == 5400


def test_a_user_keys_daily_requests_run_out_naming_the_servers_setting() -> None:
    fake = forum()
    fake.add_user_key(USER_KEY, GM)
    fake.queue(
        lambda r: r.url.path == "/t/2108.json",
        rate_limited(7200, code="user_api_key_limiter_1_day"),
    )
    gm, clock = user_board(fake)
    with pytest.raises(FloodControl, match="max_user_api_reqs_per_day") as limited:
        run(gm, lambda b: b.thread_posts("2108"))
    assert "refuses a request for 2 h" in str(limited.value)
    assert clock.slept == []


def test_a_short_rate_limit_is_still_waited_out_in_place() -> None:
    fake = forum()
    fake.add_user_key(USER_KEY, GM)
    fake.queue(lambda r: r.method == "POST", rate_limited(45))
    gm, clock = user_board(fake)
    post_id = run(gm, lambda b: b.reply("2108", "Итоги дня 1"))
    assert fake.find(int(post_id))["username"] == GM
    assert 45 in clock.slept


def test_waits_as_a_host_reads_them() -> None:
    assert [span(s) for s in (45, 720, 3600, 27000)] == ["45 s", "12 min", "1 h", "7 h 30 min"]
    assert limit_wait(rate_limited(90)) == 90
    assert limit_wait(rate_limited(90, retry_after=False)) == 90

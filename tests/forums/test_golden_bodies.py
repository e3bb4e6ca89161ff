"""Page and BBCode parsing give byte-identical `PostBody` records to the stored golden dump."""

from __future__ import annotations

from tests.forums.golden_bodies import load, records


def test_every_saved_page_and_bbcode_text_parses_to_its_golden_record() -> None:
    golden = load()
    now = records(golden["bbcode_inputs"])
    assert len(golden["records"]) > 3000  # pages whole, their parts, posts, the real game
    missing = sorted(set(golden["records"]) - set(now))
    changed = sorted(k for k, v in golden["records"].items() if k in now and now[k] != v)
    assert not missing, f"{len(missing)} records no longer produced, e.g. {missing[:5]}"
    assert not changed, (
        f"{len(changed)} records changed, e.g. {changed[:10]} — if intended, run "
        "`python -m tests.forums.golden_bodies --update` and say why in the commit"
    )

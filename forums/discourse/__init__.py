"""Discourse adapter: the JSON API's answers read into records (pure) and the `Board`."""

from forums.board import register_engine
from forums.discourse.body import cooked_body
from forums.discourse.topic import pm_list, pm_record, post_record, read_posts, read_topic

register_engine("discourse", "forums.discourse.board:discourse_board")

__all__ = ["cooked_body", "pm_list", "pm_record", "post_record", "read_posts", "read_topic"]

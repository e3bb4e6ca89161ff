"""Jinja2 templates of the votecount ruleset, one folder per language."""

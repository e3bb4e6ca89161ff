"""Jinja2 templates of the yakuza ruleset, one folder per language."""

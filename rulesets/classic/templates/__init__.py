"""Jinja2 templates of the classic ruleset, one folder per language."""

"""Jinja2 templates of the twelve-rooms ruleset, one folder per language."""

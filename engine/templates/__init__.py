"""Generic templates the engine falls back on when a ruleset has none of its own."""

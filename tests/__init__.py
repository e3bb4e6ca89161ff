"""The test suite is a package, so pytest puts the repository root (not tests/) on sys.path:
tests/rulesets/ must not shadow the real `rulesets` package."""

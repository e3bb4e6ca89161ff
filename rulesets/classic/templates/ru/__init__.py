"""Russian templates of the classic ruleset."""

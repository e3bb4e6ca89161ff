"""English templates of the classic ruleset."""

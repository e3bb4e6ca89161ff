"""English templates of the yakuza ruleset."""

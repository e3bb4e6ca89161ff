"""Russian templates of the yakuza ruleset."""

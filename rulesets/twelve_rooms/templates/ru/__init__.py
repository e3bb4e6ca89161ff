"""Russian templates of the twelve-rooms ruleset."""

"""English templates of the twelve-rooms ruleset."""

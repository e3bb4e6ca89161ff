"""English templates of the votecount ruleset."""

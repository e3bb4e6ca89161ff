"""Russian templates of the votecount ruleset."""

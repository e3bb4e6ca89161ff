"""`forumgm demo`: a seeded classic game played to the end on the local board."""

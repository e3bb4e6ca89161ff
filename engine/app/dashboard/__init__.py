"""`forumgm dashboard`: the host's review in the browser, through the same review functions as
`forumgm review` (`engine.app.review`): warnings with one-click fixes, votes, orders with their
source posts, the results' preview, Approve & publish, the audit log."""

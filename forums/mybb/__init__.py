"""MyBB 1.8 adapter: page parsing (pure) and, beside it, the HTTP client and `Board`."""

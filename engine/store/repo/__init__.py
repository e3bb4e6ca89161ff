"""The parts the `Store` is made of, one per concern."""

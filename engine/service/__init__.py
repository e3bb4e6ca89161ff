"""The GM service: games driven phase by phase from the store, on a schedule."""

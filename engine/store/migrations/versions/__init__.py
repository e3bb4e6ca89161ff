"""Migration scripts (one module per revision)."""

"""English generic templates."""

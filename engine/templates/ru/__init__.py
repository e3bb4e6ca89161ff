"""Russian generic templates."""

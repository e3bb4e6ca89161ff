"""Alembic migrations of the store, shipped inside the package."""

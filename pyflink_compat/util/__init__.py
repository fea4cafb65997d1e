"""Internal helpers shared by the API modules."""

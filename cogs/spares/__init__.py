"""The spare pool and spare requests."""

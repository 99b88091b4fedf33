"""Penalties, suspensions, appeals and cleanup duty through the command tree."""

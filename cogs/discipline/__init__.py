"""Penalties, suspensions, appeals and cleanup duty."""

"""Deadlines as data (service.py) and their nudges as they read when sent (nudges.py)."""

"""The season draft's commands (youth 1.7)."""

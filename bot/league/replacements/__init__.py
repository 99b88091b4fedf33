"""Replacing a long-term injured or absent player (youth 1.16): the rules, pure."""

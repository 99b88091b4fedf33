"""Replacing a long-term injured or absent player (youth 1.16): captains ask, commissioners decide."""

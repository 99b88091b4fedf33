"""A league's rulebook: answering /rule from it (lookup.py), and which rulebook a league reads and
changing it from Discord (choice.py)."""

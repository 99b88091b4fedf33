"""A league's rulebook: answering /rule from it (lookup.py, answers.py), which rulebook a league reads and
changing it from Discord (choice.py), and what players asked that it couldn't answer (feedback.py, digest.py)."""

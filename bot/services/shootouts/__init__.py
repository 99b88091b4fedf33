"""Shootouts: captains' shooting orders and the referee's attempt-by-attempt scoring.

``context`` loads the game, both teams' eligible shooters and who may see what; ``orders`` and
``scoring`` build on it. The rules themselves are pure, in ``bot/league/shootouts/``.
"""

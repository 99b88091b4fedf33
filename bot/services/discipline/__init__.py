"""Discipline: penalties a referee calls, the suspensions they bring, appeals, and who may play.

``core`` counts suspensions down and answers "is this player suspended?" for the other features
(``eligibility`` is the protocol they depend on); ``penalties``, ``suspensions`` and ``appeals`` are
the commands' use cases, ``cleanup`` the team's bench minor for missed cleanup duty (youth 2.15) and
``penalty_log`` a game's penalties as its officials read them. The rules themselves are pure, in
``bot/league/discipline/``.
"""

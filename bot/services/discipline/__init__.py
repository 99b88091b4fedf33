"""Discipline: penalties a referee calls, the suspensions they bring, appeals, and who may play.

``core`` counts suspensions down and answers "is this player suspended?" for the other features
(``eligibility`` is the protocol they depend on); ``penalties``, ``suspensions`` and ``appeals`` are
the commands' use cases. The rules themselves are pure, in ``bot/league/discipline/``.
"""

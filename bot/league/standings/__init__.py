"""League standings: turn game results into ordered tables, as each league's rulebook says.

Pure rules: plain dataclasses in, plain rows out; no discord, no storage. Each league's numbers and
the vocabulary of criteria are in presets.py; `compute_standings` and its rows in table.py.

How a table is built
--------------------
1. One pass over the results fills each team's counters: wins, losses and ties by how the game
   was decided, goals, shootout goals and forfeit deductions. The cost is one cheap step per game
   whatever the number of teams; rows and criteria are then computed per team.
2. Each division is ordered by ``rules.standings_tiebreakers`` in turn. The first criterion is the
   primary order (points, or winning percentage for a league seeded by record); each later one is
   applied only to the teams still level on every earlier one. ``head_to_head`` is a mini-table
   of points in the games among *all* the teams still level at that step (two teams or more); when
   it separates some of them, the rest go on to the next criterion (it is not re-applied to the
   smaller group). Those groups are known from the rows alone, so the mini-tables cost one more
   pass that reads only the games inside a tied group, and only when some group is tied.
3. When every criterion is exhausted the teams are ordered by name (case-insensitive, then exact).
   That fallback is not a rule of any league: it only makes the table deterministic. Such rows
   carry ``tiebreak == "team_name"`` so that a commissioner can see the tie is real and settle it
   (a coin toss, a rule 1.22 decision) with a :class:`PointAdjustment`.

Every row says why it sits where it does: ``tiebreak`` is the criterion that separated it from
the teams it was level with on the primary criterion (``tied_with``), or None when it was not level.
"""

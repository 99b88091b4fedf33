"""Spares: what a short team is missing, and which spares could fill it, best matches first.

Pure rules: `what_is_missing` (needs.py) reads a `LineupReport` and says what would make the lineup
legal; `fits`, `role_for` and `offer_waves` (matching.py) say which spares may be offered the spot,
in which wave, and in which position one plays once they accept.

Choices the issue leaves open, decided here:
- "Legal" means no finding a spare could fix: no goalie, short of women/non-binary skaters, short
  of skaters for the court, below the minimum to start. Suspended or unrostered players are the
  captain's matter, not a spare's.
- A spare fills a woman/non-binary spot only as a skater who counts toward the minimum; a goalie
  spot only if they play goal; any other spot only if they skate.
- Wave 1 offers the spares who fill the scarce part (the category or the goalie, when that is
  missing) and are usually free that day (a spare who named no days is free every day); wave 2
  everyone else who is eligible. With no best match, those are asked at once instead of after the
  delay. Nobody is offered the same request twice.
- A spare is busy at a game's time when a game of their own roster team, or a game they already
  fill in as a spare, starts within `BUSY_WINDOW` of it.
"""

"""Lineup rules: who may play, how many skaters go on the court, and whether a team can start.

Pure rules: `check_lineup` (check.py) takes the checked-in players and a league's `LineupRules`
(presets.py), returns a `LineupReport` whose findings say what is wrong and which rulebook rule says
so.

Choices the rulebooks leave open, decided here:
- Eligibility: a suspended player is never counted. A player not on the roster is a guest: guests
  are refused where the league has no guest provision (`guests_allowed=False`: the co-ed rulebook
  limits rosters to 20 active players, the youth rosters are set by the draft) and need staff
  approval where the rulebook says so (indoor soccer). A suspended guest is reported as suspended.
- Goalies: the player in goal is a checked-in goalie. When several goalies check in, one plays goal
  and the others count as skaters (nothing in the rulebooks stops a goalie from playing out). The
  first in check-in order plays goal, except that when the team is short of women/non-binary skaters
  a goalie who does not count toward that minimum goes in goal, so that a woman/non-binary goalie
  can skate and reduce the shortfall.
- No goalie: the report says so (`no_goalie`) and, if anyone is there, assumes one skater stands in
  goal, choosing one who does not count toward the women/non-binary minimum when possible; every
  count in the report is then made without that skater. A stand-in satisfies "a goalie to start".
- A woman or non-binary goalie never counts toward the women/non-binary skaters on the court.
- Playing short: with fewer women/non-binary skaters than required the team may put at most
  `skater spots - (required - available)` skaters on the court (docs/product.md §2, "Plays short"). If a
  league turns `plays_short_when_short_of_women` off, a shortfall means the team cannot start.
- No minimum to start in the rulebook (co-ed: a short team plays short): the team still needs someone
  in goal and one skater beside them, so nobody (or one player) checked in is below the minimum to
  start, never "met".
- The ✅/❌ status lines (status.py) are read off the same report for /lineup, /whoisin and the
  captains' alert; the ones a whole team sees count no women/non-binary players.
- Duplicate check-ins of the same player id count once (the first one).
- Findings never name a player's gender, so a report is safe to show a captain.
"""

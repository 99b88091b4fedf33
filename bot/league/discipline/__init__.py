"""Discipline: what a called infraction costs, how suspensions are served, and how appeals work.

Pure rules, one module per step. A referee calls an infraction from the preset's catalogue
(infractions.py, catalogues.py); `apply_penalty` (penalties.py) returns the minutes, ejection, game
misconduct and automatic suspension, each consequence with its rulebook citation, plus a one-line
summary for the referee. Suspensions (suspensions.py) are served in the team's next games; appeals
(appeals.py) follow youth rules 1.12, 1.13, 1.20.1, 1.20.2 and 1.21.

Each preset's numbers are in presets.py. Choices the rulebooks leave open (or contradict), decided
here:
- The same act appears at several severities (youth "Referee abuse" is a minor, a double minor, a
  10-minute misconduct and a game misconduct; co-ed "verbal abuse" is a severe offence and a reason
  for a 5-minute misconduct, "ref abuse" an extreme offence). Each severity is its own catalogue
  entry and the referee picks one; the escalations below then apply.
- Youth warnings 3.2 (5)-(7) (corralling, holding up play, stepping on the ball) are also delay-of-
  game minors in 3.7 with no order given; as with 3.2 (1) and (8), which say "first time", the first
  in a game is a warning and a repeat in the same game is the 3.7 minor (`repeat_becomes`).
- Youth 3.11 (3) "three minors": a double minor counts as two minors (it is two 2-minute minors,
  3.8), a bench minor counts for nobody (it is the team's). Setting:
  `discipline_minors_per_double_minor`.
- "The last 5 minutes of a game": `minute` is the elapsed game minute (0 at the opening face-off,
  periods back to back), and a penalty is late when `minute >= game_length - 5`; overtime counts as
  late. Without a minute the late rules cannot be checked, and the outcome says so.
- Several automatic suspensions from one call do not add up: the longest applies.
- Youth 1.12: a referee suspends for at most one game; anything longer (the 15 games of 3.11 (4))
  is recorded and marked pending the commissioner's review.
- Co-ed severe offences (listed under "Major offenses (sit for 2 minutes)") sit 2 minutes and carry
  a 1-5 game suspension: the minimum is recorded now, the league sets the length. Extreme offences
  have no stated consequence; they are the worst category, so the player is ejected (a game
  misconduct, which co-ed referees may give at discretion) and the league decides any suspension.
  "Severe, intentional or repeated" infractions are written up: a second infraction of any kind in
  a game is reported (`discipline_review_after_infractions`).
- Indoor soccer has only yellow cards (2 minutes down) and ejections ("substitutions may not be made
  for ejected players").
- Appeals: the co-ed and indoor rulebooks have none; their presets use the youth numbers (once,
  within 7 days, decided within 5 days) as the league default. An appeal is allowed up to and
  including exactly 7 days after issue. A suspension becomes final when its appeals are used up
  and decided, or when the window passes with no appeal pending; a final suspension is never
  shortened (1.20.2). A served or overturned suspension cannot be appealed (an appeal asks for
  games to be taken off, 1.21).
"""

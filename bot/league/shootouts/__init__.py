"""Shootouts: who may shoot in what order, and who has won.

Pure rules for the three leagues' rulebooks (``shared/rulebooks``); every number is a field of
``ShootoutRules`` so a league can override it. Nothing here imports discord or storage: callers pass
plain ``Shooter`` / ``ShootoutPool`` values and get back plain results, including *why* an order is
not allowed (``Violation`` with a rulebook citation).

One module per step: the numbers per preset (presets.py), who may shoot and what an order needs
(eligibility.py), checking a captain's order (order.py), proposing one (suggestion.py), and scoring
attempts (scoring.py).

How the co-ed rules fit together (our reading, written down because the rulebook is terse)
------------------------------------------------------------------------------------------
Rulebook: "Teams will select 3 players to shoot, and at least 1 of these 3 shooters must be female
or non-binary ... For every 3 shooters after the initial 3, at least 1 must be female or non-binary.
Teams match the roster size and make-up of the smaller team. For example, one team only has 3 women
and the other team has 6, the team with 6 only has to have 3 of their women shoot. Regarding your
entire roster that day - all of your players have to shoot before you can repeat a player (male or
female), however, if one team has 10 people present and the other team has 14, the team with 14 can
repeat players after 10 shooters."

1. Groups. The first 3 shooters are 3 different players with at least 1 woman/non-binary (W/NB)
   player. After them the order is cut into blocks of 3 (shooters 4-6, 7-9, ...), each with at
   least 1 W/NB shooter. A block the order has not filled yet is not judged: the next name can still
   complete it.
2. Rounds. "All of your players have to shoot before you can repeat a player": a team's order is
   cut into rounds. Nobody shoots twice in a round; a round ends as soon as everyone it must include
   has shot, and then everyone may shoot again.
3. Matching the smaller team. We match each part of the make-up separately: a round must include
   ``min(ours, theirs)`` W/NB players and ``min(ours, theirs)`` other players, i.e. the make-up both
   teams can field. This gives both rulebook examples: 14 present (6 W/NB, 8 others) against 10
   (3 W/NB, 7 others) -> the 14 may repeat after 10 shooters (3 W/NB + 7 others); 6 W/NB against 3
   -> the team with 6 only has to have 3 of its W/NB players shoot. It is symmetric, and a team
   never needs more different shooters per round than the smaller team has players. Floor: a round
   never has fewer different shooters than the initial group (3), so make-ups with nothing in
   common (all-women against all-men) do not allow the same shooter every time.
4. Blocks against rounds. Taken literally, the two rules contradict each other for any team whose
   W/NB players are fewer than a third of its round (1 woman and 13 men: shooters 4-6 need her again
   long before the 13 men have shot). The women example shows W/NB players cycle on their own count,
   so: once a round's W/NB players (the matched number) have all shot, one of them may shoot again
   before the round ends, taking turns (nobody a third time before the others a second time), but
   only as the W/NB shooter her block needs: a block holding a repeated W/NB shooter holds no other
   W/NB shooter. The exception exists only to keep the block rule satisfiable; it does not let a
   team with many women stack them ahead of its other players.
5. Nobody to match. When the matched make-up has no W/NB players (either team has none eligible),
   the W/NB minimums are waived for both teams: the team without W/NB players cannot meet them, and
   the other team matches that make-up. W/NB players then shoot like anyone else (no early repeats).
6. Goalies. No rulebook excludes goalies from shooting and the co-ed rule says "all of your players",
   so goalies may shoot and count (``shootout_goalies_may_shoot``; set it to False to exclude them,
   which also drops them from the matching counts).

Youth (2.13B, 2.14, 1.19) and indoor soccer have no W/NB quotas and no matching: the first 3 (youth;
5 in playoffs per 1.19, a setting) or 4 (indoor) shooters are different players, then sudden death,
and nobody repeats until every eligible teammate has shot. Indoor soccer: only players on the floor at
the end of the second overtime may shoot, and the goalie may not be changed.

The opponent's pool is optional: ``None`` (or an empty pool) means it is not known yet, and the
team is judged against its own roster without matching.
"""

"""Citations planted for tests/league/rulebooks/test_citations.py: right ones of every kind, and one
wrong one (line 9) that the checker must report, and nothing else."""

PLANTED = {
    # Youth 2.4: "a minimum of 3 players and one goalie to start the game"; youth 1.12, 1.13.
    "court": "Co-ed rules: Game Structure",  # co-ed "Shootouts": "Teams will select 3 players to shoot"
    "roster": "Co-ed rules: Teams",  # Indoor soccer rules: Game — "Guest players may play"
    "penalty": "Youth 3.11 (4), 3.7 (6), 2.15",  # youth 3.7 delay of game (2); Youth rules 2.13B
    # Youth 2.16: "a minimum of 3 players and one goalie" — the wrong section: 2.16 is Statistics.
}

"""Check-ins: players answer in/out/maybe for a game, captains see who is coming and the lineup.

``service`` records answers and builds attendance and lineup reports; ``queries`` holds the reads the
schedule feature shares; ``presses`` finds the league a check-in button pressed in a DM answers for.
"""

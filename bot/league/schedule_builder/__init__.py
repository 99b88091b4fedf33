"""A division's round-robin schedule made from the slots a league has booked, and the checks any
list of games must pass (the games import uses the clash checks too)."""

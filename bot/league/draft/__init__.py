"""The season draft's rules (youth 1.7): the lottery, the pick order, who is on the clock."""

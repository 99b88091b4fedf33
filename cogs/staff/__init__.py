"""A team's staff: assistant coaches and stand-in captains, and who leads each team before the draft."""

"""What players and captains send up the chain, stored and delivered through the outbox.

``relays``: a captain's message to the game's referees (with the audit trail of relays and
disputes); ``disputes``: a captain's formal dispute to the commissioners; ``notes``: a player's
private note to their captains (/tellcaptain).
"""

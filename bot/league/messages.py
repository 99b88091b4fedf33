"""How long a captain's relay, a dispute, a decision or a note to a captain may be: the one number the
slash options, the modal, the service's check and the database column all hold to."""

TEXT_LIMIT = 1000

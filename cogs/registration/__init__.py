"""/register and /registration: a season's registration, dues and the waiting list."""

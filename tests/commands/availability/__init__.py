"""/away and /guest through the command tree."""

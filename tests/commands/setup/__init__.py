"""/setup, /join and /team invite through the command tree."""

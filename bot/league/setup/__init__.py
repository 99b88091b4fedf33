"""Setting a league up: time zones as people type them, rule settings, and what a team's setup may
change."""

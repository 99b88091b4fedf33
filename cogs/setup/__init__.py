"""Setting a league up in Discord, and joining a team."""

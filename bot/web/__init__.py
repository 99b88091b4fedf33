"""The bot's small HTTP servers: calendar feeds and the optional metrics."""

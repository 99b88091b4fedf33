"""The discord.py client: the bot class, its command tree with the one error handler, and the
deadline guard that acknowledges every interaction in time."""

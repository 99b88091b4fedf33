"""The discord.py client: the bot class, its command tree with the one error handler, the deadline
guard that acknowledges every interaction in time, and the one listener that takes forms back."""

"""The discord.py client: the bot class and its command tree with the one error handler."""

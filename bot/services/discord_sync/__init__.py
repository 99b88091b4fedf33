"""What the bot keeps in step on Discord: games as scheduled events, a role per team."""

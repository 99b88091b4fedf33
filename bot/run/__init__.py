"""Running the bot: its assembly from settings, the graceful stop, and the health check."""

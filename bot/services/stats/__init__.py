"""Player statistics (bot/league/stats.py says what counts): the queries, the answers kept until something
counted changes, the weekly post and the export."""

"""Game sheets, officials, goals and late starts (bot/league/gamesheets/ holds their rules)."""

"""Who is on which team, now and in earlier seasons."""

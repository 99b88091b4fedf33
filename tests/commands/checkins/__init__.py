"""/checkin, /whoisin and /lineup through the command tree."""

"""Check-ins, who is in and the lineup."""

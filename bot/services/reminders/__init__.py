"""Game reminders and captains' lineup alerts, planned from the schedule (plan.py); each team's one
message per game and its edits (cards.py, messages.py); late drop-outs; what is queued (queued.py)."""

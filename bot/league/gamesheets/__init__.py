"""Game sheets, officials, goals and late starts: who played a game, who ran it, who scored.

Pure rules (no Discord, no SQL): who is on a team's sheet (sheet.py), who may change it, what a goal
by a player not on it becomes (goals.py), when the officials are missing (officials.py), what a late
start prompts (late_start.py), and each preset's settings (presets.py).
"""

"""The league's fixed words, shared by the rules, storage, imports and commands."""

GENDERS = ("woman", "non-binary", "man", "prefer-not-to-say")
COUNTS_TOWARD_WOMEN_MINIMUM = ("woman", "non-binary")
POSITIONS = ("skater", "goalie")
GAME_KINDS = ("regular", "seeding", "playoff")
GAME_STATUSES = ("scheduled", "final", "cancelled")
DECISIONS = ("regulation", "overtime", "shootout", "forfeit")
CHECKIN_STATUSES = ("in", "out", "maybe")

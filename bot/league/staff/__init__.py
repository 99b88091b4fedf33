"""Who takes a captain's (coach's) place for a game: youth 1.4 gives each coach an assistant coach, and 1.6
says "In case of absence of a Coach, the Assistant Coach will assume the coaching duties. In case of
absence of a Captain, he will nominate another member of the team to take over his duties in his absence."

Choices the rulebook leaves open, decided here:
- "Absence" is read from what the bot knows about the game: a coach is absent when their answer for it
  reads out, or away (a /away range covers it and they haven't answered since). A coach who hasn't
  answered, or who is on no roster and so can't answer, is not absent: for such a coach, the captain names
  a stand-in for the game instead (``/team standin``), and may name the assistant coach.
- A team with several captains is without its coach only when every one of them is absent; a team with no
  captain at all is without one for every game, so its assistant coach acts.
- A stand-in holds the captain's powers for that one game (lineup, shootout order, relays, guests, a
  dispute about it); the assistant coach holds them for each game the coach is absent from. Neither needs
  the league's captain role: being named is what counts.
"""

from __future__ import annotations

from collections.abc import Iterable

from bot.league.availability import AWAY

ABSENT = frozenset({"out", AWAY})


def coach_absent(answers: Iterable[str | None]) -> bool:
    """Every captain of the team is absent from the game (each answer as it reads, None: no answer)."""
    return all(answer in ABSENT for answer in answers)

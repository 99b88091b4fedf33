"""The closest known word to a typo, by optimal string alignment distance.

OSA distance is Levenshtein's with a swap of two neighbouring letters counting as one edit
(``offisde`` is one edit from ``offside``), each substring edited at most once. `/rule` corrects
only words of 4 to 20 letters against the few hundred rulebook words sharing their first letter,
within 1 or 2 edits, and remembers each answer, so a bounded dynamic programme in Python is fast
enough; a fuzzy-matching library would cost 2.6 MB of memory in every bot for this one call.
"""

from __future__ import annotations

from collections.abc import Sequence


def osa_distance(a: str, b: str, limit: int) -> int:
    """The OSA distance between ``a`` and ``b`` if it is at most ``limit``, else ``limit + 1``."""
    over = limit + 1
    if abs(len(a) - len(b)) > limit:
        return over
    if not a or not b:
        return max(len(a), len(b))
    before: list[int] = []  # row i - 2, for a transposition
    previous = list(range(len(b) + 1))  # row i - 1
    previous_min = 0
    for i, letter in enumerate(a, start=1):
        current = [i]
        current_min = i
        for j, other in enumerate(b, start=1):
            value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (letter != other))
            if i > 1 and j > 1 and letter == b[j - 2] and a[i - 2] == other and before[j - 2] + 1 < value:
                value = before[j - 2] + 1
            current.append(value)
            current_min = min(current_min, value)
        # A later row only grows from the last two rows: once both are past the limit, so is the end.
        if current_min > limit and previous_min + 1 > limit:
            return over
        before, previous, previous_min = previous, current, current_min
    return previous[-1] if previous[-1] <= limit else over


def closest(word: str, candidates: Sequence[str], max_distance: int) -> str | None:
    """The candidate fewest edits from ``word`` (at most ``max_distance``); the earliest on a tie."""
    best: str | None = None
    limit = max_distance
    for candidate in candidates:
        distance = osa_distance(word, candidate, limit)
        if distance <= limit:
            best = candidate
            if distance == 0:
                break
            limit = distance - 1  # from now on only a strictly closer word replaces it
    return best


def did_you_mean(name: str, known: Sequence[str]) -> str | None:
    """The known name ``name`` was probably meant to be, as it is spelled there, or None.

    For names a commissioner types into a file (teams, divisions, game ids): any case, and a slip
    of one edit (two for names of eight letters or more). A name of one or two characters has too
    many neighbours ("G7" is one edit from "G8"), so only its case is forgiven; and names that
    differ only in their numbers ("G17" and "G18", "Hawks 1" and "Hawks 2") are different names.
    """
    folded = name.casefold()
    spellings: dict[str, str] = {}
    for candidate in known:
        spellings.setdefault(candidate.casefold(), candidate)
    if folded in spellings:
        return spellings[folded]
    if len(folded) < 3:
        return None
    letters = _without_digits(folded)
    others = [c for c in spellings if _without_digits(c) != letters]
    found = closest(folded, others, 1 if len(folded) < 8 else 2)
    return spellings[found] if found is not None else None


def _without_digits(text: str) -> str:
    return "".join(ch for ch in text if not ch.isdigit())

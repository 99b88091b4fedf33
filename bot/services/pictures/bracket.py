"""The playoff bracket as a picture: rounds left to right, joined by lines, seeds, names and scores."""

from __future__ import annotations

from bot.league.playoffs import Bracket, Entrant, Matchup
from bot.services.pictures.canvas import (
    ACCENT,
    BOX,
    BOX_EDGE,
    INK,
    LINE,
    MUTED,
    Canvas,
    canvas,
    fit,
    png,
)
from bot.services.playoffs import BracketView, Score

MARGIN = 28
BOX_WIDTH = 250
ROW = 40  # one team's line in a matchup box
LABEL = 24  # the matchup id above its box
GAP = 18  # between two boxes of a round, at the first round
ROUND_GAP = 44  # between rounds: room for the lines
HEADER = 124
NAME_SIZE = 22
SMALL = 17
TITLE_SIZE = 30


def _pair_of(bracket: Bracket) -> dict[str, int]:
    """Each matchup's vertical place, in first-round pairs from the top: its first pair and how many it spans.

    Round 1 leaves out the byes; round 2 says which pair feeds each of its sides (a matchup id, or
    a seeded team straight in), so a first-round game is placed by who it feeds.
    """
    rounds = bracket.rounds
    places: dict[str, int] = {}
    if len(rounds) == 1:
        return {rounds[0][0].matchup_id: 0}
    for k, m in enumerate(rounds[1]):
        for side, source in enumerate((m.top_from, m.bottom_from)):
            if source is not None:
                places[source] = 2 * k + side
    return places


def _centre(bracket: Bracket, matchup: Matchup, index: int, unit: float, top: float) -> float:
    """The vertical centre of a matchup's box (its two lines), in pixels."""
    if matchup.round_number == 1:
        pair = _pair_of(bracket).get(matchup.matchup_id, index)
        return top + (pair + 0.5) * unit
    span = 2 ** (matchup.round_number - 1)
    return top + (index + 0.5) * span * unit


def _side(picture: Canvas, x: float, y: float, entrant: Entrant | None, source: str | None,
          winner: Entrant | None, score: int | None) -> None:
    """One team's line: seed, name, score; the winner in heavy ink with a bar, a loser muted."""
    middle = y + ROW / 2
    if entrant is None:
        picture.text((x + 12, middle), fit(f"Winner of {source}" if source else "TBD", SMALL, BOX_WIDTH - 24),
                     SMALL, MUTED)
        return
    won = winner is not None and winner == entrant
    lost = winner is not None and not won
    colour = MUTED if lost else INK
    if won:
        picture.draw.rectangle((x, y + 4, x + 4, y + ROW - 4), fill=ACCENT)
    picture.text((x + 34, middle), str(entrant.seed), SMALL, MUTED, anchor="rm")
    score_text = "" if score is None else str(score)
    score_room = 40 if score_text else 0
    name = fit(entrant.team, NAME_SIZE, BOX_WIDTH - 44 - score_room - 8)
    picture.text((x + 44, middle), name, NAME_SIZE, colour, bold=won)
    if score_text:
        picture.text((x + BOX_WIDTH - 12, middle), score_text, NAME_SIZE, colour, bold=won, anchor="rm")


def _box(picture: Canvas, x: float, centre: float, matchup: Matchup, score: Score | None) -> None:
    top = centre - ROW
    label = matchup.matchup_id + (f" · {score.text.split(' ', 1)[1]}" if score and " " in score.text else "")
    picture.text((x + 2, top - LABEL / 2), label, SMALL, MUTED)
    picture.draw.rounded_rectangle((x, top, x + BOX_WIDTH, top + 2 * ROW), radius=6, fill=BOX, outline=BOX_EDGE)
    picture.draw.line((x + 8, centre, x + BOX_WIDTH - 8, centre), fill=BOX_EDGE, width=1)
    _side(picture, x, top, matchup.top, matchup.top_from, matchup.winner, score.top if score else None)
    _side(picture, x, centre, matchup.bottom, matchup.bottom_from, matchup.winner, score.bottom if score else None)


def bracket_png(view: BracketView, title: str = "Playoff bracket") -> bytes:
    """The bracket of ``view`` as a PNG: one column per round, the final on the right, the champion on top."""
    bracket = view.bracket
    rounds = bracket.rounds
    pairs = 2 ** (len(rounds) - 1)  # first-round position pairs, byes included
    unit = 2 * ROW + LABEL + GAP
    width = 2 * MARGIN + len(rounds) * BOX_WIDTH + (len(rounds) - 1) * ROUND_GAP
    height = HEADER + 8 + pairs * unit + MARGIN
    picture = canvas(width, height)
    heading = f"{title} · {view.division}" if view.division else title
    picture.text((MARGIN, MARGIN + 8), fit(heading, TITLE_SIZE, width - 2 * MARGIN), TITLE_SIZE, INK, bold=True)
    champion = bracket.champion
    picture.text((MARGIN, MARGIN + 44), fit(f"Champion: {champion}" if champion else "Champion: to be decided",
                                            NAME_SIZE, width - 2 * MARGIN),
                 NAME_SIZE, ACCENT if champion else MUTED, bold=bool(champion))
    top = HEADER + 8
    centres: dict[str, tuple[float, float]] = {}  # matchup id -> (left x, centre y)
    for number, matchups in enumerate(rounds, start=1):
        column = float(MARGIN + (number - 1) * (BOX_WIDTH + ROUND_GAP))
        picture.text((column + 2, HEADER - 12), bracket.round_name(number), SMALL, MUTED)
        for index, matchup in enumerate(matchups):
            centres[matchup.matchup_id] = (column, _centre(bracket, matchup, index, unit, top))
    for matchups in rounds:  # lines first, boxes over them
        for matchup in matchups:
            x, centre = centres[matchup.matchup_id]
            for source, row_middle in ((matchup.top_from, centre - ROW / 2), (matchup.bottom_from, centre + ROW / 2)):
                if source is None or source not in centres:
                    continue
                from_x, from_centre = centres[source]
                start, elbow = from_x + BOX_WIDTH, from_x + BOX_WIDTH + ROUND_GAP / 2
                picture.draw.line((start, from_centre, elbow, from_centre, elbow, row_middle, x, row_middle),
                                  fill=LINE, width=2, joint="curve")
    for matchups in rounds:
        for matchup in matchups:
            x, centre = centres[matchup.matchup_id]
            _box(picture, x, centre, matchup, view.scores.get(matchup.matchup_id))
    return png(picture)

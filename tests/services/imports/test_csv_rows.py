"""The CSV reader on its own: whatever delimiter and quoting a spreadsheet writes, the same rows."""

from __future__ import annotations

import csv
import io

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.league.vocabulary import GENDER_SPELLINGS, POSITION_SPELLINGS
from bot.services.imports.csv_rows import COLUMNS, read_players, sniff
from bot.services.imports.player_names import named_rows, with_ids

# Names with the characters that make quoting matter: delimiters, quotes, spaces, accents (a tab
# in a name is dropped as a control character, so none here).
NAMES = st.text(alphabet="abcxyzÉé ,;\"'-", min_size=1, max_size=12).filter(lambda n: n.strip(" \t"))
DELIMITERS = st.sampled_from([",", ";", "\t"])


def written(rows: list[list[str]], delimiter: str, header: tuple[str, ...]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, delimiter=delimiter, lineterminator="\r\n")  # as Excel writes
    writer.writerow(header)
    writer.writerows(rows)
    return out.getvalue()


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(NAMES, NAMES), min_size=1, max_size=6), DELIMITERS,
       st.sampled_from(sorted(POSITION_SPELLINGS)), st.sampled_from(sorted(GENDER_SPELLINGS)))
def test_any_delimiter_and_quoting_reads_the_same_rows(rows: list[tuple[str, str]], delimiter: str,
                                                       position: str, gender: str) -> None:
    header = ("discord_id", "name", "team", "position", "gender")
    cells = [[str(i + 1), name, team, position, gender] for i, (name, team) in enumerate(rows)]
    parsed = read_players(written(cells, delimiter, header))
    assert parsed.delimiter == delimiter
    assert parsed.problems == []
    assert [(r.line, r.name, r.team) for r in parsed.rows] == [
        (i + 2, name.strip(), team.strip()) for i, (name, team) in enumerate(rows)]
    assert {r.position for r in parsed.rows} == {POSITION_SPELLINGS[position]}
    assert {r.gender for r in parsed.rows} == {GENDER_SPELLINGS[gender]}


@settings(max_examples=60, deadline=None)
@given(DELIMITERS, st.integers(min_value=0, max_value=2), st.booleans())
def test_usernames_are_replaced_in_place_keeping_the_delimiter_and_lines(
        delimiter: str, blank_lines: int, sep_line: bool) -> None:
    """/import players resolves usernames before the importer reads the file: both must agree on
    its delimiter and line numbers, or the ids land on the wrong rows."""
    above = (f"sep={delimiter}\n" if sep_line else "") + "\n" * blank_lines
    d = delimiter
    text = (f"{above}discord_id{d}name{d}team{d}position\n@al{d}Al{d}Hawks{d}skater\n"
            f"12{d}Bo{d}Hawks{d}skater\nbo_2{d}Bo Two{d}Owls{d}g\n")
    offset = above.count("\n")
    assert sniff(text, COLUMNS["players"]) == (delimiter, offset)
    assert named_rows(text) == [(offset + 2, "al"), (offset + 4, "bo_2")]
    parsed = read_players(with_ids(text, {offset + 2: 501, offset + 4: 502}))
    assert parsed.problems == []
    assert [(r.line, r.discord_id, r.name) for r in parsed.rows] == [
        (offset + 2, 501, "Al"), (offset + 3, 12, "Bo"), (offset + 4, 502, "Bo Two")]

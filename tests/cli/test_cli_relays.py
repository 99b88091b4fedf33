"""`sideline relays export`: the relays and disputes audit trail, run as an operator would."""

from __future__ import annotations

import asyncio
import csv
import io
import json
import re
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.clock import FixedClock
from bot.config.settings import Settings
from bot.services.messages.relays import AUDIT_COLUMNS
from tests.cli.test_cli import sideline
from tests.commands.messages.test_relays import press_on
from tests.conftest import CHANNELS, GUILD, SampleLeague, league_config, make_settings
from tests.harness import Attachment, Harness

HAWKS_CAPTAIN = 500_000_000_000_000_001


@pytest.fixture
def settings() -> Settings:
    """The co-ed sample league with disputes turned on (the preset's "the referee's call stands" has none)."""
    return make_settings(league_config(rules={"dispute_calls_allowed": True}))


def write_config(tmp_path: Path, db_url: str) -> str:
    path = tmp_path / "relays.toml"
    path.write_text(f'[bot]\ndatabase_url = "{db_url}"\n\n[[leagues]]\nkey = "coed"\nname = "Coed League"\n'
                    f'guild_id = {GUILD}\npreset = "coed-ball-hockey"\ntimezone = "America/Toronto"\n\n'
                    '[leagues.rules]\ndispute_calls_allowed = true\n')
    return str(path)


async def export(config: str, *args: str) -> tuple[int, str, str]:
    result = await asyncio.to_thread(sideline, "relays", "export", "--league", "coed", "--config", config, *args)
    return result.returncode, result.stdout, result.stderr


async def test_export_lists_every_relay_and_dispute_with_what_became_of_it(
        harness: Harness, league: SampleLeague, clock: FixedClock, db_url: str, tmp_path: Path) -> None:
    config = write_config(tmp_path, db_url)
    code, out, err = await export(config, "--csv")
    assert code == 0, err
    assert out.splitlines() == [",".join(AUDIT_COLUMNS)]  # nothing yet: the header only

    clock.set(datetime(2030, 1, 11, 23, 0, tzinfo=UTC))
    captain = league.captain("Hawks")
    await harness.slash("/relay send", as_=captain, game="G1", message="=HYPERLINK(\"http://x\") ice is wet")
    await harness.slash("/relay send", as_=captain, game="G1", message="Goalie, line 2")
    await harness.bot.courier.deliver_due()
    posted = harness.discord.channel_messages(CHANNELS["referees"])[0]
    await press_on(harness, posted, "sideline:relay:ack:1", as_=league.referee())
    await harness.submit_modal("sideline:relay:answer:2", {"answer": "Seen, thanks"}, as_=league.referee())
    clock.set(datetime(2030, 1, 12, 2, 0, tzinfo=UTC))
    await harness.slash("/dispute file", as_=captain, game="G1", message="Offside goal")
    await harness.slash("/dispute decide", as_=league.commissioner(), id="1", outcome="upheld", text="Goal removed")

    code, out, err = await export(config, "--csv")
    assert code == 0, err
    rows = list(csv.DictReader(io.StringIO(out)))
    assert [(r["kind"], r["id"], r["status"]) for r in rows] == [
        ("relay", "1", "acknowledged"), ("relay", "2", "answered"), ("dispute", "1", "decided")]
    first, second, dispute = rows
    assert first["message"].startswith("'=HYPERLINK")  # a spreadsheet won't run it
    assert (first["game"], first["team"], first["from_discord_id"], first["from_name"]) == (
        "G1", "Hawks", str(HAWKS_CAPTAIN), "Hawks Captain")
    assert first["acknowledged_by"] == "Ref Rita" and first["resolved_at"] == ""
    assert first["created_at"] == "2030-01-11T23:00:00+00:00"
    assert (second["resolved_by"], second["response"]) == ("Ref Rita", "Seen, thanks")
    assert second["acknowledged_by"] == "Ref Rita"  # an answer counts as an acknowledgement
    assert (dispute["outcome"], dispute["response"], dispute["resolved_by"]) == ("upheld", "Goal removed",
                                                                                 "Commish Kay")
    assert dispute["due_at"] == "2030-01-17T02:00:00+00:00"

    code, out, err = await export(config, "--json")
    assert code == 0, err
    assert [r["kind"] for r in json.loads(out)] == ["relay", "relay", "dispute"]
    code, out, err = await export(config)
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0].startswith("relay #1  2030-01-11T23:00:00+00:00  G1  Hawks  Hawks Captain: =HYPERLINK")
    assert lines[0].endswith("[acknowledged by Ref Rita]") and lines[1].endswith("[answered by Ref Rita]")
    assert lines[2].endswith("[upheld by Commish Kay]")


async def test_an_unknown_league_is_named(tmp_path: Path, db_url: str) -> None:
    config = write_config(tmp_path, db_url)
    result = await asyncio.to_thread(sideline, "relays", "export", "--league", "nope", "--csv", "--config", config)
    assert result.returncode == 2 and "nope" in result.stderr and "coed" in result.stderr


#: What a spreadsheet runs as a formula (OWASP's CSV injection list).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
HOSTILE = '=HYPERLINK("http://x","y")'


async def test_spreadsheet_formula_injection_relays_export_escapes_the_game(
        harness: Harness, league: SampleLeague, clock: FixedClock, db_url: str, tmp_path: Path) -> None:
    """A game id that is a formula came out live in the relays CSV (only free text was escaped)."""
    clock.set(datetime(2030, 1, 11, 23, 0, tzinfo=UTC))
    games = f'game_id,starts_at,home,away,venue,kind\n"{HOSTILE.replace(chr(34), chr(34) * 2)}",' \
            '2030-01-11 21:00,Hawks,Owls,Rink A,regular\n'
    reply = await harness.slash("/import games", as_=league.commissioner(),
                                file=Attachment("g.csv", games.encode()))
    assert "1 created" in reply.text, reply.text
    sent = await harness.slash("/relay send", as_=league.captain("Hawks"), game=HOSTILE, message="+1 ref please")
    assert sent.ephemeral and "Sorry" not in sent.text, sent.text
    code, out, err = await export(write_config(tmp_path, db_url), "--csv")
    assert code == 0, err
    (row,) = list(csv.DictReader(io.StringIO(out)))
    assert row["game"] == "'" + HOSTILE and row["message"] == "'+1 ref please"
    assert not [cell for cell in row.values() if cell.startswith(FORMULA_STARTS)]


def _exports() -> list[tuple[str, Callable[[list[dict[str, object]], io.StringIO], None]]]:
    """Every CSV the project writes, as (name, write these rows)."""
    def relays(rows: list[dict[str, object]], out: io.StringIO) -> None:
        from bot.cli.relays import write_audit_csv

        write_audit_csv(rows, out)  # type: ignore[arg-type]

    def discipline(only: str | None) -> Callable[[list[dict[str, object]], io.StringIO], None]:
        def write(rows: list[dict[str, object]], out: io.StringIO) -> None:
            from bot.cli.discipline import KINDS
            from bot.cli.discipline import write_csv as discipline_csv

            discipline_csv({k: (rows if k == (only or "penalties") else []) for k in KINDS}, only, out)
        return write

    from bot.cli.discipline import KINDS

    return [("relays", relays), ("discipline", discipline(None))] + [
        (f"discipline --only {k}", discipline(k)) for k in KINDS]


@pytest.mark.parametrize(("name", "write"), _exports(), ids=[name for name, _ in _exports()])
def test_spreadsheet_formula_injection_every_csv_export_escapes_every_column(
        name: str, write: Callable[[list[dict[str, object]], io.StringIO], None]) -> None:
    rows: list[dict[str, object]] = [{c: start + "cmd|' /C calc'!A0" for c in AUDIT_COLUMNS}
                                     for start in FORMULA_STARTS]
    out = io.StringIO()
    write(rows, out)
    cells = [cell for row in csv.reader(io.StringIO(out.getvalue(), newline="")) for cell in row]
    assert len(cells) > len(rows) * len(AUDIT_COLUMNS), name
    assert not [c for c in cells if c.startswith(FORMULA_STARTS)], name


def test_spreadsheet_formula_injection_no_csv_is_written_around_the_escaping() -> None:
    """A new export can't forget the escaping: only storage/csv_export.py makes a csv writer for people to
    open. The two other writers put resolved ids back into an uploaded players or teams file, and turn an
    uploaded workbook's sheet into CSV, on their way to the importer; nobody opens what they write, and
    escaping would change the names imported."""
    root = Path(__file__).resolve().parents[2]
    not_exports = {"storage/csv_export.py", "bot/services/imports/player_names.py",
                   "bot/services/imports/workbook.py"}
    writers = [str(p.relative_to(root)) for folder in ("bot", "cogs", "storage") for p in (root / folder).rglob("*.py")
               if re.search(r"csv\.(DictWriter|writer)\(", p.read_text())]
    assert set(writers) <= not_exports, set(writers) - not_exports

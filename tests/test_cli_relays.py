"""`sideline relays export`: the relays and disputes audit trail, run as an operator would."""

from __future__ import annotations

import asyncio
import csv
import io
import json
from datetime import UTC, datetime
from pathlib import Path

from bot.clock import FixedClock
from bot.services.relays import AUDIT_COLUMNS
from tests.commands.test_relay import press_on
from tests.conftest import CHANNELS, GUILD, SampleLeague
from tests.harness import Harness
from tests.test_cli import sideline

HAWKS_CAPTAIN = 500_000_000_000_000_001


def write_config(tmp_path: Path, db_url: str) -> str:
    path = tmp_path / "relays.toml"
    path.write_text(f'[bot]\ndatabase_url = "{db_url}"\n\n[[leagues]]\nkey = "coed"\nname = "Coed League"\n'
                    f'guild_id = {GUILD}\npreset = "coed-ball-hockey"\ntimezone = "America/Toronto"\n')
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

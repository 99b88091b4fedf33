"""`sideline relays export --league KEY [--csv | --json]`: the relays and disputes audit trail."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from bot.csv_export import write_csv
from bot.settings import Settings


async def _audit_rows(settings: Settings, league_key: str) -> list[dict[str, str]]:
    from sqlalchemy import select

    from bot.services.messages.relays import audit_trail
    from storage import migrate
    from storage.db import create_engine, session_factory
    from storage.models import League

    league = settings.league(league_key)  # SettingsError names the known keys
    engine = create_engine(settings.database_url)
    try:
        await migrate.upgrade(engine)
        async with session_factory(engine)() as session:
            league_id = await session.scalar(select(League.id).where(League.key == league.key))
            return [] if league_id is None else await audit_trail(session, league_id)
    finally:
        await engine.dispose()


def write_audit_csv(rows: list[dict[str, str]], out: Any) -> None:
    """The audit trail as CSV, every cell escaped for spreadsheets (the game id too)."""
    from bot.services.messages.relays import AUDIT_COLUMNS

    write_csv(out, AUDIT_COLUMNS, rows)


async def cmd_relays_export(args: argparse.Namespace, settings: Settings) -> int:
    rows = await _audit_rows(settings, args.league)
    if args.csv:
        write_audit_csv(rows, sys.stdout)
    elif args.json:
        print(json.dumps(rows, indent=2, ensure_ascii=False))
    elif not rows:
        print(f"league {args.league}: no relays or disputes yet")
    else:
        for r in rows:
            outcome = r["outcome"] or r["status"]
            by = f" by {r['resolved_by'] or r['acknowledged_by']}" if (r["resolved_by"] or r["acknowledged_by"]) else ""
            text = " ".join(r["message"].split())
            print(f"{r['kind']} #{r['id']}  {r['created_at']}  {r['game']}  {r['team']}  {r['from_name']}: "
                  f"{text[:80]}{'…' if len(text) > 80 else ''}  [{outcome}{by}]")
    return 0


def register(subparsers: Any) -> None:
    """Add `sideline relays export` (called by bot.cli through bot.cli_features.REGISTRARS)."""
    relays = subparsers.add_parser("relays", help="captains' relays to referees and disputes")
    sub = relays.add_subparsers(dest="relays_command", required=True, metavar="COMMAND")
    export = sub.add_parser("export", help="the audit trail: every relay and dispute, who, when, what became of it")
    export.add_argument("--league", required=True, help="league key from the config")
    form = export.add_mutually_exclusive_group()
    form.add_argument("--csv", action="store_true", help="CSV with a header row on stdout")
    form.add_argument("--json", action="store_true", help="a list of objects, oldest first")
    export.set_defaults(handler=cmd_relays_export)

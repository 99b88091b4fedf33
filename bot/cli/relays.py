"""`sideline relays export --league KEY [--csv | --json]`: the relays and disputes audit trail."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from bot.cli.league_keys import LEAGUE_HELP, open_league
from bot.config.settings import Settings
from bot.services.messages.relays import AUDIT_COLUMNS, audit_trail
from storage.csv_export import write_csv


async def _audit_rows(settings: Settings, league_key: str) -> list[dict[str, str]]:
    async with open_league(settings, league_key) as (db, league), db.sessions() as session:
        return [] if league.id is None else await audit_trail(session, league.id)


def write_audit_csv(rows: list[dict[str, str]], out: Any) -> None:
    """The audit trail as CSV, every cell escaped for spreadsheets (the game id too)."""
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
    """Add `sideline relays export` (called by bot/cli/__init__.py)."""
    relays = subparsers.add_parser("relays", help="captains' relays to referees and disputes")
    sub = relays.add_subparsers(dest="relays_command", required=True, metavar="COMMAND")
    export = sub.add_parser("export", help="the audit trail: every relay and dispute, who, when, what became of it")
    export.add_argument("--league", required=True, help=LEAGUE_HELP)
    form = export.add_mutually_exclusive_group()
    form.add_argument("--csv", action="store_true", help="CSV with a header row on stdout")
    form.add_argument("--json", action="store_true", help="a list of objects, oldest first")
    export.set_defaults(handler=cmd_relays_export)

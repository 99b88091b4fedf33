"""`sideline discipline export --league KEY [--csv | --json] [--only penalties|suspensions|appeals|missed_cleanups]`.

``--csv`` writes one CSV table on stdout: a ``record`` column (penalty, suspension, appeal, missed_cleanup)
followed by the union of the records' columns, so any CSV reader takes it in one go; ``--only`` writes one
record kind with just its columns (and no ``record`` column). Times are ISO 8601 in UTC. Text that
a spreadsheet would run as a formula (starting with = + - @) is prefixed with an apostrophe, in
every column (storage/csv_export.py).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from bot.cli.league_keys import LEAGUE_HELP, open_league
from bot.config.settings import Settings
from bot.services.discipline.cleanup import export_rows
from bot.services.discipline.core import export
from storage.csv_export import write_csv as write_rows

KINDS = {"penalties": "penalty", "suspensions": "suspension", "appeals": "appeal", "missed_cleanups": "missed_cleanup"}


def write_csv(tables: dict[str, list[dict[str, object]]], only: str | None, out: Any) -> None:
    kinds = [only] if only else list(KINDS)
    columns: list[str] = [] if only else ["record"]
    for kind in kinds:
        for row in tables[kind]:
            columns += [c for c in row if c not in columns]
    if only and not tables[only]:
        columns = []
    write_rows(out, columns, (row if only else {"record": KINDS[kind], **row}
                              for kind in kinds for row in tables[kind]))


async def cmd_discipline_export(args: argparse.Namespace, settings: Settings) -> int:
    async with open_league(settings, args.league) as (db, league), db.sessions() as session:
        found = await export(session, league.id) if league.id is not None else None
        cleanups = await export_rows(session, league.id) if league.id is not None else []
    tables: dict[str, list[dict[str, object]]] = {
        "penalties": found.penalties if found else [], "suspensions": found.suspensions if found else [],
        "appeals": found.appeals if found else [], "missed_cleanups": cleanups}
    if args.only:
        tables = {k: (v if k == args.only else []) for k, v in tables.items()}
    if args.csv:
        write_csv(tables, args.only, sys.stdout)
    elif args.json:
        print(json.dumps(tables if not args.only else tables[args.only], indent=2, default=str))
    else:
        counts = ", ".join(f"{len(rows)} {kind.replace('_', ' ')}" for kind, rows in tables.items()
                           if not args.only or kind == args.only)
        print(f"league {league.key}: {counts} (use --csv or --json for the records)")
    return 0


def register(subparsers: Any) -> None:
    """Add `sideline discipline export` (called by bot/cli/__init__.py)."""
    discipline = subparsers.add_parser("discipline", help="a league's penalties, suspensions, appeals and missed "
                                                          "cleanups")
    sub = discipline.add_subparsers(dest="discipline_command", required=True, metavar="COMMAND")
    exp = sub.add_parser("export", help="penalties, suspensions, appeals and missed cleanups as CSV or JSON")
    exp.add_argument("--league", required=True, help=LEAGUE_HELP)
    fmt = exp.add_mutually_exclusive_group()
    fmt.add_argument("--csv", action="store_true", help="one CSV table with a `record` column")
    fmt.add_argument("--json", action="store_true",
                     help="{penalties: [...], suspensions: [...], appeals: [...], missed_cleanups: [...]}")
    exp.add_argument("--only", choices=sorted(KINDS), help="one kind of record, with only its columns")
    exp.set_defaults(handler=cmd_discipline_export)

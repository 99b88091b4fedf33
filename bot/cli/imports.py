"""`sideline import teams|players|games|results FILE --league KEY [--allow-past]`: a CSV, all or nothing."""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from pathlib import Path
from typing import Any

from bot.cli.common import fail, say
from bot.cli.league_keys import LEAGUE_HELP, open_league
from bot.clock import SystemClock
from bot.config.settings import Settings
from bot.services.imports.csv_rows import COLUMNS, CsvImportError


async def cmd_import(args: argparse.Namespace, settings: Settings) -> int:
    path = Path(args.file)
    try:
        data = await asyncio.to_thread(path.read_bytes)
    except OSError as exc:
        return fail(f"can't read {path}: {exc.strerror}")
    try:
        # As at start: a renamed key of the file keeps its server's data.
        async with open_league(settings, args.league, register=True) as (db, league):
            for note in league.notes:
                print(f"sideline: {note}", file=sys.stderr)
            report = await db.services().imports.importer.run(
                args.kind, data, league.settings, now=SystemClock().now(), allow_past=args.allow_past)
    except CsvImportError as exc:
        print(f"sideline: {path}: nothing was imported:", file=sys.stderr)
        problems = [f"{path}:{problem}" if problem.line else f"{path}: {problem}" for problem in exc.problems]
        for problem in problems:
            print(f"  {problem}", file=sys.stderr)
        if args.json:  # a script reads the failure where it reads answers
            print(json.dumps({"error": f"{path}: nothing was imported", "exit_code": 1, "problems": problems}))
        return 1
    say(args, f"{path}: {report.summary()}", {"kind": report.kind, "created": report.created,
                                              "updated": report.updated, "unchanged": report.unchanged,
                                              "delimiter": report.delimiter, "warnings": report.warnings,
                                              "notes": report.notes})
    return 0


def columns_help() -> str:
    """The columns of each kind of file, from the importer's own definitions (so -h can't drift)."""
    lines = ["CSV files: a header row, then one row per line; UTF-8 (Excel: \"CSV UTF-8\"), separated by",
             "commas, semicolons or tabs; extra columns are ignored. Columns of each kind ([optional]):"]
    for kind, columns in COLUMNS.items():
        header = ",".join([*columns.required, *(f"[{c}]" for c in columns.optional)])
        lines.append(f"  {kind}: {header}")
        lines += [f"      {name}: {note}" for name, note in columns.notes.items()]
    lines.append("Every problem is reported by line and nothing is imported until the file is clean; "
                 "importing the same file again changes nothing.")
    return "\n".join(lines)


def register(subparsers: Any) -> None:
    imp = subparsers.add_parser("import", help="import teams, players, games or results from CSV",
                                description="Import a CSV file into one league, all or nothing.",
                                epilog=columns_help(), formatter_class=argparse.RawDescriptionHelpFormatter)
    imp.add_argument("kind", choices=list(COLUMNS), help="what the file holds (its columns are below)")
    imp.add_argument("file", help="the CSV file to import")
    imp.add_argument("--league", required=True, help=LEAGUE_HELP)
    imp.add_argument("--allow-past", action="store_true", help="allow games that already started")
    imp.add_argument("--json", action="store_true")
    imp.set_defaults(handler=cmd_import)

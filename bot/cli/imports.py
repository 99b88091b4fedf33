"""`sideline import teams|players|games|results FILE --league KEY [--allow-past]`: a CSV, all or nothing."""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from pathlib import Path
from typing import Any

from bot.cli.common import fail, open_database, say
from bot.clock import SystemClock
from bot.imports.csv_rows import CsvImportError
from bot.settings import Settings


async def cmd_import(args: argparse.Namespace, settings: Settings) -> int:
    league = settings.league(args.league)
    path = Path(args.file)
    try:
        data = await asyncio.to_thread(path.read_bytes)
    except OSError as exc:
        return fail(f"can't read {path}: {exc.strerror}")
    try:
        async with open_database(settings) as db:
            _, notes = await db.register_leagues()  # as at start: a renamed key keeps its server's data
            for note in notes:
                print(f"sideline: {note}", file=sys.stderr)
            report = await db.services().imports.importer.run(
                args.kind, data, league, now=SystemClock().now(), allow_past=args.allow_past)
    except CsvImportError as exc:
        print(f"sideline: {path}: nothing was imported:", file=sys.stderr)
        problems = [f"{path}:{problem}" if problem.line else f"{path}: {problem}" for problem in exc.problems]
        for problem in problems:
            print(f"  {problem}", file=sys.stderr)
        if args.json:  # a script reads the failure where it reads answers
            print(json.dumps({"error": f"{path}: nothing was imported", "exit_code": 1, "problems": problems}))
        return 1
    say(args, f"{path}: {report.summary()}", {"kind": report.kind, "created": report.created,
                                              "updated": report.updated, "unchanged": report.unchanged})
    return 0


def register(subparsers: Any) -> None:
    imp = subparsers.add_parser("import", help="import teams, players, games or results from CSV")
    imp.add_argument("kind", choices=["teams", "players", "games", "results"])
    imp.add_argument("file")
    imp.add_argument("--league", required=True, help="league key from the config")
    imp.add_argument("--allow-past", action="store_true", help="allow games that already started")
    imp.add_argument("--json", action="store_true")
    imp.set_defaults(handler=cmd_import)

"""`sideline rules import FILE --league KEY`, `sideline rules search --league KEY [--json] QUERY` and
`sideline rules show --league KEY [--json]` (the effective settings, as /setup show lists them)."""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path
from typing import Any

from bot.cli.common import fail
from bot.cli.league_keys import LEAGUE_HELP, open_league
from bot.config.settings import Settings
from bot.services.rulebooks.choice import RulebookInUse
from bot.services.rulebooks.lookup import NoRulebook, UnreadableRulebook
from bot.services.setup.league_setup import Actor

SEARCH_LIMIT = 5
PREVIEW_CHARS = 240


async def cmd_rules_import(args: argparse.Namespace, settings: Settings) -> int:
    path = Path(args.file)
    # The bot mirrors the file's leagues at start and the CLI may run first: as at start, a renamed key
    # keeps its server's data and a swap is refused.
    async with open_league(settings, args.league, register=True) as (db, league):
        assert league.id is not None  # registered, or stored by /setup
        try:
            result = await db.services().rules.import_file(league.id, path)
        except UnreadableRulebook as exc:
            return fail(f"{exc.message} Nothing was imported.")
    if args.json:
        print(json.dumps({"league": args.league, **result.as_dict()}, indent=2))
    else:
        was = f", replacing {result.replaced}" if result.replaced else ""
        print(f"{path}: imported {result.sections} sections into league {args.league}{was}")
    return 0


async def cmd_rules_search(args: argparse.Namespace, settings: Settings) -> int:
    query = " ".join(args.query)
    async with open_league(settings, args.league) as (db, league):
        try:
            if league.id is None:
                raise NoRulebook()
            hits = await db.services().rules.search(league.id, query, limit=args.limit)
        except NoRulebook:
            return fail(f"league {args.league} has no rulebook yet; import one with "
                        f"`sideline rules import FILE --league {args.league}`")
    if args.json:
        print(json.dumps([hit.as_dict() for hit in hits], indent=2))
        return 0
    if not hits:
        print(f"no section matches {query!r}")
        return 0
    for rank, hit in enumerate(hits, start=1):
        text = " ".join(hit.text.split())
        preview = text if len(text) <= PREVIEW_CHARS else text[: PREVIEW_CHARS - 1].rstrip() + "…"
        print(f"{rank}. {hit.label}  (score {hit.score:.2f})\n   {preview}")
    return 0


def _plain(text: str) -> str:
    """Discord mentions as a terminal shows them: <@1> is user 1, <@&2> role 2, <#3> channel 3."""
    text = re.sub(r"<@&(\d+)>", r"role \1", text)
    text = re.sub(r"<@!?(\d+)>", r"user \1", text)
    return re.sub(r"<#(\d+)>", r"channel \1", text)


async def cmd_rules_show(args: argparse.Namespace, settings: Settings) -> int:
    """Which rulebook the league reads, then every setting with its source and rulebook citation: /setup
    show's own list."""
    async with open_league(settings, args.league) as (db, known):
        services = db.services()
        league = known.settings
        _, shown = await services.setup.show(league.guild_id, Actor(discord_id=0, manages_server=True))
        rulebook = (RulebookInUse("none", league.preset, configured=league.rulebook) if known.id is None
                    else await services.rulebooks.in_use(league, known.id))
    rows = [{"key": s.key, "value": _plain(s.value), "source": _plain(s.source), "citation": s.citation,
             "note": s.note} for s in shown]
    if args.json:
        print(json.dumps({"league": league.key, "name": league.name, "rulebook": rulebook.as_dict(),
                          "settings": rows}, indent=2, ensure_ascii=False))
        return 0
    width = max(len(r["key"]) for r in rows)
    print(f"{league.name} ({league.key}, {league.preset}): value, where it comes from, rulebook section")
    print(f"  rulebook: {_plain(rulebook.describe(in_discord=False))}")
    for r in rows:
        cited = f"; {r['citation']}" if r["citation"] else ""
        print(f"  {r['key']:<{width}}  {r['value']}  [{r['source']}{cited}]")
        if r["note"]:
            print(f"  {'':<{width}}  {r['note']}")
    return 0


def register(subparsers: Any) -> None:
    """Add `sideline rules import|search` (called by bot/cli/__init__.py)."""
    rules = subparsers.add_parser("rules", help="import a league's rulebook, search it, show the settings")
    sub = rules.add_subparsers(dest="rules_command", required=True, metavar="COMMAND")

    imp = sub.add_parser("import", help="replace a league's rulebook with a text or Markdown file")
    imp.add_argument("file", help="the rulebook, UTF-8 plain text or Markdown")
    imp.add_argument("--league", required=True, help=LEAGUE_HELP)
    imp.add_argument("--json", action="store_true")
    imp.set_defaults(handler=cmd_rules_import)

    search = sub.add_parser("search", help="the sections that best answer a question")
    search.add_argument("--league", required=True, help=LEAGUE_HELP)
    search.add_argument("--limit", type=int, default=SEARCH_LIMIT, help=f"how many (default {SEARCH_LIMIT})")
    search.add_argument("--json", action="store_true", help="a list of {citation, title, text, score}, best first")
    search.add_argument("query", nargs="+", help="the question, e.g. how long is overtime")
    search.set_defaults(handler=cmd_rules_search)

    show = sub.add_parser("show", help="the league's effective settings, where each comes from, and citations")
    show.add_argument("--league", required=True, help="league key (config file or /setup)")
    show.add_argument("--json", action="store_true", help="{league, name, settings: [{key, value, source, ...}]}")
    show.set_defaults(handler=cmd_rules_show)

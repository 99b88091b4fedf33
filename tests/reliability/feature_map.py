"""The README's map of where each feature lives, made from the tree.

Which feature a module belongs to is said once, here; what each folder holds is read from the tree.
``python -m tests.reliability.feature_map --write`` rewrites the map in README.md;
tests/reliability/test_feature_map.py fails when the README, this list or the tree disagree.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
BEGIN = "<!-- feature map: made by `python -m tests.reliability.feature_map --write`; do not edit by hand -->"
END = "<!-- end of the feature map -->"

#: The layers' folders, as the map's columns.
LAYERS = {"cogs": "commands (`cogs/`)", "bot/league": "rules (`bot/league/`)",
          "bot/services": "use cases (`bot/services/`)", "storage/models": "tables (`storage/models/`)",
          "bot/cli": "command line (`bot/cli/`)"}

#: Each feature, and its entries (a module or a folder) in each layer.
FEATURES: list[tuple[str, dict[str, tuple[str, ...]]]] = [
    ("setting a league up in Discord, joining a team", {
        "cogs": ("setup",), "bot/league": ("setup",),
        "bot/services": ("setup", "leagues"),
        "storage/models": ("setup",), "bot/cli": ("leagues",)}),
    ("a league's rules and presets", {
        "bot/league": ("rules", "game_format", "vocabulary", "settings_doc"), "storage/models": ("core",),
        "bot/cli": ("config", "database")}),
    ("check-ins and lineups", {
        "cogs": ("checkins",), "bot/league": ("checkins",), "bot/services": ("checkins",),
        "storage/models": ("checkins",)}),
    ("games, the schedule, results, imports", {
        "cogs": ("games", "schedule", "results", "imports"),
        "bot/league": ("game_status", "local_time"), "bot/services": ("games", "schedule", "results", "imports"),
        "storage/models": ("results",), "bot/cli": ("imports",)}),
    ("the schedule generator", {
        "cogs": ("schedule_builder",), "bot/league": ("schedule_builder",), "bot/services": ("schedule_builder",),
        "bot/cli": ("schedule_builder",)}),
    ("game sheets, officials, goals, late starts", {
        "cogs": ("gamesheets",), "bot/league": ("gamesheets",), "bot/services": ("gamesheets",),
        "storage/models": ("gamesheets",)}),
    ("player statistics", {
        "cogs": ("stats",), "bot/league": ("stats",), "bot/services": ("stats",), "storage/models": ("stats",),
        "bot/cli": ("stats",)}),
    ("shootouts", {
        "cogs": ("shootouts",), "bot/league": ("shootouts",), "bot/services": ("shootouts",),
        "storage/models": ("shootouts",)}),
    ("penalties, suspensions, appeals, cleanup duty", {
        "cogs": ("discipline",), "bot/league": ("discipline",), "bot/services": ("discipline",),
        "storage/models": ("discipline",), "bot/cli": ("discipline",)}),
    ("relays, disputes, notes to captains, referees", {
        "cogs": ("messages", "referees"), "bot/league": ("messages",), "bot/services": ("messages",),
        "storage/models": ("messages",), "bot/cli": ("relays",)}),
    ("the officials' game card, arena duties", {
        "cogs": ("officials",), "bot/league": ("officials",), "bot/services": ("officials",)}),
    ("team management before the draft, assistant coaches, stand-in captains", {
        "cogs": ("staff",), "bot/league": ("staff",), "bot/services": ("staff",), "storage/models": ("staff",)}),
    ("standings and playoffs", {
        "cogs": ("standings", "playoffs", "_pictures"), "bot/league": ("standings", "playoffs"),
        "bot/services": ("standings", "playoffs", "pictures"), "bot/cli": ("standings",)}),
    ("seasons and rosters", {
        "cogs": ("seasons", "rosters"), "bot/league": ("seasons", "rosters"), "bot/services": ("seasons", "rosters"),
        "storage/models": ("seasons",), "bot/cli": ("seasons",)}),
    ("registration, eligibility, dues, the waiting list", {
        "cogs": ("registration",), "bot/league": ("registration",), "bot/services": ("registration",),
        "storage/models": ("registration",)}),
    ("the season draft: lottery, picks, the board and its clock", {
        "cogs": ("draft",), "bot/league": ("draft",), "bot/services": ("draft",), "storage/models": ("draft",)}),
    ("replacing long-term injured or absent players", {
        "cogs": ("replacements",), "bot/league": ("replacements",), "bot/services": ("replacements",),
        "storage/models": ("replacements",)}),
    ("rule-change votes", {
        "cogs": ("rulevotes",), "bot/league": ("rulevotes",), "bot/services": ("rulevotes",),
        "storage/models": ("rulevotes",)}),
    ("trades between teams", {
        "cogs": ("trades",), "bot/league": ("trades",), "bot/services": ("trades",), "storage/models": ("trades",)}),
    ("spare pool and spare requests", {
        "cogs": ("spares",), "bot/league": ("spares",), "bot/services": ("spares",), "storage/models": ("spares",)}),
    ("away ranges, guests, reminder preferences", {
        "cogs": ("availability",), "bot/league": ("availability",), "bot/services": ("availability",),
        "storage/models": ("availability",)}),
    ("reminders, deadlines, the outbox", {
        "cogs": ("deadlines",), "bot/league": ("offsets", "deadlines"),
        "bot/services": ("reminders", "deadlines", "outbox"),
        "storage/models": ("reminders", "deadlines", "outbox"), "bot/cli": ("reminders",)}),
    ("`/rule` and `/rulebook` lookups", {
        "cogs": ("rulebooks",), "bot/league": ("rulebooks",), "bot/services": ("rulebooks",),
        "storage/models": ("rulebooks",), "bot/cli": ("rules",)}),
    ("calendar feeds", {
        "cogs": ("calendar",), "bot/league": ("calendar",), "bot/services": ("calendar",),
        "storage/models": ("calendar",), "bot/cli": ("calendar",)}),
    ("the public league page", {"bot/league": ("league_page",), "bot/services": ("league_page",)}),
    ("games as Discord events, a role per team", {
        "bot/league": ("scheduled_events",), "bot/services": ("discord_sync",), "storage/models": ("discord_sync",)}),
    ("profiles, announcements, /help", {
        "cogs": ("profile", "announcements", "help"), "bot/services": ("profile", "announcements")}),
    ("what features share", {
        "cogs": ("_common",), "bot/league": ("typos",), "bot/services": ("shared", "people", "name_resolution"),
        "storage/models": ("base",),
        "bot/cli": ("main", "__main__", "common", "league_keys", "failures")}),
    ("running as a service", {"bot/cli": ("run", "health")}),
]


def entries(layer: str) -> dict[str, Path]:
    """A layer's modules and folders, by name, as they are in the tree."""
    folder = ROOT / layer
    found = {p.stem: p for p in folder.glob("*.py") if p.name != "__init__.py"}
    found |= {p.name: p for p in folder.iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    return found


def cell(path: Path) -> str:
    if path.is_file():
        return f"`{path.name}`"
    inside = sorted(p.stem for p in path.glob("*.py") if p.name != "__init__.py")
    return f"`{path.name}/` ({', '.join(f'`{m}`' for m in inside)})"


def problems() -> list[str]:
    """Entries the list names that the tree lacks, and entries of the tree no feature claims (or two do)."""
    found = []
    for layer in LAYERS:
        tree = entries(layer)
        claimed: dict[str, str] = {}
        for feature, layers in FEATURES:
            for name in layers.get(layer, ()):
                if name not in tree:
                    found.append(f"{layer}/{name} (listed under {feature!r}) is not in the tree")
                elif name in claimed:
                    found.append(f"{layer}/{name} is listed under {claimed[name]!r} and {feature!r}")
                claimed.setdefault(name, feature)
        found += [f"{layer}/{name} belongs to no feature: add it to FEATURES in {Path(__file__).name}"
                  for name in sorted(set(tree) - set(claimed))]
    return found


def render() -> str:
    tree = {layer: entries(layer) for layer in LAYERS}
    lines = ["| feature | " + " | ".join(LAYERS.values()) + " |", "| --- " * (len(LAYERS) + 1) + "|"]
    for feature, layers in FEATURES:
        cells = [", ".join(cell(tree[layer][n]) for n in layers.get(layer, ()) if n in tree[layer])
                 for layer in LAYERS]
        lines.append(f"| {feature} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


#: bot/'s rooms besides the layers above, in the order a request meets them.
ROOMS = ("run", "client", "delivery", "web", "config")


def render_rooms() -> str:
    """bot/ by role: each folder with its modules and the first line of what its ``__init__`` says."""
    lines = ["| folder | what it is for | modules |", "| --- | --- | --- |"]
    for room in ROOMS:
        folder = ROOT / "bot" / room
        doc = ast.get_docstring(ast.parse((folder / "__init__.py").read_text())) or ""
        modules = ", ".join(f"`{p.name}`" for p in sorted(folder.glob("*.py")) if p.name != "__init__.py")
        lines.append(f"| `bot/{room}/` | {' '.join(doc.split())} | {modules} |")
    loose = ", ".join(f"`{p.name}`" for p in sorted((ROOT / "bot").glob("*.py")))
    lines.append(f"| `bot/` | what every layer uses, and the composition root | {loose} |")
    return "\n".join(lines)


def readme_map(text: str) -> str:
    """The map as the README has it now (between its two markers)."""
    start, end = text.index(BEGIN) + len(BEGIN), text.index(END)
    return text[start:end].strip()


def write() -> None:
    text = README.read_text()
    start, end = text.index(BEGIN) + len(BEGIN), text.index(END)
    README.write_text(text[:start] + "\n" + whole() + "\n" + text[end:])


def whole() -> str:
    """Both tables, as the README holds them."""
    return render() + "\n\n" + render_rooms()


if __name__ == "__main__":
    if problems():
        sys.exit("\n".join(problems()))
    if "--write" in sys.argv:
        write()
    else:
        print(whole())

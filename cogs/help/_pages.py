"""What /help lists: every command a caller may use, grouped by task, in pages that fit Discord.

The list comes from the live command tree: a command's ``requires`` (bot/client/tree.py) says who may use it
and its top-level name says which task it belongs to, so a new subcommand shows up under the right
task and role without touching this file. Each line's example is built from the command's own
options: a choice from its choices, a number inside its range, a date where it asks for one.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import discord
from discord import app_commands
from discord.enums import AppCommandOptionType as Option

from bot.access import Role
from bot.client.tree import REQUIRES

Command = app_commands.Command[Any, ..., Any]

# Discord's limits on one message's embeds.
EMBEDS_PER_MESSAGE = 10
EMBED_DESCRIPTION = 4096
EMBEDS_TOTAL = 6000
FOOTER_ROOM = 40  # "Page 2 of 3 · the buttons below turn the page"

#: Tasks in the order /help shows them, and the top-level commands that belong to each.
TASKS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("Games and check-ins", ("schedule", "checkin", "whoisin", "away", "calendar", "lineup", "game-card")),
    ("Teams and players", ("join", "team", "roster", "trade", "replace", "tellcaptain", "guest", "spare", "draft")),
    ("Registration and dues", ("register", "registration")),
    ("The rulebook", ("rule", "rulebook", "rulevote")),
    ("Results and standings", ("result", "gamesheet", "goal", "shootout", "standings", "stats", "season",
                               "bracket")),
    ("Referees and discipline", ("penalty", "penalties", "cleanup", "relay", "suspend", "suspension",
                                 "suspensions", "appeal", "dispute")),
    ("Running the league", ("setup", "import", "schedule-generate", "game", "announce", "deadline")),
    ("You and this help", ("profile", "help")),
)
OTHER_TASK = "More"
TASK_OF = {name: task for task, names in TASKS for name in names}

DATE_TIME = "2030-01-10 19:00"
DATE = "2030-01-10"
#: Examples of an option, by its name, where the name alone says what goes in it.
BY_NAME = {
    "preset": "coed-ball-hockey", "timezone": "America/Toronto", "key": "roster_limit", "rule": "roster_limit",
    "citation": "2.7",
    "question": "how many players to start", "infraction": "holding", "shooter": "Jordan Lee",
    "audience": "commissioners", "section": "lineup", "season": "Fall 2026", "division": "Junior",
    "deadline": "1", "dispute": "1", "name_or_member": "@member", "players": "Jordan Lee, Sam Park",
    "shooters": "Jordan Lee, Sam Park, Riley Cole", "preferred": "Jordan Lee", "matchup": "R1-M2",
    "registration": "1", "payment_link": "https://example.org/pay", "draft_date": DATE, "amount": "60",
    "players_out": "Jordan Lee", "players_in": "Sam Park, Riley Cole", "takes_effect": DATE_TIME,
}
#: Free text, where the option's description gives no example of its own.
FREE_TEXT = {"message": "your message", "reason": "your reason", "text": "your reasons", "note": "a note",
             "name": "a name"}
#: Whole numbers, by option name; any other takes 1 (or its lowest allowed value).
NUMBERS = {"home": 3, "away": 2, "shootout_home": 2, "shootout_away": 1, "games": 2, "teams": 4, "weeks": 10,
           "minute": 12, "tied_at": 3, "points": -1, "suspend": 2}
EXAMPLE_IN_DESCRIPTION = re.compile(r"\be\.g\. [“\"]?(?P<example>[^”\";()]+?)[”\"]?(?:[;()]|$)")


@dataclass(frozen=True)
class Samples:
    """The league's own names where an example needs a game or a team (the caller's next game)."""

    game: str = "G1"
    home: str = "Tigers"
    away: str = "Lions"


def leaf_commands(tree: app_commands.CommandTree[Any]) -> list[Command]:
    out: list[Command] = []
    for command in tree.get_commands(type=discord.AppCommandType.chat_input):
        if isinstance(command, app_commands.Group):
            out += [c for c in command.walk_commands() if isinstance(c, app_commands.Command)]
        elif isinstance(command, app_commands.Command):
            out.append(command)
    return sorted(out, key=lambda c: c.qualified_name)


def usable_by(command: Command, held: Iterable[Role]) -> bool:
    """Who may use it, as the services check: no ``requires`` is everyone."""
    needs = command.extras.get(REQUIRES, ())
    return not needs or any(role.value in needs for role in held)


def task_of(command: Command) -> str:
    return TASK_OF.get(command.qualified_name.split()[0], OTHER_TASK)


def example_value(command: Command, option: app_commands.Parameter, samples: Samples) -> str:
    """What a person would put in this option: of its type, inside its range, one of its choices."""
    if option.choices:
        return str(option.choices[0].name)
    kind = option.type
    if kind is Option.boolean:
        return "True"
    if kind in (Option.integer, Option.number):
        number = NUMBERS.get(option.name, 1)
        low = option.min_value if option.min_value is not None else number
        high = option.max_value if option.max_value is not None else number
        return str(int(min(max(number, low), high)))
    if kind in (Option.user, Option.mentionable):
        return "@member"
    if kind is Option.role:
        return f"@{option.display_name}"
    if kind is Option.channel:
        return "#team-channel" if option.name == "channel" else f"#{option.display_name}"
    if kind is Option.attachment:
        text = option.description.casefold()
        return f"{command.name}.csv" if "csv" in text else "rulebook.txt" if ".txt" in text else "file"
    return text_example(option, samples)


def text_example(option: app_commands.Parameter, samples: Samples) -> str:
    """The league's own game or team, else a known shape, else the description's own example."""
    by_sample = {"game": samples.game, "home": samples.home, "away": samples.away, "team": samples.home,
                 "winner": samples.home, "forfeit_team": samples.away}
    described = EXAMPLE_IN_DESCRIPTION.search(option.description)
    found = by_sample.get(option.name) or BY_NAME.get(option.name)
    if found is None and "YYYY-MM-DD" in option.description:
        found = DATE_TIME if "YYYY-MM-DD HH:MM" in option.description else DATE
    if found is None:
        found = described["example"].strip() if described else FREE_TEXT.get(option.name, option.display_name)
    low, high = int(option.min_value or 0), int(option.max_value or 100)
    return found[:high] if len(found) >= low else found.ljust(low, "x")


def example(command: Command, samples: Samples = Samples()) -> str:
    """The command as typed, with every option it can't do without."""
    parts = [f"/{command.qualified_name}"]
    parts += [f"{p.display_name}:{example_value(command, p, samples)}" for p in command.parameters if p.required]
    return " ".join(parts)


def line(command: Command, samples: Samples) -> str:
    return f"`{example(command, samples)}` · {command.description}"


def by_task(commands: Sequence[Command], held: Iterable[Role], samples: Samples,
            offered: Callable[[Command], bool] = lambda command: True) -> list[tuple[str, list[str]]]:
    """Each task with the lines of the commands the caller may use (and the league's rules ``offered``),
    in the order of ``TASKS``."""
    held = list(held)
    grouped: dict[str, list[str]] = {}
    for command in commands:
        if usable_by(command, held) and offered(command):
            grouped.setdefault(task_of(command), []).append(line(command, samples))
    order = [task for task, _ in TASKS] + [OTHER_TASK]
    return [(task, grouped[task]) for task in order if task in grouped]


def embed_size(embed: discord.Embed) -> int:
    """What Discord counts toward a message's 6,000 characters."""
    size = len(embed.title or "") + len(embed.description or "") + len(embed.footer.text or "")
    return size + sum(len(f.name or "") + len(f.value or "") for f in embed.fields)


class _Pages:
    """Embeds packed into messages: a task stays on one page when it fits on one."""

    def __init__(self, first: discord.Embed) -> None:
        self.pages: list[list[discord.Embed]] = [[first]]

    def room(self) -> int:
        page = self.pages[-1]
        return EMBEDS_TOTAL - FOOTER_ROOM - sum(embed_size(e) for e in page)

    def add(self, task: str, lines: list[str]) -> None:
        whole = len(task) + len("\n".join(lines))
        if self.pages[-1] and self.room() < whole <= EMBEDS_TOTAL - FOOTER_ROOM:
            self.pages.append([])
        title, chunk = task, list[str]()
        for text in lines:
            if chunk:
                grown = "\n".join([*chunk, text])
                if len(grown) <= EMBED_DESCRIPTION and len(title) + len(grown) <= self.room():
                    chunk.append(text)
                    continue
                self._close(title, chunk)
                title, chunk = f"{task} (continued)", []
            if len(self.pages[-1]) >= EMBEDS_PER_MESSAGE or len(title) + len(text) > self.room():
                self.pages.append([])
            chunk.append(text)
        if chunk:
            self._close(title, chunk)

    def _close(self, title: str, chunk: list[str]) -> None:
        self.pages[-1].append(discord.Embed(title=title, description="\n".join(chunk)))


def paginate(first: discord.Embed, tasks: list[tuple[str, list[str]]]) -> list[list[discord.Embed]]:
    """Messages of embeds, each within Discord's limits; with more than one, each says which page it is."""
    packer = _Pages(first)
    for task, lines in tasks:
        packer.add(task, lines)
    pages = [page for page in packer.pages if page]
    if len(pages) > 1:
        for number, page in enumerate(pages, start=1):
            page[-1].set_footer(text=f"Page {number} of {len(pages)} · the buttons below turn the page")
    return pages

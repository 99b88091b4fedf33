"""/help by role, and the welcome when the bot joins a server."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from discord import app_commands
from discord.enums import AppCommandOptionType

from bot.league.rules import Rules
from cogs.help._pages import OTHER_TASK, Samples, example, leaf_commands, task_of
from cogs.help.help import OFFERED_WHEN
from tests.commands.empty_server import CHANNEL_IDS, GUILD, join_server, open_server
from tests.conftest import SampleLeague
from tests.harness import Call, Harness, Member

README = Path(__file__).resolve().parents[2] / "README.md"


ROLES = {"player": (), "captain": ("captain",), "referee": ("referee",), "timekeeper": ("timekeeper",),
         "commissioner": ("commissioner",)}
PAGE_OF = re.compile(r"Page (?P<page>\d+) of (?P<pages>\d+)")


def as_role(league: SampleLeague, role: str) -> Member:
    """A player of the sample league holding only this league role (and no team captaincy)."""
    return league.player("Alice Hart", roles=ROLES[role])


def may_use(command: app_commands.Command[Any, ..., Any], role: str, rules: Rules | None = None) -> bool:
    """As the services check it: a command's ``requires`` names its roles; none is everyone; and the
    league's rules offer it (co-ed: no disputes, "the referee's call stands")."""
    needs = command.extras.get("requires", ())
    offered = OFFERED_WHEN.get(command.qualified_name)
    return (not needs or role in needs) and (rules is None or offered is None or offered(rules))


async def every_page(harness: Harness, member: Member) -> list[Call]:
    """/help's first message, then each page the Next button turns to."""
    pages = [(await harness.slash("/help", as_=member)).first]
    found = PAGE_OF.search(pages[0].text)
    for page in range(1, int(found["pages"]) if found else 1):
        pressed = await harness.press(f"sideline:help:{page}", as_=member, ephemeral=True)
        assert pressed.response_type == 7  # the same message, turned to the next page
        pages.append(pressed.first)
    return pages


def within_discords_limits(call: Call) -> list[str]:
    """Discord's limits on one message's embeds (the fake checks the rest against its OpenAPI spec)."""
    embeds = call.embeds
    problems = [] if 1 <= len(embeds) <= 10 else [f"{len(embeds)} embeds"]
    total = 0
    for e in embeds:
        title, text, footer = e.get("title", ""), e.get("description", ""), (e.get("footer") or {}).get("text", "")
        problems += [f"title of {len(title)}"] if len(title) > 256 else []
        problems += [f"description of {len(text)}"] if len(text) > 4096 else []
        total += len(title) + len(text) + len(footer)
    return problems + ([f"{total} characters over its embeds"] if total > 6000 else [])


@pytest.mark.parametrize("role", list(ROLES))
async def test_help_names_every_command_the_role_may_use_within_discords_limits(
        harness: Harness, league: SampleLeague, role: str) -> None:
    pages = await every_page(harness, as_role(league, role))
    assert pages[0].ephemeral  # the buttons turn that same private message
    assert [p for page in pages for p in within_discords_limits(page)] == []
    text = "\n".join(page.text for page in pages)
    for command in leaf_commands(harness.bot.tree):
        named = f"`/{command.qualified_name}" in text
        assert named == may_use(command, role, harness.bot.settings.leagues[0].rules), \
            f"/{command.qualified_name} for a {role}"
        if named:  # the whole description: nothing cut off
            assert f"` · {command.description}\n" in f"{text}\n", f"/{command.qualified_name}'s line"


async def test_a_commissioners_help_takes_pages_turned_by_buttons(harness: Harness, league: SampleLeague) -> None:
    commissioner = league.commissioner()
    first = (await harness.slash("/help", as_=commissioner)).first
    assert first.custom_ids() == ["sideline:help:0", "sideline:help:1"]
    assert first.embeds[-1]["footer"]["text"] == "Page 1 of 3 · the buttons below turn the page"
    second = (await harness.press("sideline:help:1", as_=commissioner, ephemeral=True)).first
    assert second.embeds[-1]["footer"]["text"] == "Page 2 of 3 · the buttons below turn the page"
    assert second.custom_ids() == ["sideline:help:0", "sideline:help:2"]
    last = (await harness.press("sideline:help:2", as_=commissioner, ephemeral=True)).first
    assert last.embeds[-1]["footer"]["text"] == "Page 3 of 3 · the buttons below turn the page"
    assert "`/setup league preset:coed-ball-hockey name:a name timezone:America/Toronto`" in last.text
    back = (await harness.press("sideline:help:0", as_=commissioner, ephemeral=True)).first
    assert back.embeds == first.embeds and "`/checkin status:in`" in back.text


async def test_help_groups_commands_by_task(harness: Harness, league: SampleLeague) -> None:
    reply = await harness.slash("/help", as_=league.player("Alice Hart"))
    titles = [e["title"] for e in reply.first.embeds]
    assert titles == ["Coed League: what you can do", "Games and check-ins", "Teams and players",
                      "Registration and dues", "The rulebook", "Results and standings", "Referees and discipline",
                      "You and this help"]
    assert "`/checkin status:in` · Say whether you're in, out or maybe for a game." in reply.text
    assert "/setup" not in reply.text and "/roster add" not in reply.text


async def test_the_result_example_puts_goals_in_the_score_fields(harness: Harness, league: SampleLeague) -> None:
    reply = await harness.slash("/help", as_=league.referee())
    assert ("`/result enter game:G1 home:3 away:2 decided:regulation` · "
            "Enter a played game's score (referees and commissioners).") in reply.text


def test_every_example_has_the_right_type_in_each_field(harness: Harness) -> None:
    problems = []
    for command in leaf_commands(harness.bot.tree):
        typed = example(command, Samples("G7", "Hawks", "Owls"))
        required = [p for p in command.parameters if p.required]
        marks = [f" {p.display_name}:" for p in required]
        starts = [typed.index(m) for m in marks]
        assert typed.startswith(f"/{command.qualified_name}") and starts == sorted(starts), typed
        ends = [*starts[1:], len(typed)] if starts else []
        for p, start, end in zip(required, starts, ends, strict=True):
            value = typed[start + len(f" {p.display_name}:"):end]
            if not fits(p, value):
                problems.append(f"{typed}: {p.display_name}:{value}")
    assert problems == []


def fits(p: app_commands.Parameter, value: str) -> bool:
    """Whether Discord would take this value in this option (and the command could use it)."""
    kind = p.type
    if p.choices:
        return value in [c.name for c in p.choices]
    if kind is AppCommandOptionType.integer:
        low, high = p.min_value, p.max_value
        return value.lstrip("-").isdigit() and (low is None or int(value) >= low) and (
            high is None or int(value) <= high)
    if kind is AppCommandOptionType.boolean:
        return value in ("True", "False")
    if kind in (AppCommandOptionType.user, AppCommandOptionType.role):
        return value.startswith("@")
    if kind is AppCommandOptionType.channel:
        return value.startswith("#")
    if kind is AppCommandOptionType.attachment:
        return "." in value
    if p.name in ("home", "away", "team", "winner", "forfeit_team"):
        return value in ("Hawks", "Owls")  # the league's own teams, from the samples
    if p.name == "game":
        return value == "G7"
    return (p.min_value or 1) <= len(value) <= (p.max_value or 6000)


def test_every_command_in_the_tree_has_a_description(harness: Harness) -> None:
    empty = []
    for command in harness.bot.tree.walk_commands():
        if not command.description.strip() or command.description == "…":  # discord.py's stand-in for none
            empty.append(f"/{command.qualified_name}")
        for p in getattr(command, "parameters", ()):
            if not p.description.strip() or p.description == "…":
                empty.append(f"/{command.qualified_name} {p.display_name}:")
    assert empty == []


def test_every_command_belongs_to_a_task(harness: Harness) -> None:
    assert [c.qualified_name for c in leaf_commands(harness.bot.tree) if task_of(c) == OTHER_TASK] == []


async def test_help_shows_the_callers_next_game_first(harness: Harness, league: SampleLeague) -> None:
    reply = await harness.slash("/help", as_=league.player("Alice Hart"))
    embeds = reply.first.payload["embeds"]
    assert embeds[0]["description"].startswith("**Your next game:** <t:")
    assert "`G1`" in embeds[0]["description"]
    stranger = await harness.slash("/help", as_=league.stranger())
    assert "Your next game" not in stranger.text


async def test_help_in_a_server_without_a_league_points_to_setup_league(harness: Harness,
                                                                        league: SampleLeague) -> None:
    open_server(harness)
    reply = await harness.slash("/help", as_=league.player("Alice Hart"), guild_id=GUILD)
    assert reply.ephemeral and "/setup league" in reply.content


class TestJoining:
    async def test_a_new_server_gets_the_commands_and_one_welcome(self, harness: Harness) -> None:
        calls = await join_server(harness)
        assert any(c.method == "PUT" and c.path.endswith(f"/guilds/{GUILD}/commands") for c in calls)
        welcome = f"/channels/{CHANNEL_IDS['announcements']}/messages"
        posts = [c for c in calls if c.method == "POST" and c.path == welcome]
        assert len(posts) == 1 and "/setup league" in posts[0].body["content"]

    async def test_no_welcome_where_the_bot_may_not_post(self, harness: Harness) -> None:
        calls = await join_server(harness, may_welcome=False)
        assert not [c for c in calls if c.method == "POST" and c.path.startswith("/channels/")]



async def test_the_readme_lists_every_slash_command_with_who_may_use_it(harness: Harness) -> None:
    readme = README.read_text(encoding="utf-8")
    missing = []
    for command in leaf_commands(harness.bot.tree):
        who = ", ".join(command.extras.get("requires", ())) or "everyone"
        if f"| `/{command.qualified_name}` | {who} |" not in readme:
            missing.append(f"/{command.qualified_name} ({who})")
    assert missing == [], f"README.md's table of slash commands lacks {missing}"


async def test_a_page_button_on_a_message_others_see_answers_the_presser_alone(
        harness: Harness, league: SampleLeague) -> None:
    """/help is only sent privately; a page button anywhere else (a forged message) never rewrites a
    message others read: the presser gets the page privately."""
    reply = await harness.press("sideline:help:1", as_=league.commissioner())
    assert reply.ephemeral and reply.response_type == 4

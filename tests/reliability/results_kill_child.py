"""A referee's bot process for tests/reliability/test_crash_result_entry.py, killed while it enters results.

Usage: ``python tests/reliability/results_kill_child.py DB_FILE [MOMENT GAME]``. It runs the real bot over the
SQLite file with the fake Discord and enters every planned result in order through ``/result enter``
and ``/result forfeit``, printing ``<game> <entered|unchanged>`` once each reply is back. Exits 0
when all are in. With MOMENT and GAME it SIGKILLs itself while entering GAME, at one of ``MOMENTS``:
a kill that lands exactly there, which a kill from outside only hits by luck.
"""

from __future__ import annotations

import asyncio
import itertools
import os
import random
import signal
import sys
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from sqlalchemy import event  # noqa: E402

from bot.clock import FixedClock  # noqa: E402
from bot.config.settings import Settings  # noqa: E402
from bot.league.rules import Rules  # noqa: E402
from bot.league.standings.table import GameResult  # noqa: E402
from bot.run.app import create_bot  # noqa: E402
from bot.services.results import Score, check_score  # noqa: E402
from storage.db import create_engine  # noqa: E402
from tests.conftest import league_config, make_settings  # noqa: E402
from tests.harness import Call, Harness  # noqa: E402

GAMES = 40
TEAMS = ("Hawks", "Owls", "Bears", "Wolves")  # the sample teams (tests/data/teams.csv)
REFEREE = 700_000_000_000_000_001
#: Where a self-kill can land: in the flush (the result row written, its audit entry not yet), in
#: the result hooks (suspensions counted down), at COMMIT, or after it (the reply on its way).
MOMENTS = ("flush", "hook", "commit", "reply")
ENTERING_AT = datetime(2030, 2, 1, 12, tzinfo=UTC)  # every game played


def settings_for(db_file: Path) -> Settings:
    return make_settings(league_config(), url=f"sqlite+aiosqlite:///{db_file}")


def code(i: int) -> str:
    return f"R{i + 1:02d}"


def games_csv() -> bytes:
    """40 games, every pair of teams in turn, four a night from 11 January 2030."""
    pairs = list(itertools.combinations(TEAMS, 2))
    rows = ["game_id,starts_at,home,away,venue,kind"]
    for i in range(GAMES):
        home, away = pairs[i % len(pairs)]
        if (i // len(pairs)) % 2:
            home, away = away, home
        rows.append(f"{code(i)},2030-01-{11 + i // 4:02d} {18 + i % 4}:00,{home},{away},Rink,regular")
    return ("\n".join(rows) + "\n").encode()


@dataclass(frozen=True)
class Planned:
    """One result the referee enters: the command's options, and the row the standings engine sees."""

    game: str
    command: str
    options: dict[str, Any]
    result: GameResult


def plan(rules: Rules) -> list[Planned]:
    """The same results every run (seeded): regulation, overtime and shootout scores and a few forfeits."""
    rng = random.Random(2030)
    pairs = list(itertools.combinations(TEAMS, 2))
    out = []
    for i in range(GAMES):
        home, away = pairs[i % len(pairs)]
        if (i // len(pairs)) % 2:
            home, away = away, home
        if i % 9 == 4:
            quitter = rng.choice((home, away))
            out.append(Planned(code(i), "/result forfeit", {"team": quitter},
                               GameResult(code(i), home, away, 0, 0, "forfeit", forfeit_team=quitter)))
            continue
        decided = rng.choice(("regulation", "regulation", "regulation", "overtime", "shootout"))
        h, a = rng.randint(0, 7), rng.randint(0, 7)
        so_h = so_a = None
        if decided == "shootout":
            a = h
            so_h, so_a = rng.sample(range(4), 2)
        elif decided == "overtime":  # co-ed overtime is sudden death: won by the one goal that ended it
            a = h + 1 if h == 0 or rng.random() < 0.5 else h - 1
        elif h == a:
            h += 1
        score = Score(h, a, decided, so_h, so_a)
        check_score(rules, "regular", score)  # a plan the league's rules refuse is a bug in this file
        options = {"home": h, "away": a, "decided": decided, "shootout_home": so_h, "shootout_away": so_a}
        out.append(Planned(code(i), "/result enter", {k: v for k, v in options.items() if v is not None},
                           GameResult(code(i), home, away, h, a, decided, so_h, so_a)))
    return out


def die() -> None:
    sys.stdout.flush()
    os.kill(os.getpid(), signal.SIGKILL)


async def main(db_file: Path, moment: str | None, target: str | None) -> int:
    url = f"sqlite+aiosqlite:///{db_file}"
    bot = create_bot(settings_for(db_file), engine=create_engine(url), clock=FixedClock(ENTERING_AT),
                     run_scheduler=False)
    harness = Harness(bot)
    await harness.start()
    entering: list[str] = [""]  # the game being entered now
    recorded: list[bool] = [False]  # the target's result is in the open transaction

    async def hook(session: Any, league_id: int, game_id: int) -> None:
        if entering[0] == target:
            recorded[0] = True
            if moment == "hook":
                die()

    def before_execute(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        if moment == "flush" and entering[0] == target and statement.startswith("INSERT INTO result_changes"):
            die()

    def on_commit(conn: Any) -> None:
        if moment == "commit" and recorded[0]:
            die()

    def on_reply(call: Call) -> None:
        if moment == "reply" and recorded[0] and call.path.endswith("/callback"):
            die()

    count_down = bot.services.results.on_result

    async def counted_then_hook(session: Any, league_id: int, game_id: int) -> None:
        await count_down(session, league_id, game_id)  # the countdown is already in the transaction
        await hook(session, league_id, game_id)

    bot.services.results.on_result = counted_then_hook
    event.listen(bot.engine.sync_engine, "before_cursor_execute", before_execute)
    event.listen(bot.engine.sync_engine, "commit", on_commit)
    harness.discord.hooks.append(on_reply)
    referee = harness.member("Ref Rita", member_id=REFEREE, roles=("referee",))
    try:
        for p in plan(bot.settings.leagues[0].rules):
            entering[0] = p.game
            reply = await harness.slash(p.command, as_=referee, game=p.game, **p.options)
            if reply.content.startswith("Recorded game"):
                print(p.game, "entered", flush=True)
            elif "already stands" in reply.content:
                print(p.game, "unchanged", flush=True)
            else:
                print(p.game, "refused:", reply.content, flush=True)
                return 2
        return 0
    finally:
        await harness.close()


if __name__ == "__main__":
    args = sys.argv[1:]
    sys.exit(asyncio.run(main(Path(args[0]), *(args[1:3] if len(args) >= 3 else (None, None)))))

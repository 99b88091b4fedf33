"""Benchmark `/rule` lookup on the real rulebooks: hit@1, hit@3, how sure it says it is, and latency,
per query and with 1,000 leagues' rulebooks loaded.

Run from the repository root: ``python -m bench.rule_lookup`` (``--misses`` lists the misses of the
sets the search may be tuned on; a held-out miss is never listed, so nobody tunes on one;
``--leagues N`` loads N leagues' rulebooks, each its own, with words and linked questions of its own).
It reports numbers and never fails on timing.
"""

from __future__ import annotations

import argparse
import asyncio
import math
import statistics
import sys
import time

from bench.machine import describe, reproduce
from bot.league.rulebooks.lexicon import lexicon_for
from bot.league.rulebooks.rulebook import parse_rulebook
from bot.league.rulebooks.search import RuleIndex
from tests.league.rulebooks.final_check_questions import FINAL_CHECK
from tests.league.rulebooks.fresh_questions import FRESH
from tests.league.rulebooks.held_out_questions import HELD_OUT
from tests.league.rulebooks.more_tuning_questions import MORE_TUNING
from tests.league.rulebooks.rule_questions import QUESTIONS, RULEBOOK_DIR, RULEBOOK_FILES, SECOND_ROUND
from tests.league.rulebooks.tuning_questions import TUNING

REPEATS = 20

#: (preset, question, the citations that answer it)
Question = tuple[str, str, tuple[str, ...]]


def _accepting(questions: list[tuple[str, str, str]]) -> list[Question]:
    return [(preset, question, (expected,)) for preset, question, expected in questions]


def _percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(fraction * len(ordered)) - 1))]


def _evaluate(
    name: str,
    questions: list[Question],
    indexes: dict[str, RuleIndex],
    repeats: int,
    misses: list[str] | None,
) -> list[list[float]]:
    """Print the set's hit@1 and hit@3; ``misses`` collects its misses (None: a held-out set, never listed)."""
    hit1 = hit3 = sure = sure_right = 0
    latencies: list[list[float]] = []
    for preset, question, accepted in questions:
        index = indexes[preset]
        found = index.find(question, limit=3)
        cited = [hit.section.citation for hit in found.hits]
        hit1 += bool(cited) and cited[0] in accepted
        hit3 += any(c in accepted for c in cited)
        if found.confidence == "sure":
            sure += 1
            sure_right += bool(cited) and cited[0] in accepted
        if misses is not None and (not cited or cited[0] not in accepted):
            misses.append(f"  {name} [{preset}] {question!r}: expected {accepted}, got {cited}")
        runs = []
        for _ in range(repeats):
            start = time.perf_counter()
            index.search(question, limit=3)
            runs.append((time.perf_counter() - start) * 1000)
        latencies.append(runs)
    total = len(questions)
    print(
        f"{name}: {total} questions  hit@1 {hit1}/{total} = {hit1 / total:.1%}  "
        f"hit@3 {hit3}/{total} = {hit3 / total:.1%}  sure {sure}/{total} = {sure / total:.1%}, "
        f"right when sure {sure_right}/{max(sure, 1)} = {sure_right / max(sure, 1):.1%}"
    )
    return latencies


def _many_leagues(leagues: int, questions: list[Question], texts: dict[str, str], repeats: int) -> None:
    """``leagues`` leagues' rulebooks in memory at once, each its own index (its preset's rulebook with
    house rules of its own), its own words and linked questions; each question is asked of a league of its
    preset picked at random, each lookup timed (the league's index, words and links, as /rule reads them)."""
    import gc
    import random

    from bench.machine import rss_mb
    from bot.league.rulebooks.found import Link
    from bot.league.rulebooks.lexicon import Lexicon

    rng = random.Random(1000)
    presets = list(texts)
    before = rss_mb()
    start = time.perf_counter()
    loaded: dict[str, list[tuple[RuleIndex, Lexicon, tuple[Link, ...]]]] = {p: [] for p in presets}
    for n in range(leagues):
        preset = presets[n % len(presets)]
        house = f"\nHouse rules of league {n}\nTeam {n} brings the nets.\nLeague {n} plays at rink {n % 17}.\n"
        index = RuleIndex.build(parse_rulebook(texts[preset] + house), lexicon_for(preset))
        lexicon = index.lexicon.with_words([(f"word{n}", "ball"), (f"thing{n}", "stick"), ("top shelf", "head high")])
        asked = [q for p, q, _ in questions if p == preset]
        links = tuple(Link(index.signature(q, lexicon), index.sections[-1].citation)
                      for q in rng.sample(asked, 3))
        loaded[preset].append((index, lexicon, links))
    built = time.perf_counter() - start
    gc.collect()
    held = rss_mb() - before
    wall: list[float] = []
    cpu: list[float] = []
    medians: list[float] = []
    for preset, question, _ in questions:
        these = []
        for _ in range(repeats):
            index, lexicon, links = rng.choice(loaded[preset])
            begin, begin_cpu = time.perf_counter(), time.thread_time()
            index.find(question, limit=3, lexicon=lexicon, links=links)
            cpu.append((time.thread_time() - begin_cpu) * 1000)
            these.append((time.perf_counter() - begin) * 1000)
        wall += these
        medians.append(statistics.median(these))
    print(f"{leagues:,} leagues' rulebooks loaded (each its own index, words and links): built in {built:.1f} s, "
          f"{held:.0f} MB")
    print(f"  lookup at a random league, ms over {len(wall):,} lookups: p50 {statistics.median(wall):.3f}  "
          f"p99 {_percentile(wall, 0.99):.3f}  max {max(wall):.3f}  (wall clock, includes scheduler noise)")
    print(f"  the same lookups' CPU time, ms: p50 {statistics.median(cpu):.3f}  p99 {_percentile(cpu, 0.99):.3f}  "
          f"max {max(cpu):.3f}")
    print(f"  per question, the median of its {repeats} lookups (at {repeats} leagues), ms: "
          f"p50 {statistics.median(medians):.3f}  p99 {_percentile(medians, 0.99):.3f}  max {max(medians):.3f}")

async def _through_service(questions: list[Question]) -> None:
    """The lookups as `/rule` makes them: through RulesLookupService on a SQLite file (the cached
    index, re-checked against storage every few seconds); autocomplete once per keystroke."""
    import tempfile

    from bot.clock import SystemClock
    from bot.services.rulebooks.lookup import RulesLookupService
    from storage import migrate
    from storage.db import create_engine, session_factory
    from storage.models import League

    with tempfile.TemporaryDirectory() as tmp:
        engine = create_engine(f"sqlite+aiosqlite:///{tmp}/bench.db")
        try:
            await migrate.upgrade(engine)
            sessions = session_factory(engine)
            ids: dict[str, int] = {}
            async with sessions.begin() as session:
                for i, preset in enumerate(RULEBOOK_FILES, start=1):
                    league = League(key=preset, guild_id=i, name=preset, preset=preset)
                    session.add(league)
                    await session.flush()
                    ids[preset] = league.id
            importer = RulesLookupService(sessions, SystemClock())
            import_ms, load_ms = {}, {}
            for preset, filename in RULEBOOK_FILES.items():
                start = time.perf_counter()
                await importer.import_rulebook(ids[preset], (RULEBOOK_DIR / filename).read_bytes(), filename)
                import_ms[preset] = (time.perf_counter() - start) * 1000
            service = RulesLookupService(sessions, SystemClock())  # a fresh process: indexes built from storage
            for preset in RULEBOOK_FILES:
                start = time.perf_counter()
                await service.index(ids[preset])
                load_ms[preset] = (time.perf_counter() - start) * 1000
            ask_ms: list[float] = []
            suggest_ms: list[float] = []
            for preset, question, _ in questions:
                start = time.perf_counter()
                await service.ask(ids[preset], question)
                ask_ms.append((time.perf_counter() - start) * 1000)
                for end in range(len(question) + 1):
                    start = time.perf_counter()
                    await service.suggest(ids[preset], question[:end])
                    suggest_ms.append((time.perf_counter() - start) * 1000)
        finally:
            await engine.dispose()
    for name, runs in (("/rule answer", ask_ms), ("autocomplete per keystroke", suggest_ms)):
        print(f"through the service (SQLite), {name}, ms over {len(runs)} calls: p50 {statistics.median(runs):.3f}  "
              f"p99 {_percentile(runs, 0.99):.3f}  max {max(runs):.3f}")
    print("import into storage, ms: " + ", ".join(f"{p} {ms:.1f}" for p, ms in import_ms.items()))
    print("index from storage (first lookup after start), ms: "
          + ", ".join(f"{p} {ms:.1f}" for p, ms in load_ms.items()))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.rule_lookup", description=__doc__)
    parser.add_argument("--misses", action="store_true", help="list questions missed at @1")
    parser.add_argument("--repeats", type=int, default=REPEATS, help="timed runs per question")
    parser.add_argument("--no-service", action="store_true", help="skip the timings through storage")
    parser.add_argument("--leagues", type=int, default=1000, help="leagues' rulebooks loaded at once (0: skip)")
    args = parser.parse_args(argv)
    if not RULEBOOK_DIR.is_dir():
        print(f"rulebooks not found at {RULEBOOK_DIR}; nothing to measure")
        return 0

    indexes: dict[str, RuleIndex] = {}
    build_ms: dict[str, float] = {}
    texts = {preset: (RULEBOOK_DIR / filename).read_text(encoding="utf-8")
             for preset, filename in RULEBOOK_FILES.items()}
    for preset, text in texts.items():
        lexicon_for(preset)  # compiled once per process, before any league's index is timed
        start = time.perf_counter()
        indexes[preset] = RuleIndex.build(parse_rulebook(text), lexicon_for(preset))
        build_ms[preset] = (time.perf_counter() - start) * 1000

    misses: list[str] = []
    latencies = _evaluate("earlier questions (tuned on)", _accepting(QUESTIONS + SECOND_ROUND), indexes,
                          args.repeats, misses)
    latencies += _evaluate("players' questions, tuning half", TUNING, indexes, args.repeats, misses)
    latencies += _evaluate("players' questions, second tuning set", MORE_TUNING, indexes, args.repeats, misses)
    latencies += _evaluate("players' questions, held-out half", HELD_OUT, indexes, args.repeats, None)
    latencies += _evaluate("players' questions, fresh check set", FRESH, indexes, args.repeats, None)
    latencies += _evaluate("players' questions, final check set", FINAL_CHECK, indexes, args.repeats, None)
    per_query = [statistics.median(runs) for runs in latencies]
    every_run = [ms for runs in latencies for ms in runs]
    print(
        f"search latency per query, ms (median of {args.repeats} runs each, {len(per_query)} queries): "
        f"p50 {statistics.median(per_query):.3f}  p99 {_percentile(per_query, 0.99):.3f}  "
        f"max {max(per_query):.3f}"
    )
    print(
        f"search latency over all {len(every_run)} runs, ms: p50 {statistics.median(every_run):.3f}  "
        f"p99 {_percentile(every_run, 0.99):.3f}  max {max(every_run):.3f}  (includes scheduler noise)"
    )
    print("index build, ms: " + ", ".join(f"{p} {ms:.1f}" for p, ms in build_ms.items()))
    every = _accepting(QUESTIONS + SECOND_ROUND) + TUNING + MORE_TUNING + HELD_OUT + FRESH + FINAL_CHECK
    if args.leagues > 0:
        _many_leagues(args.leagues, every, texts, repeats=5)
    if not args.no_service:
        asyncio.run(_through_service(every))
    print(describe())
    print(reproduce("bench.rule_lookup", *(sys.argv[1:] if argv is None else argv)))
    if args.misses and misses:
        print("missed at @1 (the sets the search may be tuned on):")
        print("\n".join(misses))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

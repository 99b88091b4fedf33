"""The public league page in a real headless browser: Debian's ``chromium`` driven by Playwright (never a
downloaded browser: ``executable_path`` names the system's). A league with two divisions, results, a
forfeit and a bracket; at a phone's 375 px, light and dark: every section shows, nothing is logged to the
console, nothing scrolls sideways. Screenshots go to the test's temporary folder (printed at the end)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from bot.config.settings import Settings
from tests.conftest import SampleLeague
from tests.harness import Harness
from tests.web.league_page import page_settings, play_season, port_of, publish

SECTIONS = ("standings", "schedule", "results", "playoffs", "leaders")


def chromium() -> str | None:
    """The system's Chromium (Debian's ``chromium`` package), or one named by SIDELINE_CHROMIUM."""
    named = os.environ.get("SIDELINE_CHROMIUM")
    if named:
        return named if Path(named).exists() else None
    return next((found for name in ("chromium", "chromium-browser") if (found := shutil.which(name))), None)


@pytest.fixture
def settings() -> Settings:
    return page_settings()


@pytest.fixture
def browser_path() -> str:
    path = chromium()
    if path is None:
        pytest.skip("no chromium binary on this machine (apt-get install chromium; .ci/run installs it)")
    pytest.importorskip("playwright.async_api", reason="playwright is in the test extra: pip install -e '.[test]'")
    return path


async def test_the_page_reads_on_a_phone_light_and_dark(harness: Harness, league: SampleLeague, browser_path: str,
                                                        tmp_path: Path) -> None:
    from playwright.async_api import async_playwright

    await play_season(harness, league)
    slug = await publish(harness, league)
    url = f"http://127.0.0.1:{port_of(harness)}/l/{slug}/"
    shots: list[Path] = []
    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=browser_path, headless=True,
                                           args=["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"])
        try:
            for scheme in ("light", "dark"):
                for view in ("page", "embed"):
                    context = await browser.new_context(viewport={"width": 375, "height": 812}, color_scheme=scheme,
                                                        java_script_enabled=False)
                    page = await context.new_page()
                    problems: list[str] = []
                    page.on("console", lambda m, problems=problems: problems.append(m.text)
                            if m.type in ("error", "warning") else None)
                    page.on("pageerror", lambda e, problems=problems: problems.append(str(e)))
                    response = await page.goto(url + ("?embed=1" if view == "embed" else ""))
                    assert response is not None and response.status == 200
                    for section in SECTIONS:
                        await page.locator(f"#{section}").scroll_into_view_if_needed()
                        assert await page.locator(f"#{section}").is_visible(), (scheme, view, section)
                        assert await page.locator(f"#{section}-h").is_visible(), (scheme, view, section)
                    assert await page.get_by_role("table", name="North").is_visible()
                    assert await page.get_by_role("table", name="South").is_visible()
                    assert await page.get_by_role("link", name="Subscribe to every game in your calendar app") \
                        .is_visible()
                    assert await page.locator(".matchup").count() == 3  # two semi-finals and the final
                    widths = await page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
                    assert widths[0] <= widths[1] == 375, f"{scheme} {view}: scrolls sideways ({widths})"
                    header = await page.locator("header h1").count()
                    assert header == (0 if view == "embed" else 1)
                    shot = tmp_path / f"league-page-{view}-{scheme}-375.png"
                    await page.screenshot(path=str(shot), full_page=True)
                    shots.append(shot)
                    assert problems == [], (scheme, view, problems)
                    await context.close()
        finally:
            await browser.close()
    assert all(s.stat().st_size > 10_000 for s in shots)
    print("screenshots:", *shots, sep="\n  ")

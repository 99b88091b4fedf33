"""The public league page as HTML, written with the standard library (``html.escape``, ``string.Template``).

Pure: the page's data in, bytes out, nothing read elsewhere and no clock, so the same data gives the same
bytes and the validator (bot/services/league_page/service.py) names the page. No JavaScript: one
stylesheet inline, mobile-first (a phone's 375 px holds every table: the goal columns show from 480 px),
light and dark by ``prefers-color-scheme``, colours at WCAG AA contrast or better, one ``h1`` and an
``h2`` per section, every table header with its ``scope``. ``embed`` leaves out the page's header and
footer, for a league's own website to frame.
"""

from __future__ import annotations

import json
from datetime import datetime
from html import escape
from string import Template

from bot.services.league_page.data import (
    Board,
    BracketLine,
    DivisionTable,
    GameLine,
    MatchupLine,
    PageData,
    ResultLine,
    Side,
    as_json,
)

STYLE = """
:root{color-scheme:light dark;--bg:#ffffff;--fg:#1b1b1f;--muted:#4a4a55;--line:#d4d4dc;--band:#f3f3f7;
--accent:#0b57d0;--win:#0d652d}
@media (prefers-color-scheme:dark){:root{--bg:#121214;--fg:#ececf1;--muted:#b4b4c0;--line:#3a3a44;
--band:#1d1d22;--accent:#8ab4f8;--win:#81c995}}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--fg);font:16px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
main,header,footer{max-width:60rem;margin:0 auto;padding:0 .75rem}
header{padding-top:1rem}
h1{font-size:1.5rem;margin:.25rem 0}
h2{font-size:1.25rem;margin:1.75rem 0 .5rem;border-bottom:2px solid var(--line);padding-bottom:.25rem}
h3{font-size:1.05rem;margin:1rem 0 .4rem}
p,li{overflow-wrap:anywhere}
a{color:var(--accent)}
.muted,small{color:var(--muted)}
table{border-collapse:collapse;width:100%;font-variant-numeric:tabular-nums}
caption{text-align:left;font-weight:600;padding:.25rem 0}
th,td{padding:.3rem .35rem;border-bottom:1px solid var(--line);text-align:right}
th[scope=row],td.team,th.team{text-align:left;overflow-wrap:anywhere}
thead th{font-size:.85rem;color:var(--muted)}
tbody tr:nth-child(even){background:var(--band)}
.wide{display:none}
@media (min-width:480px){.wide{display:table-cell}}
ul.games{list-style:none;padding:0;margin:0}
ul.games li{padding:.45rem 0;border-bottom:1px solid var(--line)}
.round{margin-bottom:.75rem}
.matchups{display:grid;gap:.5rem;grid-template-columns:1fr}
@media (min-width:640px){.bracket{display:grid;grid-auto-flow:column;grid-auto-columns:1fr;gap:1rem}}
.matchup{border:1px solid var(--line);border-radius:.4rem;padding:.35rem .5rem;background:var(--band)}
.matchup p{margin:.1rem 0;display:flex;justify-content:space-between;gap:.5rem}
.won{font-weight:700;color:var(--win)}
.boards{display:grid;gap:1rem;grid-template-columns:1fr}
@media (min-width:640px){.boards{grid-template-columns:1fr 1fr}}
footer{margin-top:2rem;padding-bottom:1.5rem;font-size:.875rem}
"""

PAGE = Template("""<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>$title</title>
<style>$style</style>
</head>
<body>
$header<main>
$sections
</main>
$footer</body>
</html>
""")


def _when(moment: datetime) -> str:
    """``<time>`` in the league's time zone, e.g. Fri 11 Jan 2030, 19:00."""
    return (f'<time datetime="{moment.isoformat()}">'
            f'{moment.strftime("%a")} {moment.day} {moment.strftime("%b %Y, %H:%M")}</time>')


def _e(text: str) -> str:
    return escape(text, quote=True)


def _standings(data: PageData) -> str:
    parts = ['<section id="standings" aria-labelledby="standings-h">', '<h2 id="standings-h">Standings</h2>']
    if not data.divisions:
        parts.append('<p class="muted">No teams yet.</p>')
    for division in data.divisions:
        parts.append(_division(division))
    notes = [data.order_text]
    if data.forfeit_text:
        notes.append(data.forfeit_text)
    if data.has_levels:
        notes.append("* Level on every criterion: placed by name until the commissioners decide.")
    parts.append('<p class="muted" id="tiebreaks"><small>' + "<br>".join(_e(n) for n in notes) + "</small></p>")
    parts.append("</section>")
    return "\n".join(parts)


def _division(division: DivisionTable) -> str:
    rows = division.rows
    otl = any(r.otl is not None for r in rows)
    pct = any(r.pct is not None for r in rows)
    head = ('<th scope="col">#</th><th scope="col" class="team">Team</th><th scope="col"><abbr title="Games played">'
            'GP</abbr></th><th scope="col"><abbr title="Wins">W</abbr></th><th scope="col"><abbr title="Losses">L'
            '</abbr></th><th scope="col"><abbr title="Ties">T</abbr></th>'
            + ('<th scope="col"><abbr title="Overtime losses">OTL</abbr></th>' if otl else "")
            + '<th scope="col" class="wide"><abbr title="Goals for">GF</abbr></th>'
            '<th scope="col" class="wide"><abbr title="Goals against">GA</abbr></th>'
            + ('<th scope="col"><abbr title="Winning percentage">PCT</abbr></th>' if pct else
               '<th scope="col"><abbr title="Points">PTS</abbr></th>'))
    body = []
    for r in rows:
        cells = [f"<td>{r.rank}</td>", f'<th scope="row">{_e(r.team)}{"*" if r.level else ""}</th>',
                 f"<td>{r.gp}</td>", f"<td>{r.w}</td>", f"<td>{r.l}</td>", f"<td>{r.t}</td>"]
        if otl:
            cells.append(f"<td>{r.otl or 0}</td>")
        cells += [f'<td class="wide">{r.gf}</td>', f'<td class="wide">{r.ga}</td>',
                  f"<td>{_e(r.pct) if pct and r.pct is not None else r.pts}</td>"]
        body.append("<tr>" + "".join(cells) + "</tr>")
    caption = _e(division.name) if division.name else "League table"
    return (f'<table class="standings"><caption>{caption}</caption><thead><tr>{head}</tr></thead>'
            f'<tbody>{"".join(body)}</tbody></table>')


def _game(game: GameLine) -> str:
    kind = "" if game.kind == "regular" else f" · {_e(game.kind)}"
    venue = f" · {_e(game.venue)}" if game.venue else ""
    status = " · <strong>Cancelled</strong>" if game.cancelled else ""
    return (f"<li>{_when(game.starts_at)}<br><strong>{_e(game.home)}</strong> vs <strong>{_e(game.away)}</strong>"
            f'<br><small>Game {_e(game.code)}{kind}{venue}</small>{status}</li>')


def _schedule(data: PageData) -> str:
    parts = ['<section id="schedule" aria-labelledby="schedule-h">', '<h2 id="schedule-h">Upcoming games</h2>']
    if data.calendar:
        parts.append(f'<p><a href="{_e(data.calendar)}">Subscribe to every game in your calendar app</a> '
                     '<small>(it follows every change)</small></p>')
    if data.upcoming:
        parts.append('<ul class="games">' + "".join(_game(g) for g in data.upcoming) + "</ul>")
    else:
        parts.append('<p class="muted">No games coming up.</p>')
    parts.append(f'<p class="muted"><small>Times in {_e(data.timezone)}.</small></p></section>')
    return "\n".join(parts)


def _score(result: ResultLine) -> str:
    if result.decided == "forfeit" and result.forfeited_by:
        how = f" · {_e(result.forfeited_by)} forfeited"
    elif result.decided == "shootout" and result.shootout:
        how = f" · shoot-out {result.shootout[0]}–{result.shootout[1]}"
    elif result.decided == "overtime":
        how = " · overtime"
    else:
        how = ""
    so = result.shootout if result.home_score == result.away_score else None
    home_won = result.home_score > result.away_score or (so is not None and so[0] > so[1])
    away_won = result.away_score > result.home_score or (so is not None and so[1] > so[0])
    home = f'<span class="won">{_e(result.home)}</span>' if home_won else _e(result.home)
    away = f'<span class="won">{_e(result.away)}</span>' if away_won else _e(result.away)
    return (f"<li>{home} {result.home_score}–{result.away_score} {away}"
            f"<br><small>{_when(result.starts_at)} · game {_e(result.code)}{how}</small></li>")


def _results(data: PageData) -> str:
    parts = ['<section id="results" aria-labelledby="results-h">', '<h2 id="results-h">Recent results</h2>']
    if data.results:
        parts.append('<ul class="games">' + "".join(_score(r) for r in data.results) + "</ul>")
    else:
        parts.append('<p class="muted">No results yet.</p>')
    parts.append("</section>")
    return "\n".join(parts)


def _side(side: Side | None, source: str | None, winner: str | None) -> str:
    if side is None:
        text = f"Winner of {_e(source)}" if source else "To be decided"
        return f'<p class="muted"><span>{text}</span></p>'
    won = ' class="won"' if winner == side.team else ""
    mark = ' <span class="visually-hidden">(won)</span>' if winner == side.team else ""
    return f"<p{won}><span>{_e(side.team)}{mark}</span><small>seed {side.seed}</small></p>"


def _matchup(m: MatchupLine) -> str:
    game = f'<p class="muted"><small>Game {_e(m.game)}</small></p>' if m.game else ""
    return (f'<div class="matchup" role="group" aria-label="{_e(m.matchup_id)}">'
            f"{_side(m.top, m.top_from, m.winner)}{_side(m.bottom, m.bottom_from, m.winner)}{game}</div>")


def _bracket(bracket: BracketLine, several: bool) -> str:
    parts = []
    if several:
        parts.append(f"<h3>{_e(bracket.division) if bracket.division else 'League'}</h3>")
    if bracket.champion:
        parts.append(f'<p class="won">Champions: {_e(bracket.champion)}</p>')
    if bracket.byes:
        parts.append("<p><small>Byes: " + ", ".join(f"{_e(b.team)} (seed {b.seed})" for b in bracket.byes)
                     + "</small></p>")
    parts.append('<div class="bracket">')
    for rd in bracket.rounds:
        level = "h4" if several else "h3"  # headings never skip a level
        parts.append(f'<div class="round"><{level}>{_e(rd.name)}</{level}><div class="matchups">'
                     + "".join(_matchup(m) for m in rd.matchups) + "</div></div>")
    parts.append("</div>")
    return "\n".join(parts)


def _playoffs(data: PageData) -> str:
    parts = ['<section id="playoffs" aria-labelledby="playoffs-h">', '<h2 id="playoffs-h">Playoffs</h2>']
    if data.brackets:
        parts += [_bracket(b, len(data.brackets) > 1) for b in data.brackets]
    else:
        parts.append('<p class="muted">No playoff bracket yet.</p>')
    parts.append("</section>")
    return "\n".join(parts)


def _board(board: Board) -> str:
    if not board.leaders:
        return f'<div><h3>{_e(board.title)}</h3><p class="muted">Nobody yet.</p></div>'
    rows = "".join(f'<tr><td>{_e(x.place)}</td><th scope="row">{_e(x.name)}</th>'
                   f'<td class="team">{_e(x.team or "")}</td><td>{x.value}</td></tr>' for x in board.leaders)
    more = (f'<p class="muted"><small>{board.more_level} more level with the last.</small></p>'
            if board.more_level else "")
    return (f'<div><table><caption>{_e(board.title)}</caption><thead><tr><th scope="col">#</th>'
            f'<th scope="col" class="team">Player</th><th scope="col" class="team">Team</th>'
            f'<th scope="col">{_e(board.title)}</th></tr></thead><tbody>{rows}</tbody></table>{more}</div>')


def _leaders(data: PageData) -> str:
    season = f" · {_e(data.season)}" if data.season else ""
    return "\n".join(['<section id="leaders" aria-labelledby="leaders-h">',
                      f'<h2 id="leaders-h">Leaders{season}</h2>',
                      '<div class="boards">' + "".join(_board(b) for b in data.boards) + "</div>",
                      "</section>"])


EXTRA_STYLE = (".visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);"
               "white-space:nowrap}\n.round h3,.round h4{font-size:.95rem;margin:.5rem 0 .35rem}")


def page_html(data: PageData, *, embed: bool = False) -> bytes:
    """The whole page, or (``embed``) its sections alone, for an ``<iframe>`` on a league's own site."""
    sections = "\n".join([_standings(data), _schedule(data), _results(data), _playoffs(data), _leaders(data)])
    season = f" · {_e(data.season)}" if data.season else ""
    header = "" if embed else f"<header><h1>{_e(data.league)}{season}</h1></header>\n"
    if embed:
        sections = f'<h1 class="visually-hidden">{_e(data.league)}</h1>\n{sections}'
    footer = "" if embed else ('<footer class="muted"><p>Read-only page published by the league. '
                               '<a href="data.json">The same data as JSON</a>.</p></footer>\n')
    return PAGE.substitute(title=_e(f"{data.league} · standings, schedule, results"), style=STYLE + EXTRA_STYLE,
                           header=header, sections=sections, footer=footer).encode()


def page_json(data: PageData) -> bytes:
    return json.dumps(as_json(data), ensure_ascii=False, separators=(",", ":")).encode()

"""Self-contained HTML pages: one per player, and an index.

A page carries everything it needs: the Vega, Vega-Lite and Vega-Embed
JavaScript comes inline from the ``vl-convert-python`` package (no CDN, no
network when the page is opened), and each chart's specification is inline
JSON. Pages written together (``--all``) share one copy of the library, a
file beside them, instead of 900 KB inline in each. Player names and every other text from the database are untrusted:
they are HTML-escaped, and JSON inside ``<script>`` has ``<``, ``>`` and
``&`` escaped so no text can close the script.

>>> cell("<b>Bob</b> & co")
'<td>&lt;b&gt;Bob&lt;/b&gt; &amp; co</td>'
>>> script_json({"name": "</script><script>alert(1)</script>"})
'{"name": "\\\\u003c/script\\\\u003e\\\\u003cscript\\\\u003ealert(1)\\\\u003c/script\\\\u003e"}'
"""

from __future__ import annotations

import html
import json
import math
from functools import cache

import polars as pl

from pipeline.report import charts
from pipeline.report.data import PlayerReport

STYLE = """
body { font-family: system-ui, sans-serif; margin: 2rem auto; max-width: 980px; color: #222; }
h1 { margin-bottom: 0.2rem; } .meta { color: #666; margin-top: 0; }
table { border-collapse: collapse; margin: 0.5rem 0 1.5rem; font-size: 0.9rem; }
th, td { border-bottom: 1px solid #ddd; padding: 0.25rem 0.6rem; text-align: right; }
th:first-child, td:first-child { text-align: left; }
section { margin-bottom: 2rem; } .note { color: #666; font-size: 0.85rem; }
"""


def esc(value: object) -> str:
    return html.escape("" if value is None else str(value), quote=True)


def cell(value: object, tag: str = "td") -> str:
    return f"<{tag}>{esc(value)}</{tag}>"


def script_json(value: object) -> str:
    """JSON that is safe inside an HTML ``<script>`` element."""
    text = json.dumps(value, ensure_ascii=False, allow_nan=False, default=str)
    for raw, escaped in (("<", "\\u003c"), (">", "\\u003e"), ("&", "\\u0026")):
        text = text.replace(raw, escaped)
    return text.replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")


@cache
def vega_bundle() -> str:
    """Vega, Vega-Lite and Vega-Embed as one inline script (from ``vl-convert-python``)."""
    import vl_convert
    from altair.utils._importers import vl_version_for_vl_convert

    bundle = vl_convert.javascript_bundle(vl_version=vl_version_for_vl_convert())
    return bundle.replace("</script", "<\\/script")


def number(value: float | None, digits: int = 2) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "–"
    return f"{value:,.{digits}f}"


def share(value: float | None) -> str:
    return "–" if value is None else f"{value:.1%}"


def table(headers: list[str], rows: list[list[object]]) -> str:
    head = "".join(cell(h, "th") for h in headers)
    body = "".join("<tr>" + "".join(cell(v) for v in row) + "</tr>" for row in rows)
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def _key_stats(summary: pl.DataFrame) -> str:
    rows = [
        [
            r["variant"],
            f"{r['hands']:,}",
            number(r["points"], 1),
            f"{number(r['points_per_hand'])} "
            f"[{number(r['points_per_hand_ci_low'])}, {number(r['points_per_hand_ci_high'])}]",
            _money(r["money"], r["currencies"]),
            share(r["foul_rate"]),
            share(r["scoop_rate"]),
            number(r["rows_won_per_row"], 3),
            number(r["royalties_per_hand"]),
        ]
        for r in summary.iter_rows(named=True)
    ]
    headers = [
        "variant",
        "hands",
        "points",
        "points/hand [95% CI]",
        "money",
        "foul rate",
        "scoop rate",
        "rows won/row",
        "royalties/hand",
    ]
    return table(headers, rows)


def _money(money: float | None, currencies: str | None) -> str:
    if currencies is None:
        return "play money"
    if money is None:
        return "mixed currencies"
    return f"{number(money)} {currencies}"


def _money_table(money: pl.DataFrame) -> str:
    if money.height < 2:
        return ""
    rows = [
        [r["currency"], f"{r['hands']:,}", number(r["money"])] for r in money.iter_rows(named=True)
    ]
    return table(["currency", "hands", "money"], rows)


def _fantasyland(summary: pl.DataFrame, versus: pl.DataFrame) -> str:
    row = summary.row(0, named=True)
    counts = table(
        ["live non-FL hands", "entries", "FL hands", "stays", "points per FL hand"],
        [
            [
                f"{row['live_non_fantasyland_hands']:,}",
                f"{row['fantasyland_entries']:,}",
                f"{row['fantasyland_hands']:,}",
                f"{row['fantasyland_stays']:,}",
                number(row["points_per_fantasyland_hand"]),
            ]
        ],
    )
    rates = table(
        ["figure", "player", "population"],
        [
            [r["label"], share(r["player"]), share(r["population"])]
            for r in versus.iter_rows(named=True)
        ],
    )
    return counts + rates


def _style(report: PlayerReport) -> str:
    if report.style_intervals.height == 0:
        return "<p class='note'>No hands outside Fantasyland.</p>"
    s = report.style_intervals.row(0, named=True)
    rows = [
        [label, share(s[f]), f"[{share(s[f + '_ci_low'])}, {share(s[f + '_ci_high'])}]"]
        for f, label in (("bottom_aggression", "bottom aggression"), ("foul_rate", "foul rate"))
    ]
    return table(["figure", "player", "95% CI (Wilson)"], rows)


def _audit(report: PlayerReport) -> str:
    if report.audit_total == 0:
        return "<p>No findings: every figure the room reported agrees with the rules.</p>"
    shown = (
        f" (the latest {report.audit.height} shown)"
        if report.audit_total > report.audit.height
        else ""
    )
    rows = [
        [
            r["room_hand_id"],
            r["played_at"],
            r["disagreements"],
            number(r["reported_points"]),
            number(r["points"]),
            number(r["points_difference"]),
            f"{r['source_file']}:{r['source_line']}",
        ]
        for r in report.audit.iter_rows(named=True)
    ]
    headers = ["hand", "played at", "differs", "room's points", "recomputed", "difference", "where"]
    return (
        f"<p>{report.audit_total:,} player-hands disagree with the rules{esc(shown)}.</p>"
        + table(headers, rows)
    )


def _chart(div: str, spec: dict) -> tuple[str, str]:
    call = f"vegaEmbed('#{div}', {script_json(spec)}, {{actions: false}}).catch(console.error);"
    return f'<div id="{div}"></div>', call


def _library(charts_script: str | None) -> str:
    """The chart library's script element: inline, or the shared file beside the page."""
    if charts_script is None:
        return f'<script type="text/javascript">{vega_bundle()}</script>'
    return f'<script src="{esc(charts_script)}"></script>'


def player_page(
    report: PlayerReport, db_name: str, generated: str, charts_script: str | None = None
) -> str:
    """The HTML page of one player's report; ``charts_script``: the chart library is that file
    beside the page (``--all`` writes it once) instead of inline."""
    cumulative = _chart("cumulative", charts.cumulative_points(report.cumulative))
    style = _chart("style", charts.versus_population(report.style, "Style against the population"))
    fl = _chart("fantasyland", charts.versus_population(report.fantasyland, "Fantasyland"))
    fouls = _chart("fouls", charts.fouls_by_setup(report.fouls_by_setup))
    calls = "\n".join(c for _, c in (cumulative, style, fl, fouls))
    name = esc(report.player)
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<title>OFC report: {name}</title>
<style>{STYLE}</style>
{_library(charts_script)}
</head><body>
<h1>{name}</h1>
<p class="meta">From {esc(db_name)}, generated {esc(generated)}. Points are recomputed by the rules
engine; intervals are 95% (docs/metrics.md).</p>
<section><h2>Key figures</h2>{_key_stats(report.summary)}{_money_table(report.money)}
{cumulative[0]}</section>
<section><h2>Style</h2>{_style(report)}{style[0]}</section>
<section><h2>Fantasyland</h2>{_fantasyland(report.summary, report.fantasyland)}{fl[0]}</section>
<section><h2>Fouls</h2>{fouls[0]}</section>
<section><h2>Audit findings</h2>{_audit(report)}</section>
<script type="text/javascript">
{calls}
</script>
</body></html>
"""


def index_page(
    entries: list[tuple[str, str, int, float | None]], db_name: str, generated: str
) -> str:
    """The index of ``--all``: (player, file name, hands, points per hand) per player."""
    rows = "".join(
        f'<tr><td><a href="{esc(file)}">{esc(player)}</a></td><td>{hands:,}</td>'
        f"<td>{number(per_hand)}</td></tr>"
        for player, file, hands, per_hand in entries
    )
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>OFC reports</title>
<style>{STYLE}</style></head><body>
<h1>Players</h1><p class="meta">From {esc(db_name)}, generated {esc(generated)}.</p>
<table><thead><tr><th>player</th><th>hands</th><th>points/hand</th></tr></thead>
<tbody>{rows}</tbody></table>
</body></html>
"""

"""Self-contained HTML pages: one per player, and an index.

A page carries everything it needs: the Vega, Vega-Lite and Vega-Embed
JavaScript comes inline from the ``vl-convert-python`` package (no CDN, no
network when the page is opened), and each chart's specification is inline
JSON. Pages written together (``--all``) share one copy of the library, a
file beside them, instead of 900 KB inline in each. Player names and every other text from the database are untrusted:
they are HTML-escaped, and JSON inside ``<script>`` has ``<``, ``>`` and
``&`` escaped so no text can close the script.

>>> cell("<b>Bob</b> & co"), cell(None)
('<td>&lt;b&gt;Bob&lt;/b&gt; &amp; co</td>', '<td>—</td>')
>>> script_json({"name": "</script><script>alert(1)</script>"})
'{"name": "\\\\u003c/script\\\\u003e\\\\u003cscript\\\\u003ealert(1)\\\\u003c/script\\\\u003e"}'
"""

from __future__ import annotations

import html
import json
import math
from functools import cache
from pathlib import PurePath

import polars as pl

from pipeline.load.metrics.definitions import BY_NAME
from pipeline.report import charts
from pipeline.report.data import KEY_FIGURES, PlayerReport
from pipeline.report.decisions import DecisionReview
from pipeline.report.format import MISSING, count, figure, interval, money, money_interval, points

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
    """A table cell: the value as escaped text, "—" when it is missing."""
    return f"<{tag}>{MISSING if value is None else esc(value)}</{tag}>"


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
        return MISSING
    return f"{value:,.{digits}f}"


def table(headers: list[str], rows: list[list[object]]) -> str:
    head = "".join(cell(h, "th") for h in headers)
    body = "".join("<tr>" + "".join(cell(v) for v in row) + "</tr>" for row in rows)
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def with_interval(metric: str, value: float | None, low: float | None, high: float | None) -> str:
    """A figure and its 95% interval, as one cell: ``+1.50 (−0.20 to 3.20)``."""
    if low is None or high is None:
        return figure(metric, value)
    return f"{figure(metric, value)} ({figure(metric, low)} to {figure(metric, high)})"


def _key_stats(key: pl.DataFrame) -> str:
    names = [m.name for m in KEY_FIGURES]
    rows = [
        [
            r["variant"],
            f"{r['hands']:,}",
            points(r["points"]),
            f"{r['scoop_rate_n'] or 0:,.0f}",
            *(with_interval(m, r[m], r[f"{m}_low"], r[f"{m}_high"]) for m in names),
        ]
        for r in key.iter_rows(named=True)
    ]
    headers = ["Variant", "Hands", "Points", "Pairings", *(m.label for m in KEY_FIGURES)]
    return table(headers, rows) + (
        "<p class='note'>Each figure with its 95% interval in brackets. n: points per hand, the"
        " foul rate and royalties per hand are over the hands; the scoop rate over the pairings"
        " (one per opponent a hand is settled against); rows won over 3 × the pairings.</p>"
    )


def _money_table(report: PlayerReport) -> str:
    if report.money.is_empty():
        return "<p class='note'>Play money only.</p>"
    rows = [
        [
            r["currency"],
            f"{r['hands']:,}",
            money(r["money"], r["currency"]),
            money(r["money_per_hand"], r["currency"]),
            money_interval(r["money_per_hand_low"], r["money_per_hand_high"], r["currency"]),
        ]
        for r in report.money.iter_rows(named=True)
    ]
    headers = ["Currency", "Hands", "Money", "Money per hand", "95% interval"]
    return table(headers, rows) + (
        "<p class='note'>One row per currency: amounts in different currencies are never"
        " added up.</p>"
    )


def _findings(report: PlayerReport, group: str) -> str:
    """The metrics of ``group`` against the population (pooled per variant, in the player's
    mix of variants), with n, interval, verdict."""
    rows = [
        [
            f.label,
            figure(f.metric, f.value),
            interval(f.metric, f.low, f.high),
            f"{f.n:,.0f}",
            figure(f.metric, f.population),
            interval(f.metric, f.population_low, f.population_high),
            count(f.population_n),
            f.direction,
            f.verdict,
        ]
        for f in report.findings.findings
        if BY_NAME[f.metric].group == group
    ]
    headers = [
        "Figure", "Player", "95% interval", "n",
        "Population", "Population 95% interval", "Population n", "Good", "Verdict",
    ]  # fmt: skip
    return table(headers, rows)


def _fouls(report: PlayerReport) -> str:
    """The foul rate by first-street bottom setup (the chart's figures, as text)."""
    rows = [
        [
            r["setup"],
            f"{r['hands']:,}",
            f"{r['fouls']:,}",
            figure("foul_rate", r["foul_rate"]),
            interval("foul_rate", r["low"], r["high"]),
        ]
        for r in report.fouls_by_setup.iter_rows(named=True)
    ]
    if not rows:
        return "<p>None: the report holds no hand outside Fantasyland without a timeout.</p>"
    headers = ["First-street bottom", "Hands", "Fouls", "Foul rate", "95% interval"]
    return table(headers, rows) + (
        "<p class='note'>Hands outside Fantasyland without a timeout, fouled or not, by the"
        " bottom row after the first street.</p>"
    )


def _fantasyland(report: PlayerReport) -> str:
    row = report.summary.row(0, named=True)
    counts = table(
        ["Live hands outside Fantasyland", "Entries", "Fantasyland hands", "Stays"],
        [
            [
                f"{row['live_non_fantasyland_hands']:,}",
                f"{row['fantasyland_entries']:,}",
                f"{row['fantasyland_hands']:,}",
                f"{row['fantasyland_stays']:,}",
            ]
        ],
    )
    return counts + _findings(report, "fantasyland")


def _style(report: PlayerReport) -> str:
    headers = [
        "Share", "Player", "95% interval", "n",
        "Population (pooled)", "Population 95% interval", "Population n",
    ]  # fmt: skip
    shares = table(
        headers,
        [
            [
                r["label"],
                figure("share", r["player"]),
                interval("share", r["low"], r["high"]),
                f"{r['n']:,.0f}",
                figure("share", r["population"]),
                interval("share", r["population_low"], r["population_high"]),
                count(r["population_n"]),
            ]
            for r in report.shares.iter_rows(named=True)
        ],
    )
    return (
        _findings(report, "style")
        + shares
        + (
            "<p class='note'>The shares have no verdict: their population is every player-hand"
            f" of {_covered(report)}, pooled, as on the dashboard's Style page.</p>"
        )
    )


def _covered(report: PlayerReport) -> str:
    """The hands a report's pooled shares cover, in words."""
    if report.variant == "all":
        return "the database, in every variant"
    return f"the database in {esc(report.variant)}"


def versus(report: PlayerReport, group: str) -> pl.DataFrame:
    """The rates of ``group`` as the chart takes them: figure, label, and the player's and
    the population's values, each with its n and 95% interval."""
    rows = [
        {
            "figure": f.metric,
            "label": f.label,
            "player": f.value,
            "n": f.n,
            "low": f.low,
            "high": f.high,
            "population": f.population,
            "population_n": f.population_n,
            "population_low": f.population_low,
            "population_high": f.population_high,
        }
        for f in report.findings.findings
        if BY_NAME[f.metric].group == group and BY_NAME[f.metric].is_rate
    ]
    if group == "style":
        rows += report.shares.select(list(VERSUS_SCHEMA)).to_dicts()
    return pl.DataFrame(rows, schema=VERSUS_SCHEMA)


#: The columns of ``versus``.
VERSUS_SCHEMA = {
    "figure": pl.String,
    "label": pl.String,
    "player": pl.Float64,
    "n": pl.Float64,
    "low": pl.Float64,
    "high": pl.Float64,
    "population": pl.Float64,
    "population_n": pl.Float64,
    "population_low": pl.Float64,
    "population_high": pl.Float64,
}


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
            r["played_at"] and f"{r['played_at']:%Y-%m-%d %H:%M}",
            r["disagreements"].replace(",", ", ").replace("_", " "),
            points(r["reported_points"]),
            points(r["points"]),
            points(r["points_difference"]),
            f"{PurePath(r['source_file'] or '?').name}:{r['source_line']}",
        ]
        for r in report.audit.iter_rows(named=True)
    ]
    headers = ["Hand", "Played at", "Differs", "Room's points", "Recomputed", "Difference", "File"]
    return (
        f"<p>{report.audit_total:,} player-hands disagree with the rules{esc(shown)}.</p>"
        + table(headers, rows)
    )


def _placement(rows: dict) -> str:
    return " / ".join(" ".join(rows[r] or []) or "–" for r in ("top", "middle", "bottom"))


def _decisions(review: DecisionReview) -> str:
    """EV lost against the best play, by kind and street, and the costliest mistakes."""
    if not review.hands:
        return (
            '<p class="note">No decisions reviewed for this player: run '
            "<code>ofc review --db FILE --player NAME</code> (docs/decisions.md).</p>"
        )
    head = (
        f"<p>EV lost per 100 hands: <b>{number(review.per_100, 1)}</b> points "
        f"(95% interval {number(review.low, 1)} to {number(review.high, 1)}; "
        f"{review.hands:,} hands reviewed). A mistake is a loss beyond two standard errors.</p>"
    )
    kinds = table(
        ["kind", "street", "decisions", "EV lost / decision", "95% interval", "mistakes"],
        [
            [
                r["kind"],
                r["street"],
                f"{r['decisions']:,}",
                number(r["mean"], 3),
                MISSING if r["low"] is None else f"{number(r['low'], 3)} to {number(r['high'], 3)}",
                r["mistakes"],
            ]
            for r in review.by_kind.iter_rows(named=True)
        ],
    )
    worst = table(
        ["hand", "street", "chosen (top / middle / bottom)", "best", "value chosen", "value best", "lost"],
        [
            [r["hand_id"], r["street"], _placement(r["chosen"]), _placement(r["best"]),
             number(r["ev_chosen"]), number(r["ev_best"]), f"{number(r['ev_loss'])} ± {number(r['se_loss'])}"]
            for r in review.costliest.iter_rows(named=True)
        ],
    )  # fmt: skip
    return f"{head}{kinds}<h3>Costliest mistakes</h3>{worst}"


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
    style = _chart(
        "style", charts.versus_population(versus(report, "style"), "Style against the population")
    )
    fl = _chart(
        "fantasyland", charts.versus_population(versus(report, "fantasyland"), "Fantasyland")
    )
    fouls = _chart("fouls", charts.fouls_by_setup(report.fouls_by_setup))
    calls = "\n".join(c for _, c in (cumulative, style, fl, fouls))
    name = esc(report.player)
    covers = "" if report.variant == "all" else f" · {esc(report.variant)} only"
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<title>OFC report: {name}{covers}</title>
<style>{STYLE}</style>
{_library(charts_script)}
</head><body>
<h1>{name}{covers}</h1>
<p class="meta">From {esc(db_name)}, generated {esc(generated)}. Points are recomputed by the rules
engine; intervals are 95% (Wilson for rates, t for means per hand; docs/metrics.md). The
population a figure is held against is every player-hand of the database in the player's variants, pooled per
variant; a figure over several variants is held against the population's in the player's
own mix of variants.</p>
<section><h2>Key figures</h2>{_key_stats(report.key)}
<h3>Money</h3>{_money_table(report)}
{cumulative[0]}</section>
<section><h2>Against the population</h2>{_findings(report, "results")}
<p class="note">{esc(report.findings.sample_note())}</p></section>
<section><h2>Style</h2>{_style(report)}{style[0]}</section>
<section><h2>Fantasyland</h2>{_fantasyland(report)}{fl[0]}</section>
<section><h2>Fouls</h2>{_fouls(report)}{fouls[0]}</section>
<section><h2>Audit findings</h2>{_audit(report)}</section>
<section><h2>Decisions</h2>{_decisions(report.decisions)}</section>
<script type="text/javascript">
{calls}
</script>
</body></html>
"""


def index_page(
    entries: list[tuple[str, str, int, float | None, float | None, float | None]],
    db_name: str,
    generated: str,
) -> str:
    """The index of ``--all``: (player, file name, hands, points per hand and its 95%
    interval) per player."""
    rows = "".join(
        f'<tr><td><a href="{esc(file)}">{esc(player)}</a></td><td>{hands:,}</td>'
        f"<td>{esc(figure('points_per_hand', per_hand))}</td>"
        f"<td>{esc(interval('points_per_hand', low, high))}</td></tr>"
        for player, file, hands, per_hand, low, high in entries
    )
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>OFC reports</title>
<style>{STYLE}</style></head><body>
<h1>Players</h1><p class="meta">From {esc(db_name)}, generated {esc(generated)}.</p>
<table><thead><tr><th>Player</th><th>Hands (n)</th><th>Points per hand</th>
<th>95% interval (t)</th></tr></thead>
<tbody>{rows}</tbody></table>
</body></html>
"""

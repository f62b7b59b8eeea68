"""One static, self-contained HTML page from any set of engine reports.

``render_html`` draws: a summary per engine, the requirements × engines matrix with
filters (text, outcome, family), a detail per requirement (each engine's outcome,
message, shrunk counterexample and replay command), coverage and figures. Styles and
script are inline; the page loads nothing (no CDN, no network) and works from a
``file://`` URL. The same reports always give the same bytes: nothing depends on the
time, the machine or the order of a dict.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from html import escape
from typing import Any

from conformance.report.certificate import HEADLINE, coverage_line
from conformance.report.matrix import CELL, EngineRun, build_matrix

LONGEST_BLOCK = 20_000
"""Characters of one scenario or transcript shown; the rest is cut, with a note."""

STYLE = """
:root { --pass:#1a7f37; --fail:#cf222e; --error:#bc4c00; --nc:#8c959f; --x:#8250df; }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 0;
  color: #1f2328; background: #fff; }
header { background: #24292f; color: #fff; padding: 14px 24px; }
header h1 { margin: 0; font-size: 20px; }
header p { margin: 4px 0 0; color: #d0d7de; }
main { padding: 0 24px 32px; max-width: 1400px; }
h2 { border-bottom: 1px solid #d0d7de; padding-bottom: 4px; margin-top: 28px; }
table { border-collapse: collapse; }
th, td { border: 1px solid #d0d7de; padding: 3px 8px; text-align: left; vertical-align: top; }
th { background: #f6f8fa; }
code, pre { font: 12px/1.4 ui-monospace, "DejaVu Sans Mono", monospace; }
pre { background: #f6f8fa; border: 1px solid #d0d7de; padding: 8px; overflow: auto;
  max-height: 320px; white-space: pre-wrap; word-break: break-all; }
.engines { display: flex; flex-wrap: wrap; gap: 12px; }
.engine { border: 1px solid #d0d7de; border-radius: 6px; padding: 10px 14px; min-width: 300px;
  flex: 1; }
.engine h3 { margin: 0 0 6px; font-size: 16px; }
.verdict { display: inline-block; padding: 1px 8px; border-radius: 10px; color: #fff;
  font-weight: 600; font-size: 12px; }
.v-certified { background: var(--pass); } .v-not-certified { background: var(--fail); }
.v-partial { background: #9a6700; } .v-engine-unavailable { background: var(--error); }
.counts td { border: none; padding: 0 10px 0 0; white-space: nowrap; }
td.rid { white-space: nowrap; }
.controls { display: flex; gap: 12px; align-items: center; margin: 8px 0; flex-wrap: wrap; }
.controls input { width: 280px; padding: 4px 6px; }
#matrix td.cell { text-align: center; font-weight: 600; min-width: 70px; }
.o-pass { color: var(--pass); } .o-fail { color: #fff; background: var(--fail); }
.o-error { color: #fff; background: var(--error); } .o-not-claimed { color: var(--nc); }
.o-xfail { color: var(--x); } .o-xpass { color: #fff; background: var(--x); }
.o-not-run { color: var(--nc); }
td.cell a { color: inherit; }
tr.disagree td.rid::after { content: " \\2260"; color: var(--fail); }
tr.hidden { display: none; }
details.req { border: 1px solid #d0d7de; border-radius: 6px; margin: 6px 0; padding: 4px 10px; }
details.req[open] { box-shadow: 0 0 0 2px #0969da33; }
details.req summary { cursor: pointer; font-weight: 600; }
.outcome { margin: 8px 0 12px; padding-left: 10px; border-left: 3px solid #d0d7de; }
.outcome.o-fail, .outcome.o-error, .outcome.o-xpass { background: none; color: inherit;
  border-left-color: var(--fail); }
.muted { color: #656d76; }
footer { padding: 12px 24px; color: #656d76; border-top: 1px solid #d0d7de; }
"""

SCRIPT = """
(function () {
  var rows = Array.prototype.slice.call(document.querySelectorAll('#matrix tbody tr'));
  var text = document.getElementById('filter');
  var outcome = document.getElementById('outcome');
  var family = document.getElementById('family');
  var shown = document.getElementById('shown');
  function keep(row) {
    var needle = text.value.trim().toLowerCase();
    if (needle && row.getAttribute('data-search').indexOf(needle) < 0) return false;
    if (family.value && row.getAttribute('data-family') !== family.value) return false;
    var outcomes = row.getAttribute('data-outcomes').split(' ');
    switch (outcome.value) {
      case 'failing': return outcomes.some(function (o) {
        return o === 'fail' || o === 'error' || o === 'xpass'; });
      case 'disagree': return row.getAttribute('data-agree') === 'false';
      case '': return true;
      default: return outcomes.indexOf(outcome.value) >= 0;
    }
  }
  function apply() {
    var count = 0;
    rows.forEach(function (row) {
      var on = keep(row);
      row.classList.toggle('hidden', !on);
      if (on) count += 1;
    });
    shown.textContent = count + ' of ' + rows.length + ' requirements shown';
  }
  function open(hash) {
    if (!hash || hash.indexOf('#detail-') !== 0) return;
    var target = document.getElementById(hash.slice(1));
    if (!target) return;
    var box = target.tagName === 'DETAILS' ? target : target.closest('details');
    if (box) box.open = true;
    target.scrollIntoView();
  }
  [text, outcome, family].forEach(function (el) {
    el.addEventListener('input', apply);
    el.addEventListener('change', apply);
  });
  window.addEventListener('hashchange', function () { open(window.location.hash); });
  document.addEventListener('click', function (event) {
    var link = event.target.closest ? event.target.closest('a[href^="#detail-"]') : null;
    if (link) open(link.getAttribute('href'));
  });
  apply();
  open(window.location.hash);
})();
"""


def _e(value: Any) -> str:
    return escape(str(value), quote=True)


def pretty(value: Any, level: int = 0) -> str:
    """Indented JSON text in which a list or object of scalars stays on one line."""
    flat = json.dumps(value, ensure_ascii=False, sort_keys=True)
    nested = isinstance(value, (list, dict)) and any(
        isinstance(v, (list, dict)) for v in (value.values() if isinstance(value, dict) else value)
    )
    if not nested or len(flat) + 2 * level <= 80:
        return flat
    pad = "  " * (level + 1)
    if isinstance(value, dict):
        items = [
            f"{pad}{json.dumps(k, ensure_ascii=False)}: {pretty(v, level + 1)}"
            for k, v in sorted(value.items())
        ]
        return "{\n" + ",\n".join(items) + "\n" + "  " * level + "}"
    items = [f"{pad}{pretty(v, level + 1)}" for v in value]
    return "[\n" + ",\n".join(items) + "\n" + "  " * level + "]"


def _block(value: Any) -> str:
    text = value if isinstance(value, str) else pretty(value)
    if len(text) > LONGEST_BLOCK:
        cut = len(text) - LONGEST_BLOCK
        text = text[:LONGEST_BLOCK] + f"\n... ({cut} more characters in the file)"
    return f"<pre>{_e(text)}</pre>"


def _anchor(req_id: str, label: str | None = None) -> str:
    return f"detail-{req_id}" + (f"-{label}" if label else "")


def _summary(matrix: dict[str, Any]) -> list[str]:
    parts = ['<section id="summary"><h2>Engines</h2><div class="engines">']
    for n, e in enumerate(matrix["engines"], 1):
        c = e["counts"]
        lang = f" · {_e(e['language'])}" if e.get("language") else ""
        parts.append(
            f'<div class="engine" data-engine="{_e(e["label"])}">'
            f"<h3>[{n}] {_e(e['label'])}{lang}</h3>"
            f'<span class="verdict v-{_e(e["verdict"])}">{_e(e["headline"])}</span>'
            f"<p><code>{_e(e['command'])}</code><br>"
            f'<span class="muted">report: {_e(e["report_dir"])}/</span></p>'
            '<table class="counts"><tr>'
            f"<td><b>{c['passed']}</b> of {c['claimed']} claimed pass</td>"
            f"<td>{c['failed']} fail</td><td>{c['errors']} error</td>"
            f"<td>{c['not_claimed']} not claimed</td><td>{c['xfailed']} xfail</td>"
            f"<td>{c['examples']} examples</td></tr></table>"
        )
        if e.get("fault"):
            parts.append(f"<p><b>engine unavailable</b>: {_e(e['fault'])}</p>")
        if e["left_out"]:
            items = "".join(f"<li>{_e(line)}</li>" for line in e["left_out"])
            parts.append(f'<ul class="muted">{items}</ul>')
        parts.append("</div>")
    parts.append("</div></section>")
    return parts


def _matrix(matrix: dict[str, Any]) -> list[str]:
    engines = matrix["engines"]
    families = sorted({row["family"] for row in matrix["requirements"]})
    outcome_options = [
        ("", "every outcome"),
        ("failing", "failing on some engine"),
        ("disagree", "engines disagree"),
        ("pass", "pass somewhere"),
        ("not-claimed", "not claimed somewhere"),
    ]
    parts = [
        '<section id="matrix-section"><h2>Requirements × engines</h2><div class="controls">',
        '<input id="filter" type="search" placeholder="filter by id or title" '
        'aria-label="filter by id or title">',
        '<select id="outcome" aria-label="outcome">',
        *(f'<option value="{v}">{t}</option>' for v, t in outcome_options),
        '</select><select id="family" aria-label="family"><option value="">every family</option>',
        *(f'<option value="{_e(f)}">{_e(f)}</option>' for f in families),
        '</select><span id="shown" class="muted"></span></div>',
        '<table id="matrix"><thead><tr><th>requirement</th><th>title</th>',
        *(
            f'<th title="{_e(e["command"])}">[{n}] {_e(e["label"])}</th>'
            for n, e in enumerate(engines, 1)
        ),
        "</tr></thead><tbody>",
    ]
    for row in matrix["requirements"]:
        outcomes = " ".join(sorted({c["outcome"] for c in row["cells"].values()}))
        search = f"{row['id']} {row['title']}".lower()
        agree = "true" if row["agree"] else "false"
        parts.append(
            f'<tr data-id="{_e(row["id"])}" data-family="{_e(row["family"])}" '
            f'data-outcomes="{_e(outcomes)}" data-agree="{agree}" data-search="{_e(search)}"'
            f"{'' if row['agree'] else ' class=' + chr(34) + 'disagree' + chr(34)}>"
            f'<td class="rid"><a href="#{_anchor(row["id"])}">{_e(row["id"])}</a></td>'
            f"<td>{_e(row['title'])}</td>"
        )
        for e in engines:
            cell = row["cells"][e["label"]]
            mark = _e(CELL[cell["outcome"]])
            if cell.get("replay"):
                href = _anchor(row["id"], e["label"])
                mark = f'<a class="ce" href="#{href}">{mark}</a>'
            parts.append(
                f'<td class="cell o-{_e(cell["outcome"])}" data-engine="{_e(e["label"])}" '
                f'title="{_e(cell["outcome"])}">{mark}</td>'
            )
        parts.append("</tr>")
    parts.append("</tbody></table>")
    parts.append(
        '<p class="muted">pass, FAIL, ERROR, xfail (expected failure), XPASS; - not claimed; '
        ". not run; ≠ engines disagree. A failing cell opens its counterexample.</p></section>"
    )
    return parts


def _outcome_detail(
    row: dict[str, Any], engine: dict[str, Any], cases: Mapping[str, Any], result: Any
) -> list[str]:
    cell = row["cells"][engine["label"]]
    parts = [
        f'<div class="outcome o-{_e(cell["outcome"])}" id="{_anchor(row["id"], engine["label"])}" '
        f'data-engine="{_e(engine["label"])}">',
        f'<b>{_e(engine["label"])}</b>: <span class="o-{_e(cell["outcome"])}">'
        f"{_e(cell['outcome'])}</span>, {cell['examples']} examples"
        + (f" [{_e(cell['fault'])}]" if cell.get("fault") else ""),
    ]
    if cell["message"]:
        parts.append(f"<p>{_e(cell['message'])}</p>")
    if cell.get("replay"):
        replay = _e(cell["replay"])
        parts.append(f'<div>replay:</div><pre class="replay"><code>{replay}</code></pre>')
    case = cases.get(cell["counterexample"]) if cell.get("counterexample") else None
    if isinstance(case, dict):
        parts.append("<div>shrunk counterexample:</div>")
        parts.append(f'<div class="scenario">{_block(case.get("scenario"))}</div>')
        if case.get("transcript"):
            parts.append("<details><summary>transcript</summary>")
            parts.append(_block(case["transcript"]))
            parts.append("</details>")
    if isinstance(result, dict) and result.get("coverage"):
        parts.append(f'<div class="muted">coverage: {_e(coverage_line(result["coverage"]))}</div>')
    if isinstance(result, dict) and result.get("details"):
        figures = ", ".join(f"{k} {json.dumps(v)}" for k, v in sorted(result["details"].items()))
        parts.append(f'<div class="muted">figures: {_e(figures)}</div>')
    parts.append("</div>")
    return parts


def _details(
    matrix: dict[str, Any], runs: Sequence[EngineRun], cases: Sequence[Mapping[str, Any]]
) -> list[str]:
    by_engine = [{r["id"]: r for r in run.report["results"]} for run in runs]
    parts = ['<section id="details"><h2>Requirements</h2>']
    for row in matrix["requirements"]:
        failing = any(c.get("replay") for c in row["cells"].values())
        parts.append(
            f'<details class="req" id="{_anchor(row["id"])}"{" data-failing" if failing else ""}>'
            f"<summary>{_e(row['id'])} · {_e(row['title'])} "
            f'<span class="muted">({_e(row["family"])})</span></summary>'
        )
        for engine, results, found in zip(matrix["engines"], by_engine, cases, strict=True):
            parts += _outcome_detail(row, engine, found, results.get(row["id"]))
        parts.append("</details>")
    parts.append("</section>")
    return parts


def _coverage(matrix: dict[str, Any], runs: Sequence[EngineRun]) -> list[str]:
    by_engine = [{r["id"]: r for r in run.report["results"]} for run in runs]
    ids = [row["id"] for row in matrix["requirements"]]
    rows = [i for i in ids if any((e.get(i) or {}).get("coverage") for e in by_engine)]
    if not rows:
        return []
    head = "".join(f"<th>{_e(e['label'])}</th>" for e in matrix["engines"])
    parts = [
        '<section id="coverage"><h2>Coverage</h2>',
        f"<table><tr><th>requirement</th>{head}</tr>",
    ]
    for req_id in rows:
        lines = [coverage_line((e.get(req_id) or {}).get("coverage") or {}) for e in by_engine]
        cells = "".join(f"<td>{_e(line)}</td>" for line in lines)
        parts.append(f"<tr><td>{_e(req_id)}</td>{cells}</tr>")
    parts.append("</table></section>")
    return parts


def _figures(matrix: dict[str, Any], runs: Sequence[EngineRun]) -> list[str]:
    parts = [
        '<section id="figures"><h2>Figures</h2><table>',
        "<tr><th>engine</th><th>requirement</th><th>figures</th></tr>",
    ]
    count = 0
    for engine, run in zip(matrix["engines"], runs, strict=True):
        for result in sorted(run.report["results"], key=lambda r: r["id"]):
            for key, value in sorted((result.get("details") or {}).items()):
                count += 1
                parts.append(
                    f"<tr><td>{_e(engine['label'])}</td><td>{_e(result['id'])}</td>"
                    f"<td>{_e(key)}: <code>{_e(json.dumps(value, sort_keys=True))}</code></td></tr>"
                )
        budget = run.report.get("budget")
        if budget:
            count += 1
            parts.append(
                f"<tr><td>{_e(engine['label'])}</td><td>(budget)</td>"
                f"<td><code>{_e(json.dumps(budget, sort_keys=True)[:2000])}</code></td></tr>"
            )
    parts.append("</table></section>")
    return parts if count else []


def render_html(runs: Sequence[EngineRun], cases: Sequence[Mapping[str, Any]] | None = None) -> str:
    """The page for *runs*; *cases* gives, per run, its counterexample files' content by
    path (``conformance.compare.counterexamples``)."""
    matrix = build_matrix(runs)
    found = list(cases) if cases is not None else [{} for _ in runs]
    versions = sorted({str(run.report.get("suite", {}).get("version")) for run in runs})
    title = f"CORE conformance: {len(runs)} engine{'s' if len(runs) != 1 else ''} side by side"
    body = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        '<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; '
        "style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:\">",
        f"<title>{_e(title)}</title><style>{STYLE}</style></head><body>",
        f"<header><h1>{_e(title)}</h1><p>core-conformance {_e(', '.join(versions))} · "
        f'overall <span class="verdict v-{_e(matrix["verdict"])}">{_e(HEADLINE[matrix["verdict"]])}'
        "</span> (the worst engine's)</p></header><main>",
        *_summary(matrix),
        *_matrix(matrix),
        *_details(matrix, runs, found),
        *_coverage(matrix, runs),
        *_figures(matrix, runs),
        "</main><footer>",
        *(
            f"<div>[{n}] {_e(e['label'])}: verdict digest "
            f"<code>{_e(e['verdict_digest'])}</code></div>"
            for n, e in enumerate(matrix["engines"], 1)
        ),
        f"</footer><script>{SCRIPT}</script></body></html>",
    ]
    return "\n".join(body) + "\n"

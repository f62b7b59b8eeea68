"""The audit of docs/normative.json by sentence mutation: the sample and its outcome.

A ledger entry that cites a requirement which does not check its sentence is worse than
no entry, so the ledger is audited by sampling: :func:`sample` draws, with the seeded
generator ``random.Random(SEED)``, about :data:`CHECKED` sentences whose entry cites
requirements (stratified by document: each document gets its share of the checked
sentences, rounded, and at least :data:`PER_DOC`), and :data:`INFORMATIVE` sentences
marked informative in docs/spec.md and docs/state.md (the two largest informative
groups, shared the same way). Keys are drawn from the document-ordered list of each
stratum, so the sample changes only when the ledger does.

For each sampled checked sentence a broken engine violates exactly that sentence, the way
a port would read its words wrongly, and is certified with only the ids the ledger cites
(``python -m conformance certify --engine-python selftest.engines:NAME --id ...``). The
outcomes live in :data:`OUTCOMES`: ``cited`` (a cited id fails), ``elsewhere`` (only
another id fails: the citation was wrong and is fixed), ``missed`` (nothing failed: a
hole, closed by a requirement) or ``not run``. Informative sentences are judged
``informative`` (states no behaviour a port could get wrong) or ``reclassified``.

The sample drawn at the audit is frozen as the keys of ``tools/normative_probes.py``
(a ledger edited since draws another sample from the same seed; the audit keeps its own).
``python -m tools.normative_audit`` prints a fresh draw; ``--record`` runs the frozen
sample's probes and writes
``docs/figures/normative-audit.json`` (sample, outcome per sentence, rates), which
``python -m tools.docfigures`` renders into docs/traceability.md § Normative sentences.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from typing import Any

from tools import normative
from tools.benchrecord import Recording, short

SEED = 38
CHECKED = 40
PER_DOC = 4
INFORMATIVE = 10
INFORMATIVE_DOCS = ("spec.md", "state.md")
NAME = "normative-audit"
"""The recorded run: ``docs/figures/normative-audit.json`` (:mod:`tools.benchrecord`)."""


def _shares(sizes: dict[str, int], total: int, floor: int) -> dict[str, int]:
    """*total* spread over *sizes* in proportion, each at least *floor* (or its size)."""
    whole = sum(sizes.values())
    return {d: min(n, max(floor, round(total * n / whole))) for d, n in sizes.items()}


def strata(ledger: dict[str, Any], kind: str, docs: tuple[str, ...]) -> dict[str, list[str]]:
    """Per document, in document order, the keys whose entry is of *kind*."""
    order = [s.key for s in normative.sentences()]
    entries = ledger["sentences"]
    found: dict[str, list[str]] = {d: [] for d in docs}
    for key in order:
        doc = key.split("#", 1)[0]
        if doc in found and normative.status(entries[key]["checked_by"]) == kind:
            found[doc].append(key)
    return found


def sample(ledger: dict[str, Any], seed: int = SEED) -> dict[str, list[str]]:
    """The audit's sample: ``checked`` and ``informative`` keys, drawn with *seed*."""
    rng = random.Random(seed)
    result: dict[str, list[str]] = {"checked": [], "informative": []}
    for kind, docs, total, floor in (
        ("checked", normative.DOCS, CHECKED, PER_DOC),
        ("informative", INFORMATIVE_DOCS, INFORMATIVE, 1),
    ):
        groups = strata(ledger, kind, docs)
        shares = _shares({d: len(k) for d, k in groups.items()}, total, floor)
        for doc in docs:
            result[kind] += rng.sample(groups[doc], shares[doc])
    return result


OUTCOMES = ("cited", "elsewhere", "missed")
"""Worst last: a sentence's outcome is its worst probe's."""


def engine(probe: str) -> Any:
    """The :class:`selftest.engines.BrokenEngine` a probe (``KIND:NAME``) names."""
    from selftest.engines import BROKEN, broken_engine
    from selftest.mutants import audit
    from selftest.mutants.enumerations import swapped
    from selftest.mutants.rule_deletions import without
    from selftest.state_mutants import BROKEN_STATE

    kind, _, name = probe.partition(":")
    if kind == "broken":
        return BROKEN[name]
    if kind == "state":
        return BROKEN_STATE[name]
    factory = {
        "audit": lambda: getattr(audit, name),
        "rule": lambda: without(name),
        "swap": lambda: swapped(name),
    }[kind]()
    return broken_engine(name, factory)


def failing(probe: str, ids: list[str]) -> list[str]:
    """The ids of *ids* that fail (or error) on the engine of *probe*, ci profile."""
    from selftest.checks import run_in_process

    broken = engine(probe)
    return [i for i in ids if run_in_process(broken, i).verdict in ("fail", "error")]


def first_failing(probe: str, ids: list[str]) -> str | None:
    """The first id of *ids* that fails (or errors) on the engine of *probe*, or None."""
    from selftest.checks import run_in_process

    broken = engine(probe)
    verdicts = ((i, run_in_process(broken, i).verdict) for i in ids)
    return next((i for i, verdict in verdicts if verdict in ("fail", "error")), None)


def audit(ledger: dict[str, Any], log: Any = None) -> dict[str, Any]:
    """Run every probe of the sample on the ids its sentence's entry cites; the figure."""
    from tools.normative_probes import ADDED, INFORMATIVE_JUDGED, NOTES, PROBES

    drawn = {"checked": list(PROBES), "informative": list(INFORMATIVE_JUDGED)}
    rows = []
    for key in drawn["checked"]:
        cited = list(ledger["sentences"][key]["checked_by"])
        added = [i for i in cited if i in ADDED.get(key, ())]
        before = [i for i in cited if i not in added]
        probes = []
        for probe in PROBES.get(key, ()):
            caught = failing(probe, before) or failing(probe, added)
            outcome = "cited" if set(caught) & set(before) else "elsewhere" if caught else "missed"
            probes.append({"engine": probe, "caught_by": caught, "outcome": outcome})
            if log is not None:
                print(f"{key} {probe}: {outcome} {caught}", file=log, flush=True)
        worst = max((OUTCOMES.index(p["outcome"]) for p in probes), default=None)
        rows.append(
            {
                "key": key,
                "cited_before": before,
                "added": added,
                "probes": probes,
                "outcome": "not run" if worst is None else OUTCOMES[worst],
                "note": NOTES.get(key, ""),
            }
        )
    judged = [
        {"key": k, "verdict": INFORMATIVE_JUDGED[k][0], "why": INFORMATIVE_JUDGED[k][1]}
        for k in drawn["informative"]
    ]
    tally = {o: sum(r["outcome"] == o for r in rows) for o in (*OUTCOMES, "not run")}
    return {
        "seed": SEED,
        "checked": rows,
        "informative": judged,
        "outcomes": tally,
        "reclassified": sum(j["verdict"] == "reclassified" for j in judged),
    }


def figure() -> str:
    """The Markdown of ``docs/figures/normative-audit.json`` (for tools/docfigures.py)."""
    from tools import benchfigures

    document = benchfigures.load(NAME)
    data = document["figures"]
    rows = data["checked"]
    tally = data["outcomes"]
    run = len(rows) - tally["not run"]
    lines = [
        f"Audit by sentence mutation (seed {data['seed']}): "
        f"{len(rows)} checked sentences drawn by document, each violated by one to three "
        f"broken engines ({sum(len(r['probes']) for r in rows)} in all), each certified with "
        f"only the ids its entry cites. Caught by a cited id: {tally['cited']} of {run} "
        f"({100 * tally['cited'] / max(run, 1):.0f}%); caught only by another id (the "
        f"citation was incomplete, now fixed): {tally['elsewhere']}; caught by nothing (a "
        f"hole): {tally['missed']}. Of {len(data['informative'])} sampled informative "
        f"sentences of docs/spec.md and docs/state.md, {data['reclassified']} stated "
        "engine behaviour and were reclassified.",
        "",
        "| sentence | cited before | added | broken engines (failing ids) | outcome |",
        "|---|---|---|---|---|",
    ]
    for r in rows:
        probes = "; ".join(
            f"`{p['engine']}` ({', '.join(p['caught_by']) or 'none'})" for p in r["probes"]
        )
        lines.append(
            f"| `{r['key']}` | {', '.join(r['cited_before'])} | {', '.join(r['added']) or '-'}"
            f" | {probes} | {r['outcome']} |"
        )
    lines += ["", "| informative sentence | verdict | why |", "|---|---|---|"]
    lines += [f"| `{j['key']}` | {j['verdict']} | {j['why']} |" for j in data["informative"]]
    lines += ["", f"Recorded by `{document['command']}` at commit {short(document['commit'])}."]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.normative_audit", description=__doc__)
    parser.add_argument("--record", action="store_true", help="run the probes, write the figure")
    args = parser.parse_args(argv)
    ledger = normative.load()
    if not args.record:
        for kind, keys in sample(ledger).items():
            for key in keys:
                entry = ledger["sentences"][key]
                print(f"{kind}\t{key}\t{json.dumps(entry['checked_by'])}\t{entry['text'][:120]}")
        return 0
    recording = Recording(NAME, argv)
    recording.write(audit(ledger, log=sys.stderr))
    print("now run python -m tools.docfigures", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

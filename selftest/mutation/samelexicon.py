"""Which lexicon loader mutants load the shipped packs to the same lexicon.

``python -m selftest.mutation.samelexicon NAME ...`` (from the project root, after
``python -m selftest.mutation.generate``) prints ``SAME``, ``DIFF`` or ``ERROR`` and the
mutmut name, one line per mutant.

The engine loads only its shipped language packs and teaching chains, and no request of
core-engine/1 loads another, so a loader mutant that builds the same lexicon from them
(every pack, lemma, index entry and chain, field by field) changes nothing a request can
observe: it differs only for a malformed pack. Its review line says so (``unreachable``);
the mutation run would otherwise certify it with every requirement, since the lexicon is
loaded on first use (``fastrun.first_use``). ``DIFF`` and ``ERROR`` mutants are left to the
run. Each mutant is loaded in a forked child, so no cache outlives it.
"""

from __future__ import annotations

import os
import sys


def fingerprint() -> str:
    """Every field of the lexicon the shipped packs and teaching chains load to."""
    from reference.lexicon.index import load_lexicon
    from reference.lexicon.loader import DATA_DIR, SHIPPED_PACK_IDS

    lexicon = load_lexicon(
        [DATA_DIR / f"{pack_id}.json" for pack_id in SHIPPED_PACK_IDS],
        DATA_DIR / "teaching.json",
    )
    packs = [
        (
            pack.pack_id,
            pack.language,
            pack.version,
            [(e.lemma, e.pos, e.domains, e.gloss, e.pack_id, e.has_gloss) for e in pack.lemmas],
        )
        for pack in lexicon.packs
    ]
    index = sorted((name, repr(entry)) for name, entry in lexicon._index.items())
    chains = [
        (chain.chain_id, [(s.source, s.relation, s.target) for s in chain.steps], chain.lemmas)
        for chain in lexicon.chains
    ]
    return repr((packs, index, chains))


def _in_child(name: str) -> str:
    from mutmut.mutation import trampoline

    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read)
        try:
            if name:
                trampoline.set_mutant_under_test(name)
            out = fingerprint()
        except BaseException as exc:  # noqa: BLE001  (a mutant that breaks loading differs)
            out = f"ERROR {type(exc).__name__}"
        os.write(write, out.encode())
        os._exit(0)
    os.close(write)
    chunks = []
    while chunk := os.read(read, 1 << 20):
        chunks.append(chunk)
    os.close(read)
    os.waitpid(pid, 0)
    return b"".join(chunks).decode()


def main(names: list[str]) -> int:
    from selftest.mutation import fastrun

    fastrun._enter_mutants()
    from mutmut.mutation import trampoline

    os.environ["MUTMUT_DEPENDENCY_DEPTH"] = "-1"
    trampoline.record_trampoline_hit = lambda *args, **kwargs: None  # type: ignore[assignment]
    base = _in_child("")
    if base.startswith("ERROR"):
        print(f"the unmutated loader fails: {base}", file=sys.stderr)
        return 2
    for name in names:
        out = _in_child(name)
        verdict = "SAME" if out == base else "ERROR" if out.startswith("ERROR") else "DIFF"
        print(verdict, name, flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

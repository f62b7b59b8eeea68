"""Differential fuzzing: two engines, one stream of requests, every answer compared.

``python -m tools.differential --seed N --requests K [--area AREA ...] [--engine-a CMD]
[--engine-b CMD] [--json]``

Contract:

* Starts both engines (default: ``python -m reference serve`` and
  ``node ports/node/engine.js``) as programs speaking core-engine/1 over stdio and
  sends both the same generated requests, one line at a time. The stream is a
  function of ``--seed`` alone (a ``random.Random``), cut into independent *cases*
  (a chat session, one algebra call, a batch, ...) of about ``--requests`` requests
  in all, spread over the areas. Handles (FREE-007) are never compared: a case
  names "the k-th handle this case opened", and each engine gets its own handle.
* Each pair of responses is compared after :func:`normalise` removes exactly what
  docs/spec.md § Freedoms grants (every dropped member names its FREE row there);
  algebra results are compared within the ULP bounds of docs/spec.md § Algebra.
  Nothing else is forgiven: any other difference is a disagreement.
* Prompts hold no code point unassigned in Unicode 14.0 (FREE-023).
* A disagreeing case is shrunk (requests dropped while it still disagrees, replayed
  on the same engines: cases share no state) and reported once per (op, member):
  the op of the first disagreeing response and the path of its first differing
  member, with the shortest stream found and both answers.
* Exit status 0 when the engines agree on every request, 1 when some disagreement
  was found, 2 on a usage error or an engine that stops answering.

State cases may hold damage steps (:mod:`.damage`): not sent, they break the engine's
state directory between two requests (a manifest, a generation's files, ``CURRENT``, a
stray entry, a ``LOCK`` left behind, a journal's lines, a delta's base), the same edit on
both engines' directories, chosen by the seed; each answers the directory's entries as
it found them, compared like a response. Where one engine's directory holds a delta
generation the other's lacks, writing deltas being free (FREE-024), the case is compared
no further. A ``state.soak``'s event lines are compared too (its answer's ``"$events"``).

Only what both engines claim in ``hello`` is generated (the reference's ``fork`` and
``registers.ratify_file`` are not the Node port's), and ``hello`` itself is not
compared: its ``engine`` names each engine (FREE-010 for ``language``).

Modules: :mod:`.engines` (an engine process), :mod:`.replay` (a case played on two
engines), :mod:`.areas` (the generators), :mod:`.normalise` and :mod:`.algebra_bounds`
(what is forgiven), :mod:`.compare`, :mod:`.shrink`, :mod:`.run` and :mod:`.report`.
"""

'use strict';
// What an answer says, as data: the `says` object of session.chat (capability `answers`,
// docs/intents.md § What an answer says, as data). A function of the turn's sealed record
// content alone, so it never depends on the register.

const QUOTED = 3;

const stepsOf = (steps) => steps.map((s) => ({ from: s.from, relation: s.relation, to: s.to }));

/** The latest claim first, then the others, the latest first; at most three. */
function quoted(said) {
  const latest = [...said].sort((a, b) => b.turn_idx - a.turn_idx);
  const claim = latest.find((s) => s.claim !== null);
  const ordered = claim ? [claim, ...latest.filter((s) => s !== claim)] : latest;
  return ordered.slice(0, QUOTED).map((s) => ({ turn: s.turn_idx + 1, text: s.text, claim: s.claim }));
}

function recall(content) {
  const hits = content.vault_hits;
  if (content.subject === null) {
    const pooled = new Map();
    for (const hit of hits) for (const s of hit.said) pooled.set(JSON.stringify([s.turn_idx, s.text]), s);
    const items = quoted([...pooled.values()]);
    return { said: items, earlier: null, claim: items.length ? items[0].claim : null };
  }
  if (!hits.length) return { said: [], earlier: 0, claim: null };
  const hit = hits[0];
  return { said: quoted(hit.said), earlier: hit.count, claim: hit.latest_claim };
}

const COMPARED = 3;

/** The shared and own domains of a COMPARISON's first two known subjects (first three of each). */
function compared(content) {
  const grounded = content.grounded;
  if (content.intent !== 'COMPARISON' || grounded.length < 2) return null;
  const [first, second] = grounded.slice(0, 2).map((e) => e.domains.slice(0, COMPARED));
  const shared = first.filter((d) => second.includes(d));
  return { own: [first, second].map((ds) => ds.filter((d) => !shared.includes(d))), shared };
}

const SPANNED = 2;

/** A PROCEDURE's start: its known subject's first two domains. */
function start(content) {
  const { grounded } = content;
  if (content.intent !== 'PROCEDURE' || !grounded.length || content.unknown.includes(content.subject)) return null;
  return grounded[0].domains.slice(0, SPANNED);
}

/** What a FRAME_TRANSFER's first two known subjects span: the first two domains of each. */
function spans(content) {
  const { grounded } = content;
  if (content.intent !== 'FRAME_TRANSFER' || grounded.length < 2) return null;
  return grounded.slice(0, 2).map((e) => e.domains.slice(0, SPANNED));
}

/** The `says` object of the turn whose sealed record content is *content*. */
function says(content) {
  const { intent, answer } = content;
  const source = content.grounding_source;
  const verifies = intent === 'VERIFICATION' && Boolean(answer);
  const path = content.teaching_path;
  const told = answer ? answer.told : path;
  let way = null;
  if (intent === 'TRANSITIVE_QUERY' && path.length) {
    way = path[0].from === content.grounded[0].lemma ? 'forward' : 'backward';
  }
  let said = [];
  let earlier = null;
  let claim = null;
  if (intent === 'RECALL' && (source === 'vault' || content.subject !== null)) {
    ({ said, earlier, claim } = recall(content));
  } else if (intent === 'CORRECTION') {
    claim = content.claim;
  } else if (verifies && answer.by === 'vault') {
    claim = content.vault_hits[0].latest_claim;
  }
  return {
    by: verifies ? answer.by : null,
    checked: verifies ? answer.checked : null,
    claim,
    compared: compared(content),
    earlier,
    said,
    spans: spans(content),
    start: start(content),
    steps: stepsOf(told),
    unknown: source === 'partial' || source === 'oov' ? [...content.unknown] : [],
    verdict: verifies ? answer.verdict : null,
    way,
  };
}

module.exports = { says };

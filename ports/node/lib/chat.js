'use strict';
// A chat session: the truth pipeline, then the realizer under a register (depth, decoration).
// The register only shapes the words after the record is sealed, so nothing it holds can
// reach the trace hash (invariants A, B and C of docs/spec.md).

const { TruthPipeline } = require('./truth');
const variation = require('./variation');

const UNREGISTERED = { register_id: null, realizer_overrides: {}, discourse_markers: null };

const capitalize = (text) => (text ? text[0].toUpperCase() + text.slice(1) : text);

function listed(words) {
  if (words.length <= 1) return words.join('');
  return `${words.slice(0, -1).join(', ')} and ${words[words.length - 1]}`;
}

/** The undecorated answer: what the record says, at the register's disclosure depth. */
function compose(record, depth) {
  const { grounding, unknown } = record;
  if (grounding.source === 'teaching') {
    const steps = grounding.steps.map((s) => `${s.from} ${s.relation} ${s.to}`);
    return `${capitalize(steps.join(', and '))}. teaching-grounded.`;
  }
  if (grounding.source === 'none') return 'I have nothing to go on yet.';
  if (grounding.source === 'oov') return `I do not know ${listed(unknown)} yet.`;
  const entry = grounding.subject;
  if (grounding.source === 'vault' && grounding.hit === null) {
    return `${capitalize(entry.lemma)}: noted, ${grounding.claim}.`;
  }
  if (grounding.source === 'vault') {
    const hit = grounding.hit;
    const said = hit.latest_claim ? ` You said: ${hit.latest_claim}.` : '';
    const noted = grounding.claim ? ` Noted: ${grounding.claim}.` : '';
    return `${capitalize(entry.lemma)} came up before (turn ${hit.last_turn}).${said}${noted}`;
  }
  const meaning = entry.gloss !== null ? `is ${entry.gloss}` : `belongs to ${listed(entry.domains.slice(0, depth))}`;
  let text = `${capitalize(entry.lemma)} ${meaning}. pack-grounded (${entry.pack_id}).`;
  if (grounding.claim) text += ` Noted: ${grounding.claim}.`;
  if (grounding.source === 'partial') text += ` I do not know ${listed(unknown)} yet.`;
  return text;
}

class ChatSession {
  constructor(lexicon, register) {
    this.truth = new TruthPipeline(lexicon);
    this.register = register || UNREGISTERED;
  }

  chat(text) {
    const record = this.truth.run(text);
    const depth = variation.resolveDepth(this.register.realizer_overrides, record.intent);
    const plain = compose(record, depth);
    const registerId = this.register.register_id;
    const decoration =
      registerId === null
        ? { decorated: plain, register_variant_id: '' }
        : variation.decorate(plain, this.register.discourse_markers, registerId, record.trace_hash, record.turn_idx);
    return {
      surface: decoration.decorated,
      pre_decoration_surface: plain,
      trace_hash: record.trace_hash,
      grounding_source: record.grounding_source,
      intent: record.intent,
      subject: record.subject,
      turn_idx: record.turn_idx,
      versor_condition: record.versor_condition,
      register_id: registerId,
      register_variant_id: decoration.register_variant_id,
    };
  }
}

module.exports = { ChatSession };

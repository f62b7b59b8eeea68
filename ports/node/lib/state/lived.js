'use strict';
// A chat session that lives on a store (docs/protocol.md § Sessions on a store): it resumes
// the life the store holds, and each turn applies the turn, the session record, the life
// record and the vault records the turn changed, then checkpoints before it is answered.

const { lifeOf, lifeRecord, vaultRecord } = require('./life');

class LivedSession {
  /** *chat*: a fresh ChatSession; *store*: the open Store whose life it carries. */
  constructor(chat, store) {
    this.chat = chat;
    this.store = store;
    const life = lifeOf(store.state.records);
    if (life !== null) chat.truth.resume(life);
    this.written = new Map(chat.truth.vault);
  }

  /** The index of the session's next turn. */
  get turnIdx() {
    return this.chat.truth.turnIdx;
  }

  /** One turn, answered once its checkpoint is durable (a refusal is thrown). */
  turn(text) {
    const result = this.chat.chat(text);
    const truth = this.chat.truth;
    const changed = [...truth.vault].filter(([lemma, hit]) => this.written.get(lemma) !== hit);
    const records = [
      { kind: 'session', key: 'session', register_id: this.chat.register.register_id },
      lifeRecord(truth.life()),
      ...changed.map(([, hit]) => vaultRecord(hit)),
    ];
    this.store.apply([{ op: 'turn' }, ...records.map((record) => ({ op: 'put', record }))]);
    for (const [lemma, hit] of changed) this.written.set(lemma, hit);
    this.store.checkpoint();
    return result;
  }
}

module.exports = { LivedSession };

'use strict';
// Every example of the table of forms in docs/intents.md reads as its row's intent and subject.

const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const { classify } = require('../lib/intent');
const { normalize } = require('../lib/text');
const { loadLexicon } = require('../lib/truth');

const ROOT = path.join(__dirname, '..', '..', '..');
const LEXICON = loadLexicon(
  path.join(ROOT, 'reference', 'lexicon', 'data'),
  path.join(ROOT, 'reference', 'truth', 'data', 'forms.json'),
);

/** The rows of the table of forms: intent, example prompt and subject (null for `-`). */
function tableRows() {
  const text = fs.readFileSync(path.join(ROOT, 'docs', 'intents.md'), 'utf8');
  const start = text.indexOf('## The table of forms');
  const table = text.slice(start, text.indexOf('\n## ', start + 1));
  return table
    .split('\n')
    .filter((line) => /^\| [A-Z_]+ \|/u.test(line))
    .map((line) => {
      const cells = line.split(' | ').map((c) => c.replace(/^\| |\|$/gu, '').trim());
      const example = cells[2].replace(/^`|`$/gu, '');
      return { intent: cells[0], example, subject: cells[3] === '-' ? null : cells[3] };
    });
}

test('the table of forms has rows for all twelve intents', () => {
  assert.strictEqual(new Set(tableRows().map((r) => r.intent)).size, 12);
});

for (const row of tableRows()) {
  test(`${row.example} reads as ${row.intent} about ${row.subject}`, () => {
    const reading = classify(LEXICON.reader, normalize(row.example), null);
    assert.deepStrictEqual([reading.intent, reading.subject], [row.intent, row.subject]);
  });
}

// docs/intents.md § Answers: the checked statement and the claim of a plain statement.
const READINGS = [
  ['The sun is a star?', 'VERIFICATION', 'the sun is a star', null],
  ['I think the sun is not a star.', 'VERIFICATION', 'the sun is not a star', null],
  ['Is the sun a star or not?', 'VERIFICATION', 'the sun a star', null],
  ["Is the sun a star, isn't it?", 'VERIFICATION', 'the sun a star', null],
  ['Whales are mammals, not fish.', 'CORRECTION', null, 'are mammals'],
];
for (const [prompt, intent, checked, claim] of READINGS) {
  test(`${prompt} checks ${checked} and claims ${claim}`, () => {
    const reading = classify(LEXICON.reader, normalize(prompt), null);
    assert.deepStrictEqual([reading.intent, reading.checked, reading.claim], [intent, checked, claim]);
  });
}

test('never is a function word: no subject', () => {
  assert.strictEqual(classify(LEXICON.reader, normalize('What is never?'), null).subject, null);
});

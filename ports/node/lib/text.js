'use strict';
// Normalisation, word tokens and the function words that are never a subject (docs/intents.md § Subjects).

const CLITICS = new Set(['s', 're', 'd', 'll', 've', 'm']);
const TOKEN = /\p{L}+(?:'\p{L}+)?/gu;

const FUNCTION_WORDS = new Set(
  `a an the this that these those some any each every all both either neither no such
  another other own same few many much more most several enough
  i me my mine myself you your yours yourself yourselves we us our ours ourselves
  he him his himself she her hers herself it its itself they them their theirs themselves
  one ones someone somebody something anyone anybody anything everyone everybody
  everything nobody nothing none
  what whats who whom whose which where when why how whether whatever whichever
  is are was were be been being am do does did done doing have has had having
  can could should would will shall may might must ought
  to of in on at by for from with about into onto upon over under through between among
  across after before during within without against toward towards via per
  as and or but nor so yet if then than because while though although unless until
  not never yes yeah yep no nope nah ok okay hi hello hey thanks thank please oh ah um uh hmm
  there here now just also very really quite rather too even still again already ever
  exactly actually maybe perhaps anyway basically simply only
  like unlike up down out off away back two three`
    .split(/\s+/u)
    .filter(Boolean),
);

/** White space (docs/intents.md step 1): Unicode's White_Space property, not JavaScript's `\s` (which adds U+FEFF and lacks U+0085). */
const WHITE_SPACE = /[\t\n\x0b\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+/gu;

/** NFC, one kind of apostrophe, lowercase, single spaces, trimmed. */
const normalize = (text) =>
  text
    .normalize('NFC')
    .replace(/[\u2019\u2018\u02bc]/gu, "'")
    .replace(WHITE_SPACE, ' ')
    .replace(/^ +| +$/gu, '')
    .toLowerCase();

/** Word tokens of normalised text: letters, with one inner apostrophe. */
const tokenize = (normalized) => normalized.match(TOKEN) || [];

/** The token without its clitic (`river's` -> `river`); null for a negated auxiliary. */
function wordBase(token) {
  const at = token.indexOf("'");
  if (at === -1) return token;
  const clitic = token.slice(at + 1);
  if (clitic === 't') return null;
  return CLITICS.has(clitic) ? token.slice(0, at) : token.replace("'", '');
}

/** A word's length in letters: Unicode code points, so an astral letter counts once (not as two UTF-16 units). */
const letterCount = (word) => [...word].length;

/** The tokens that are neither function words nor contractions of them, in order, once each. */
function contentTerms(tokens) {
  const terms = [];
  for (const token of tokens) {
    const base = wordBase(token);
    if (base !== null && !FUNCTION_WORDS.has(base) && letterCount(base) > 1 && !terms.includes(base)) terms.push(base);
  }
  return terms;
}

// The words a form is read from (docs/intents.md § How a prompt is read, steps 2 and 3).

const CONTRACTIONS = {
  "can't": 'can not', "won't": 'will not', "shan't": 'shall not', "ain't": 'is not', "let's": 'let us',
  whats: 'what is', thats: 'that is', wheres: 'where is', whos: 'who is', hows: 'how is', whys: 'why is',
  theres: 'there is', dont: 'do not', doesnt: 'does not', didnt: 'did not', isnt: 'is not',
  arent: 'are not', wasnt: 'was not', werent: 'were not', cant: 'can not', couldnt: 'could not',
  wouldnt: 'would not', shouldnt: 'should not', hasnt: 'has not', havent: 'have not', im: 'i am',
  ive: 'i have', youre: 'you are', theyre: 'they are', u: 'you', r: 'are', ur: 'your', pls: 'please',
  plz: 'please', thx: 'thanks', cuz: 'because', coz: 'because',
};
const IS_BEFORE_S = new Set('it that what where who how why when there here he she this which'.split(' '));
const CLITIC_WORDS = { re: 'are', m: 'am', ve: 'have', ll: 'will', d: 'would' };
const TYPO_TARGETS = `what when where which why how who does the are can could would should about between
  and for this that with tell give please because there your you example explain describe define definition
  meaning remember remind compare connected related difference different similar through without`
  .split(/\s+/u)
  .filter(Boolean);
const WORD = /\p{L}+(?:'\p{L}+)?/gu;

/** One word with its contraction spelt out (step 3). */
function expandWord(word) {
  if (Object.hasOwn(CONTRACTIONS, word)) return CONTRACTIONS[word];
  const at = word.indexOf("'");
  if (at === -1) return word;
  const stem = word.slice(0, at);
  const clitic = word.slice(at + 1);
  if (clitic === 't' && stem.endsWith('n')) return `${stem.slice(0, -1)} not`;
  if (clitic === 's' && IS_BEFORE_S.has(stem)) return `${stem} is`;
  if (Object.hasOwn(CLITIC_WORDS, clitic)) return `${stem} ${CLITIC_WORDS[clitic]}`;
  return word;
}

const expand = (text) => text.replace(WORD, expandWord);

/** *word* is *target* with two adjacent letters swapped. */
function transposed(word, target) {
  if (word.length !== target.length || word === target) return false;
  const diffs = [];
  for (let i = 0; i < word.length; i += 1) if (word[i] !== target[i]) diffs.push(i);
  return (
    diffs.length === 2 && diffs[1] === diffs[0] + 1 && word[diffs[0]] === target[diffs[1]] && word[diffs[1]] === target[diffs[0]]
  );
}

/** *short* is *long* with one of its inner letters (not the first or the last) left out. */
function innerLeftOut(short, long) {
  if (long.length !== short.length + 1) return false;
  for (let i = 1; i < long.length - 1; i += 1) if (long.slice(0, i) + long.slice(i + 1) === short) return true;
  return false;
}

const oneEdit = (word, target) => transposed(word, target) || innerLeftOut(word, target);

/** The typo target *word* is one edit from, when exactly one is and the word is no known word (step 2). */
function mend(word, known) {
  if (letterCount(word) < 3 || word.includes("'") || FUNCTION_WORDS.has(word) || known(word)) return word;
  const found = TYPO_TARGETS.filter((target) => oneEdit(word, target));
  return found.length === 1 ? found[0] : word;
}

function mendStem(word, known) {
  const at = word.indexOf("'");
  return at === -1 ? mend(word, known) : mend(word.slice(0, at), known) + word.slice(at);
}

/** The text a form is read from: misspelt form words mended (a contraction's stem too), then contractions spelt out. */
const readingText = (normalized, known) => expand(normalized.replace(WORD, (w) => mendStem(w, known)));

/** *word*, then the forms word folding looks it up as (docs/intents.md § Subjects, word folding). */
function baseForms(word) {
  const forms = [word];
  if (word.endsWith('ies') && letterCount(word) > 4) forms.push(`${word.slice(0, -3)}y`);
  if (word.endsWith('ves') && letterCount(word) > 4) forms.push(`${word.slice(0, -3)}f`, `${word.slice(0, -3)}fe`);
  if (word.endsWith('es') && letterCount(word) > 4) forms.push(word.slice(0, -2));
  if (word.endsWith('s') && !word.endsWith('ss') && letterCount(word) > 3) forms.push(word.slice(0, -1));
  if (word.endsWith('ing') && letterCount(word) > 5) {
    const stem = word.slice(0, -3);
    forms.push(stem, `${stem}e`);
    const letters = [...stem];
    const last = letters[letters.length - 1];
    if (letters.length > 2 && last === letters[letters.length - 2] && !'aeiou'.includes(last)) forms.push(letters.slice(0, -1).join(''));
  }
  return forms;
}

/** Two words are the same word when their folded forms share one. */
function sameWord(a, b) {
  const forms = new Set(baseForms(a));
  return baseForms(b).some((form) => forms.has(form));
}

module.exports = { letterCount, normalize, tokenize, contentTerms, wordBase, readingText, baseForms, sameWord, FUNCTION_WORDS };

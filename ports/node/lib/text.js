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
  not yes yeah yep no nope nah ok okay hi hello hey thanks thank please oh ah um uh hmm
  there here now just also very really quite rather too even still again already ever
  exactly actually maybe perhaps anyway basically simply only
  like unlike up down out off away back two three`
    .split(/\s+/u)
    .filter(Boolean),
);

/** NFC, one kind of apostrophe, lowercase, single spaces, trimmed. */
const normalize = (text) =>
  text
    .normalize('NFC')
    .replace(/[\u2019\u2018\u02bc]/gu, "'")
    .replace(/\s+/gu, ' ')
    .trim()
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

/** The tokens that are neither function words nor contractions of them, in order, once each. */
function contentTerms(tokens) {
  const terms = [];
  for (const token of tokens) {
    const base = wordBase(token);
    if (base !== null && !FUNCTION_WORDS.has(base) && base.length > 1 && !terms.includes(base)) terms.push(base);
  }
  return terms;
}

module.exports = { normalize, tokenize, contentTerms, FUNCTION_WORDS };

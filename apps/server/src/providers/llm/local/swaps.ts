import type { Analysis, Sentence, Token } from './analyse.js';
import { frequencyOf, lookup } from './wordnet.js';
import { numberValue } from '../../../lib/number-words.js';

/**
 * Checks on statements made false by swapping one word (true/false items and the wrong options
 * of "Which statement is supported by the text?"): the swapped sentence must stay grammatical
 * (article, agreement with the pronouns that refer to a swapped person, an adjective in a place
 * where its opposite reads naturally) and must be contradicted by the passage, not merely absent
 * from it. When a check is unsure it says no: the writer then uses another sentence.
 */

const LINKING = new Set(
  'be is are was were been being am seem seems seemed become becomes became stay stays stayed remain remains remained look looks looked feel feels felt grow grows grew get gets got turn turns turned appear appears appeared sound sounds sounded'.split(
    ' ',
  ),
);
const DEGREE = new Set(
  'already very so too quite still rather fairly extremely really even more less most least always never often usually not also'.split(
    ' ',
  ),
);
/** Nouns after which an adjective is part of a fixed phrase ("a long moment", "a long time"). */
const FIXED_AFTER = new Set(
  'moment moments time times while way ways day days night nights year years week weeks minute minutes hour hours age ages run'.split(
    ' ',
  ),
);

const QUANTITY_NOUNS = new Set(
  'part parts number numbers amount amounts area areas share portion portions piece pieces group groups percentage majority minority deal quantity quantities sum'.split(
    ' ',
  ),
);

/**
 * True when the describing word at `index` can be swapped for its opposite and still read as
 * written: before a noun ("the safe channel") or after a linking verb ("was dangerous"); not
 * after a measure ("five meters long"), not one of a pair ("short but dangerous", "bright,
 * round"), not in a fixed phrase ("a long moment", "full moon").
 */
export function oppositeFits(s: Sentence, index: number, opposite: string): boolean {
  const t = s.tokens;
  const token = t[index]!;
  const next = t[index + 1];
  let p = index - 1;
  while (p >= 0 && DEGREE.has(t[p]!.normal)) p -= 1;
  const prev = t[p];
  // One of two describing words joined by "and", "but", "or" or a comma.
  const joined = (k: number, step: number) => {
    const j = t[k];
    const after = t[k + step];
    return !!j && /^(?:and|but|or|,|yet)$/i.test(j.value) && !!after && after.pos === 'ADJ';
  };
  if (joined(index + 1, 1) || joined(index - 1, -1)) return false;
  if (prev && (prev.pos === 'NUM' || (prev.pos === 'NOUN' && t[p - 1]?.pos === 'NUM')))
    return false;
  // "such a long neck" gives a reason; its opposite gives none.
  if ([t[index - 1], t[index - 2]].some((x) => x && /^(?:such|how|what)$/i.test(x.value)))
    return false;
  if (next && next.pos === 'NOUN') {
    if (FIXED_AFTER.has(next.normal)) return false;
    // "large parts of the forest": a quantity, whose opposite is not a contradiction.
    if (QUANTITY_NOUNS.has(next.normal)) return false;
    // A compound the dictionary lists ("full moon", "new moon", "high school").
    const noun = (next.lemma || next.normal).toLowerCase();
    if (lookup(`${token.normal}_${noun}`, 'noun') || lookup(`${opposite}_${noun}`, 'noun'))
      return false;
    return true;
  }
  if (prev && LINKING.has(prev.normal)) {
    // "was light" of a colour or weight: only before the end of the clause or a preposition.
    return !next || /^[.,;:!?]$/.test(next.value) || next.pos === 'ADP';
  }
  return false;
}

/** "a" or "an" for the word that follows. */
export function articleFor(word: string): 'a' | 'an' {
  const w = word.toLowerCase();
  if (/^(?:hour|honest|honou?r|heir)/.test(w)) return 'an';
  if (/^(?:uni|use|usu|euro|one|once|u[bcfhjklmnpqrstvwxz][aeiou])/.test(w)) return 'a';
  if (/^[aeiou]/.test(w)) return 'an';
  if (/^[0-9]/.test(w)) return /^(?:8|11|18)/.test(w) ? 'an' : 'a';
  return 'a';
}

/** Puts the right article before every word ("a old woman" → "an old woman"). */
export function fixArticles(text: string): string {
  return text.replace(
    /\b([Aa]n?)(\s+)([\p{L}\p{N}][\p{L}\p{N}'’-]*)/gu,
    (whole, article: string, space: string, word: string) => {
      const right = articleFor(word);
      if (article.toLowerCase() === right) return whole;
      const fixed = /^A/.test(article) ? (right === 'an' ? 'An' : 'A') : right;
      return `${fixed}${space}${word}`;
    },
  );
}

const MALE_WORDS =
  /\b(?:he|him|his|himself|father|brother|son|uncle|grandfather|grandpa|husband|king|prince|boy|man|sir|mr|lord|duke|nephew)\b/i;
const FEMALE_WORDS =
  /\b(?:she|her|hers|herself|mother|sister|daughter|aunt|grandmother|grandma|wife|queen|princess|girl|woman|lady|mrs|miss|ms|duchess|niece)\b/i;
const MALE_TITLE =
  /^(?:grandpa|grandfather|uncle|mr\.?|sir|lord|king|prince|father|brother|duke|captain|president)\b/i;
const FEMALE_TITLE =
  /^(?:grandma|grandmother|granny|aunt|mrs\.?|miss|ms\.?|lady|queen|princess|mother|sister|duchess)\b/i;

const genderCache = new WeakMap<Analysis, Map<string, 'm' | 'f' | null>>();

/**
 * A person's gender as the passage shows it: a title ("Grandpa Tom", "Mrs Reed"), or the
 * pronouns that follow the name in sentences where that person is the only one named.
 * Null when the passage does not settle it.
 */
export function genderOf(analysis: Analysis, name: string): 'm' | 'f' | null {
  let cache = genderCache.get(analysis);
  if (!cache) genderCache.set(analysis, (cache = new Map()));
  if (cache.has(name)) return cache.get(name)!;
  let result: 'm' | 'f' | null = null;
  if (MALE_TITLE.test(name)) result = 'm';
  else if (FEMALE_TITLE.test(name)) result = 'f';
  else {
    const { m, f } = genderEvidence(analysis, name);
    if (m > 0 && f === 0) result = 'm';
    else if (f > 0 && m === 0) result = 'f';
  }
  cache.set(name, result);
  return result;
}

/**
 * How often male and female pronouns follow the name where that person is the only one named
 * (both counted: a name with mixed evidence is unsettled, one with none is unknown).
 */
export function genderEvidence(analysis: Analysis, name: string): { m: number; f: number } {
  let m = 0;
  let f = 0;
  const first = name.split(/\s+/)[0]!;
  for (const s of analysis.sentences) {
    const spans = (analysis.nameSpans.get(s.index) ?? []).filter(
      (sp) => analysis.names.get(sp.name)?.kind === 'person',
    );
    const mine = spans.filter((sp) => sp.name === name || sp.name.split(/\s+/)[0] === first);
    if (mine.length === 0 || spans.length !== mine.length) continue;
    const after = s.text.slice(mine[0]!.end);
    const next = analysis.sentences[s.index + 1];
    const nextOpen =
      next && !(analysis.nameSpans.get(next.index) ?? []).length
        ? next.text.split(/\s+/).slice(0, 3).join(' ')
        : '';
    for (const text of [after, nextOpen]) {
      if (/\b(?:he|him|his|himself)\b/i.test(text)) m += 1;
      if (/\b(?:she|her|hers|herself)\b/i.test(text)) f += 1;
    }
  }
  return { m, f };
}

/**
 * True when putting `to` in place of the person `from` in this statement keeps it grammatical:
 * a statement with a gendered word (she, his, father) swaps only between people the passage
 * shows to be of the same gender, and never to a person the statement already names or to a
 * longer or shorter name of the same person.
 */
export function personSwapFits(
  analysis: Analysis,
  statement: string,
  from: string,
  to: string,
  people: string[],
): boolean {
  // Both must be people who act in the passage ("the president of the Sierra Nevada").
  if (!people.includes(from) || !people.includes(to)) return false;
  // "Nora was quiet for a long moment": a state said of one person is not denied of another.
  const after = statement
    .slice(statement.indexOf(from) + from.length)
    .trim()
    .split(/\s+/);
  const verb = after.find((w) => !/^(?:also|often|then|never|always|still|only|soon)$/i.test(w));
  const following = after[after.indexOf(verb ?? '') + 1] ?? '';
  if (
    verb &&
    LINKING.has(verb.toLowerCase()) &&
    !/ing$/i.test(following) &&
    !/^(?:born|killed|named|sent|given|taken|made|chosen|elected|removed|struck)$/i.test(following)
  )
    return false;
  const a = from.toLowerCase().split(/\s+/);
  const b = to.toLowerCase().split(/\s+/);
  if (a.every((w) => b.includes(w)) || b.every((w) => a.includes(w))) return false;
  const rest = statement.replace(from, ' ');
  if (rest.toLowerCase().includes(b[0]!)) return false;
  if (MALE_WORDS.test(rest) || FEMALE_WORDS.test(rest)) {
    const g = genderOf(analysis, from);
    return !!g && g === genderOf(analysis, to);
  }
  return true;
}

const CONTENT = new Set(['NOUN', 'VERB', 'ADJ']);

function contentLemmas(tokens: Token[], skip: Set<string>): Set<string> {
  const out = new Set<string>();
  for (const t of tokens) {
    if (!CONTENT.has(t.pos) || t.stop) continue;
    const l = (t.lemma || t.normal).toLowerCase();
    if (l.length < 3 || skip.has(l) || /^(?:be|have|do|get|make|take)$/.test(l)) continue;
    out.add(l);
  }
  return out;
}

/**
 * "Grandpa Tom looked out of the window" is not false when another sentence has Grandpa Tom at
 * the window: a statement with a swapped person (or place) is contradicted only when no other
 * sentence that names the new one shares the statement's content words.
 */
export function swapContradicted(
  analysis: Analysis,
  s: Sentence,
  answer: string,
  swap: string,
): boolean {
  const skip = new Set([...answer.split(/\s+/), ...swap.split(/\s+/)].map((w) => w.toLowerCase()));
  const mine = contentLemmas(s.tokens, skip);
  if (mine.size === 0) return false;
  const swapRe = new RegExp(`\\b${swap.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`);
  for (const other of analysis.sentences) {
    if (other.index === s.index || !swapRe.test(other.text)) continue;
    const theirs = contentLemmas(other.tokens, skip);
    let shared = 0;
    for (const l of mine) if (theirs.has(l)) shared += 1;
    if (shared >= 1 && shared * 3 >= mine.size) return false;
  }
  return true;
}

const LOCATIVE = new Set(
  'in at to from near into across through toward towards around inside outside'.split(' '),
);

/**
 * A place swaps only where the sentence uses it as a place ("in Sacramento", "to California"),
 * not as part of "Omaha, Nebraska" or "the president of the Central Pacific", and only to a
 * name the passage also uses after such a preposition.
 */
export function placeSwapFits(
  analysis: Analysis,
  statement: string,
  from: string,
  to: string,
): boolean {
  const esc = (x: string) => x.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const at = statement.search(new RegExp(`\\b${esc(from)}\\b`));
  if (at < 0) return false;
  const before = statement.slice(0, at).trim().split(/\s+/);
  let prep = before[before.length - 1]?.toLowerCase() ?? '';
  if (prep === 'the') prep = before[before.length - 2]?.toLowerCase() ?? '';
  if (!LOCATIVE.has(prep)) return false;
  const after = statement.slice(at + from.length);
  // "from New York to San Francisco" → "from Sacramento to San Francisco" may still be true.
  if (prep === 'from' || (prep === 'to' && /\bfrom\s+[^,;]*$/i.test(statement.slice(0, at))))
    return false;
  // "the first flying reptile ever discovered in Britain" → "in Lyme Regis" may still be true.
  if (/\b(?:first|last|only|ever)\b|\b\w+est\b/i.test(statement.slice(0, at))) return false;
  // Two places the passage names together may be one inside the other.
  const both = (x: string) => x.includes(from) && x.includes(to);
  if (analysis.sentences.some((x) => both(x.text))) return false;
  // "at Promontory Summit in Utah", "Mainz in Germany": one place inside another.
  if (/^\s+in\s+(?:the\s+)?\p{Lu}/u.test(after)) return false;
  if (prep === 'in' && /\p{Lu}[\p{L}]*\s+in\s+(?:the\s+)?$/u.test(statement.slice(0, at)))
    return false;
  if (/^,\s*\p{Lu}/u.test(after) || /\p{Lu}[\p{L}]*,\s*$/u.test(statement.slice(0, at)))
    return false;
  const used = new RegExp(`\\b(?:${[...LOCATIVE].join('|')})\\s+(?:the\\s+)?${esc(to)}\\b`, 'i');
  return analysis.sentences.some((x) => used.test(x.text));
}

/** The number sits inside a hyphenated compound ("twenty-nine"): swapping one part garbles it. */
export function insideCompound(text: string, answer: string): boolean {
  const esc = answer.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(?:-${esc}(?![\\p{L}\\p{N}]))|(?:(?<![\\p{L}\\p{N}])${esc}-)`, 'iu').test(
    text,
  );
}

const REFERRING = /^(?:he|she|it|they|them|him|her|his|its|their|this|that|these|those|such)$/i;
const LEAD_OPENERS =
  /^(?:like|unlike|after|before|when|while|once|if|as|because|although|though|since|in|on|at|by|for|during|with|without|from|under|over|finally|then|later|today|now|soon|still|yet|however|instead|meanwhile|first|second|third|also)$/i;

/**
 * True when the sentence's subject (after an opening phrase such as "Like Earth," or "At
 * first,") is or holds a word that points to another sentence ("it", "they", "this", "her
 * arms", "Hunting for them"): read alone, it does not say what it is about.
 */
export function subjectNeedsReferent(s: Sentence): boolean {
  const t = s.tokens;
  let i = 0;
  // An opening phrase closed by a comma ("Like Earth,", "Inside the refrigerator,", "Bravest of
  // all in Frederick town,"): the subject comes after it.
  const comma = t.findIndex((x, k) => k > 0 && x.value === ',');
  if (
    comma > 0 &&
    comma <= 12 &&
    (LEAD_OPENERS.test(t[0]!.value) || ['ADP', 'ADV', 'SCONJ', 'ADJ'].includes(t[0]!.pos)) &&
    !REFERRING.test(t[0]!.value)
  )
    i = comma + 1;
  for (; i < t.length; i++) {
    const x = t[i]!;
    if (x.pos === 'VERB' || x.pos === 'AUX') return false;
    if (x.value === ',') return false;
    if (!REFERRING.test(x.value)) continue;
    // "The animals that live there": a relative "that" after its noun refers inside the sentence.
    const prev = t[i - 1];
    if (/^that$/i.test(x.value) && prev && (prev.pos === 'NOUN' || prev.pos === 'PROPN')) continue;
    return true;
  }
  return false;
}

/** Words that need a negation ("at all", "any", "ever"): removing "not" breaks the sentence. */
export function needsItsNegation(text: string): boolean {
  return /\b(?:at all|any|anything|anyone|anybody|anywhere|ever|yet|either|much of)\b/i.test(text);
}

/**
 * A number after "more than" may only grow and after "fewer than" only shrink, and an
 * approximate number must move far enough: otherwise the changed statement is still true.
 */
export function numberSwapFalse(statement: string, answer: string, swap: string): boolean {
  const a = numberValue(answer);
  const b = numberValue(swap);
  if (Number.isNaN(a) || Number.isNaN(b)) return true;
  const at = statement.search(new RegExp(`\\b${answer.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`));
  const before = statement.slice(Math.max(0, at - 20), at).toLowerCase();
  // "May 10" → "May 11": a day of the month is not a fact worth changing.
  if (
    /(?:january|february|march|april|may|june|july|august|september|october|november|december)\s*$/.test(
      before,
    )
  )
    return false;
  // "more than five meters" → "more than eleven meters" is not contradicted (nor is "fewer
  // than fifty" → "fewer than two"): a bound is never swapped.
  if (
    /(?:more than|over|at least|above|greater than|less than|fewer than|under|at most|below|up to)\s*(?:a\s+)?$/.test(
      before,
    )
  )
    return false;
  if (/(?:about|around|nearly|almost|roughly|some|approximately)\s*$/.test(before))
    return Math.abs(a - b) >= 0.25 * Math.max(a, b);
  return true;
}

/**
 * Cloze options must fit the blank's grammar as well as the key does: for a describing word,
 * no word that is mostly a noun ("Grandpa Tom was _____": quiet / stone / iron); for a noun, no
 * word the passage uses only as a verb ("Twice a _____ turned the boat": wave / spread) and the
 * same number as the key (wave / waves).
 */
export function optionFitsBlank(
  analysis: Analysis,
  kind: string,
  answer: string,
  option: string,
): boolean {
  const o = option.toLowerCase();
  if (o.includes(' ')) return true;
  if (kind === 'adjective') {
    if (analysis.words.has(`NOUN:${o}`) && !analysis.words.has(`ADJ:${o}`)) return false;
    const noun = frequencyOf(o, 'noun');
    const adj = frequencyOf(o, 'adj');
    if (adj < 0 && noun >= 0) return false;
    if (noun > Math.max(0, adj) * 2 + 1) return false;
    return true;
  }
  if (kind === 'noun') {
    const asNoun = [...analysis.words.values()].some(
      (w) => w.pos === 'NOUN' && (w.lemma === o || w.forms.has(o)),
    );
    const asOther = [...analysis.words.values()].some(
      (w) => w.pos !== 'NOUN' && (w.lemma === o || w.forms.has(o)),
    );
    if (asOther && !asNoun) return false;
    const plural = (x: string) => {
      const w = x.toLowerCase();
      if (!/s$/.test(w) || /(?:ss|us|is)$/.test(w)) return false;
      return !lookup(w, 'noun') || !!lookup(w.replace(/e?s$/, ''), 'noun');
    };
    if (plural(answer) !== plural(o)) return false;
    return true;
  }
  return true;
}

/**
 * Names offered for a blank: no two names of one person ("Richard" and "Richard Anning"), and
 * when the sentence shows the person's gender ("_____ taught herself", "Her father, _____"),
 * only people the passage shows to be of the key's gender.
 */
export function personOptions(
  analysis: Analysis,
  sentence: string,
  answer: string,
  options: string[],
): string[] {
  const kept: string[] = [];
  const words = (x: string) => x.toLowerCase().split(/\s+/);
  const taken = [answer];
  const gendered = MALE_WORDS.test(sentence) || FEMALE_WORDS.test(sentence);
  const g = genderOf(analysis, answer);
  for (const o of options) {
    if (taken.some((t) => words(t).some((w) => words(o).includes(w)))) continue;
    if (gendered && (!g || genderOf(analysis, o) !== g)) continue;
    kept.push(o);
    taken.push(o);
  }
  return kept;
}

/** What follows a verb: an object, a describing word, a preposition, or nothing. */
function frameAfter(tokens: Token[], i: number): string {
  const next = tokens[i + 1];
  if (!next) return 'end';
  if (['DET', 'NOUN', 'PROPN', 'PRON', 'NUM'].includes(next.pos)) return 'obj';
  if (next.pos === 'ADJ') return 'adj';
  if (next.pos === 'ADP' || next.pos === 'PART') return 'prep';
  if (next.pos === 'ADV') return 'adv';
  return 'end';
}

/**
 * A verb offered for a blank must be one the passage uses in the same frame as the key ("The
 * captain _____ and shook her hand": bowed, not said or told, which need an object; "the other
 * half _____ dark": stays, not happens).
 */
export function verbFitsBlank(
  analysis: Analysis,
  sentence: Sentence,
  start: number,
  option: string,
): boolean {
  const at = sentence.tokens.findIndex((t) => t.start === start);
  if (at < 0) return true;
  const frame = frameAfter(sentence.tokens, at);
  const o = option.toLowerCase();
  let seen = false;
  for (const s of analysis.sentences) {
    s.tokens.forEach((t, i) => {
      if (t.normal !== o && t.value.toLowerCase() !== o) return;
      if (frameAfter(s.tokens, i) === frame) seen = true;
    });
    if (seen) return true;
  }
  return false;
}

/**
 * A statement read alone (true/false, "supported" options) must not lean on another sentence:
 * its subject names what it is about (`subjectNeedsReferent`), "he"/"she"/"him"/"her" follow a
 * person named before them in the sentence, and no "them", "this ice", "these nations" at all.
 */
export function statementNeedsReferent(s: Sentence): boolean {
  if (subjectNeedsReferent(s)) return true;
  const t = s.tokens;
  let person = false;
  for (let i = 0; i < t.length; i++) {
    const x = t[i]!;
    if (
      x.pos === 'PROPN' ||
      /^(?:man|woman|boy|girl|king|queen|father|mother|grandfather|grandmother|grandpa|grandma|brother|sister|son|daughter|captain|keeper|doctor|teacher|farmer|scientist)$/i.test(
        x.value,
      )
    )
      person = true;
    if (/^(?:he|him|his|himself|she|her|hers|herself)$/i.test(x.value) && !person) return true;
    if (/^(?:them|themselves)$/i.test(x.value)) return true;
    if (/^(?:this|these|those)$/i.test(x.value)) return true;
  }
  return false;
}

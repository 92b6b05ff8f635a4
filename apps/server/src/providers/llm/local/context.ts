import type { Analysis, Sentence } from './analyse.js';
import { capitalise } from './common.js';

/**
 * Does a question or statement stand on its own? A sentence lifted out of the passage often
 * leans on the one before it: a discourse opener ("Second,", "But"), a shell noun that points
 * back ("The question sounds reasonable", "The secret is …"), a deictic time or place ("at the
 * time", "there"), a definite description with two possible referents ("the company" in a text
 * about two companies), a pronoun with nothing before it to refer to, or a line of verse that
 * is not a whole clause. Read alone by a student, such an item has no clear meaning.
 */

/**
 * Openers that link a sentence to the one before without adding to what it states: taking them
 * away leaves a statement that is true exactly when the sentence is ("Second, librarians help
 * people judge what they find" → "Librarians help people judge what they find").
 */
const DROPPABLE_OPENER =
  /^(?:(?:first|second|secondly|third|thirdly|fourth|finally|lastly|also|in addition|moreover|furthermore|besides|however|still|even so|nevertheless|nonetheless|for example|for instance|of course|in fact|indeed|thus|therefore|as a result|consequently|in short|in other words|next|then|(?:more|most) important(?:ly)?|above all|likewise|similarly|after all|in turn|in any case),|but|and|yet|also|(?:of course|nevertheless|nonetheless|moreover|furthermore|indeed)(?=\s+\p{L})|(?:so|next|then)(?=\s+\p{Lu}))\s+/iu;

/**
 * Shell nouns (Schmid 2000): nouns whose content is given elsewhere in the text. With "the" and
 * no modifier after them ("the secret of the refrigerator" is fine) they point back.
 */
const SHELL_NOUNS =
  'question answer secret problem idea reason result trick difference solution plan goal aim purpose situation issue news claim argument view belief truth fact trouble process method effect outcome decision choice task mistake risk advantage disadvantage benefit'.split(
    ' ',
  );
const SHELL_BACK = new RegExp(
  `\\b(?:the|this|that|these|those|such an?) (?:same |real |main |whole |only |first |second |other |next |last |new |biggest |greatest |hardest )?(?:${SHELL_NOUNS.join('|')})s?\\b(?! (?:of|to|for|that|why|how|behind|between|with|about)\\b)`,
  'i',
);

/** Time and place words that point to a moment or spot the text set up before. */
const DEICTIC =
  /\b(?:at the time|at that time|by that time|by then|at this point|at that point|that (?:day|night|morning|evening|afternoon|year|time|summer|winter)|the next (?:day|morning|night|evening|year)|the following (?:day|morning|year)|the day before|ever since|since then|the same(?= ?[.,;!?]| as before)|the former|the latter|the others|the rest of them|such(?! as\b)|under (?:these|those) circumstances|in this way|in that way|here)\b/i;
/** "A year later", "five days before": counted from a moment the text set up before. */
const RELATIVE_TIME =
  /\b(?:a|an|one|two|three|four|five|six|seven|eight|nine|ten|\d+|several|many|a few|some) (?:minutes?|hours?|days?|weeks?|months?|years?|decades?|centuries|century) (?:later|afterwards?|after that|before|earlier)\b/i;
/** "lived there", "went there.": a place named in another sentence. */
const THERE_PLACE = /\b(?:there|then|here)(?=\s*[.,;!?]|\s*$)/i;

/** Nouns that name a share or copy of something else: with no "of" phrase they lean on context. */
export const RELATIONAL =
  /^(?:copies|parts|pieces|members|pages|chapters|volumes|editions|sections|percent|halves|thirds|quarters|sides|ones|others|kinds|types|sorts|examples|units|portions|shares|bits|items|issues|versions)$/i;
const RELATIONAL_SUBJECT = new RegExp(
  `^(?:[\\w,]+ ){0,3}?(?:${RELATIONAL.source.slice(4, -2)})\\b(?! of\\b)(?= (?:were|was|are|is|have|had|can|could|will|would))`,
  'i',
);

function plural(noun: string): string[] {
  if (/(?:s|x|z|ch|sh)$/i.test(noun)) return [`${noun}es`];
  if (/[^aeiou]y$/i.test(noun)) return [`${noun.slice(0, -1)}ies`];
  return [`${noun}s`];
}

const ambiguousCache = new WeakMap<Analysis, Map<string, boolean>>();

/**
 * True when the passage speaks of two or more things this noun names ("two companies", "both
 * ships", "the other company"), so "the company" alone does not say which.
 */
export function severalReferents(analysis: Analysis, noun: string): boolean {
  let cache = ambiguousCache.get(analysis);
  if (!cache) ambiguousCache.set(analysis, (cache = new Map()));
  const key = noun.toLowerCase();
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  const text = analysis.sentences.map((s) => s.text).join(' ');
  const plurals = plural(key).join('|');
  const re = new RegExp(
    `\\b(?:two|three|four|five|six|both|several|many|other|either|each|rival|different) (?:[a-z-]+ )?(?:${plurals})\\b|\\b(?:another|the other|each|either|a second|one) ${key}\\b`,
    'i',
  );
  const result = re.test(text);
  cache.set(key, result);
  return result;
}

/** The text without its quotations (a quoted sentence in a stem carries its own context). */
function unquoted(text: string): string {
  return text.replace(/“[^”]*”/g, '“”').replace(/"[^"]*"/g, '""');
}

/**
 * Why a stem, option or statement cannot be read alone, or null when it can. `analysis` lets it
 * see a definite noun with several referents in the passage.
 */
export function needsContext(text: string, analysis?: Analysis): string | null {
  const t = unquoted(text);
  if (DROPPABLE_OPENER.test(t) || /^(?:this|that|these|those|then|here|there)\b/i.test(t))
    return 'opener';
  if (SHELL_BACK.test(t)) return 'shell noun';
  if (DEICTIC.test(t)) return 'deictic';
  if (THERE_PLACE.test(t)) return 'there';
  if (RELATIVE_TIME.test(t)) return 'relative time';
  // "Around 180 copies were printed": copies (parts, members …) of what?
  const relational = RELATIONAL_SUBJECT.exec(t);
  if (relational) return 'relational noun';
  if (/\b(?:this|these|those)\b/i.test(t)) return 'demonstrative';
  // "Few other institutions", "pleased the two others": other than what?
  if (/\b(?<!each )others?\b/i.test(t)) return 'other';
  // "A longer one was called a dash": "one" standing for a noun of the sentence before.
  if (/\b(?:a|an|the)\s+(?:[a-z]+\s+)?one\b(?!\s+(?:of|another)\b)/i.test(t)) return 'one';
  // "With help from Leonard Gale, he built a machine": after an opening phrase, "he" is the main
  // clause's subject, and the names inside the phrase are not who it is.
  if (
    /^(?:with|without|in|on|at|during|despite|for|from|by|under|over|like|unlike|after|before|as)\b[^,]*,\s+(?:he|she)\s/i.test(
      t,
    )
  )
    return 'pronoun subject';
  if (analysis) {
    // "the company" when the text has two: any bare "the <noun>" followed by a verb or the end.
    for (const m of t.matchAll(/\bthe ([a-z]+)\b/gi)) {
      const noun = m[1]!.toLowerCase();
      if (noun.length < 3 || /(?:ing|ed|ly)$/.test(noun)) continue;
      if (severalReferents(analysis, noun)) return 'several referents';
    }
  }
  return null;
}

/** A line break inside a sentence of verse: a capital after a comma that is no name ("…down, Horse and foot"). */
export function isVerse(s: Sentence, names: (word: string) => boolean): boolean {
  const t = s.tokens;
  for (let i = 1; i < t.length; i++) {
    const x = t[i]!;
    if (!/^\p{Lu}/u.test(x.value) || x.value === 'I') continue;
    if (!/^[,;:—-]$/.test(t[i - 1]!.value)) continue;
    if (names(x.value)) continue;
    return true;
  }
  return false;
}

/**
 * The statement without what only linked it to the sentence before: a droppable opener
 * ("Second,", "However,") and an "also" or "too" (the statement is true exactly as before).
 */
export function withoutOpener(text: string): string {
  // "Gutenberg also needed a new kind of ink": "also" points to something said before.
  const plain = text
    .replace(/,? also,?(?= )(?! known\b)/gi, '')
    // "water vapor, too, through" → "water vapor through": the comma goes with the word.
    .replace(/, too,(?= )/g, '')
    .replace(/,? too(?=[.!,])/g, '')
    .replace(
      /, (?:however|though|therefore|then|too|of course|in fact|instead|moreover|furthermore|nevertheless|nonetheless|indeed|besides|likewise|in turn|after all|for example|for instance|as a result|in addition),/gi,
      '',
    );
  const m = DROPPABLE_OPENER.exec(plain);
  if (!m) return plain;
  const rest = plain.slice(m[0].length);
  // "But that …" or a clause that is not a statement after all.
  if (!/^[\p{L}\d]/u.test(rest)) return plain;
  return capitalise(rest);
}

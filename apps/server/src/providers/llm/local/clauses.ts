import type { Analysis, Sentence, Token } from './analyse.js';
import { capitalise } from './common.js';
import { lookup } from './wordnet.js';

/**
 * Dependency-free clause reading for question stems: a sentence's leading adverbial ("In
 * 1450,"), its subject (a noun phrase or a name), its verb group and the rest, and the
 * grammatical question made from them ("When did Gutenberg build his press?"). Only plain
 * declarative clauses are read; anything else gives null, and the writer abstains.
 */

export interface Clause {
  sentence: Sentence;
  /** Token range of the clause inside the sentence [from, to). */
  from: number;
  to: number;
  /** Leading adverbial phrase with its comma ("In 1450,"), as a token range, or null. */
  lead: [number, number] | null;
  subjectStart: number;
  subjectEnd: number;
  /** Auxiliaries of the verb group ("had", "was"), in order. */
  aux: Token[];
  /** The main verb, or null for a copula ("The forest is huge"). */
  verb: Token | null;
  /** First token after the verb group. */
  restStart: number;
  /** A pronoun subject ("he", "they") when reading allowed one; the caller resolves it. */
  pronoun?: string;
  /** What the subject reads as in a question when the caller resolved a pronoun. */
  subjectText?: string;
  /** The sentence's first word is a common word ("Water", "Scientists"), not a name. */
  lowerFirst?: boolean;
  /** The sentence's first word is a name the text also capitalises mid-sentence ("Mercedes"). */
  nameFirst?: boolean;
  /** An adverb between the subject and the verb group ("rarely"), kept in questions. */
  adverb?: Token;
}

export interface ReadOptions {
  /** Accept he/she/it/they as the subject (the caller must resolve it or give up). */
  pronoun?: boolean;
  /** True when the sentence opens with a name (its capital stays in a question). */
  opensWithName?: boolean;
}

const AUXILIARIES = new Set(
  'was were is are am be been had has have could would should will shall might must can did does do may'.split(
    ' ',
  ),
);
const APPROX_WORD = /^(?:about|around|nearly|almost|roughly|over|only)$/i;
const MODALS = new Set('could would should will shall might must can may'.split(' '));
const DEMONSTRATIVES =
  /^(?:this|that|these|those|such|it|its|they|them|their|he|she|his|her|we|you|one|both|each|either|neither|some|another|other|others)$/i;
const SUBJECT_POS = new Set(['DET', 'ADJ', 'NOUN', 'PROPN', 'NUM', 'PART']);
/** A story's time phrase that opens a sentence without a comma ("One day", "In the evening"). */
const TIME_LEAD =
  /^(?:(?:one|every|each|early one|late one|the next|the following) (?:day|morning|evening|night|afternoon|summer|winter|spring|autumn|week|year)|(?:in|during) the (?:morning|evening|afternoon|night)|at (?:night|dawn|noon|sunset|sunrise|midnight)|after (?:breakfast|lunch|dinner|supper|school))(?= \p{L})/iu;
/** Words after which the rest of a sentence starts a new clause. */
const CLAUSE_BREAK =
  /^(?:and|but|or|so|yet|while|whereas|although|though|because|which|who|when|where)$/i;

function isWord(t: Token | undefined): boolean {
  return !!t && /[\p{L}\p{N}]/u.test(t.value);
}

/**
 * Reads the clause of a sentence that starts at token `from` (0 for the sentence), ending at
 * `to` (exclusive; the sentence's end by default). The subject must be a noun phrase or a
 * name, not a pronoun or a demonstrative ("these conditions" has no referent out of context).
 */
export function readClause(
  s: Sentence,
  from = 0,
  to = s.tokens.length,
  options: ReadOptions = {},
): Clause | null {
  const t = s.tokens;
  let i = from;
  let lead: [number, number] | null = null;
  // "In 1450," "By the end of the century," "Over time,": a short phrase closed by a comma.
  const commaSoon = t.findIndex((x, k) => k > i && k <= i + 4 && x.value === ',');
  const approxNumber =
    APPROX_WORD.test(t[i]?.value ?? '') && t[i + 1]?.pos === 'NUM' && commaSoon < 0;
  // "One day a fox crept into the barn", "In the evening Dad cooked fish": a time phrase of a
  // story told without its comma.
  const timeLead = t[i] ? TIME_LEAD.exec(s.text.slice(t[i]!.start)) : null;
  if (timeLead && commaSoon < 0) {
    const endAt = t[i]!.start + timeLead[0].trimEnd().length;
    const k = t.findIndex((x, n) => n > i && x.start >= endAt);
    if (k > i && k < to) {
      lead = [i, k];
      i = k;
    }
  } else if (t[i] && !approxNumber && ['ADP', 'ADV', 'SCONJ'].includes(t[i]!.pos)) {
    const comma = t.findIndex((x, k) => k > i && k < to && x.value === ',');
    if (comma > i && comma - i <= 8) {
      const inside = t.slice(i + 1, comma);
      if (!inside.some((x) => x.pos === 'VERB' || x.pos === 'AUX')) {
        lead = [i, comma + 1];
        i = comma + 1;
      } else return null;
    } else if (t[i]!.pos !== 'ADV') return null;
  }
  const subjectStart = i;
  let pronoun: string | undefined;
  if (t[i] && /^I$/.test(t[i]!.value)) {
    i += 1;
  } else if (options.pronoun && t[i] && /^(?:he|she|it|they)$/i.test(t[i]!.value)) {
    pronoun = t[i]!.value.toLowerCase();
    i += 1;
  } else {
    if (approxNumber) i += 1;
    if (t[i] && DEMONSTRATIVES.test(t[i]!.value)) return null;
    // "My dad found a flashlight": a first-person narrator's relation (read as "the narrator's dad").
    if (t[i] && /^my$/i.test(t[i]!.value) && ['NOUN', 'ADJ'].includes(t[i + 1]?.pos ?? '')) i += 1;
    while (i < to && i - subjectStart < 8) {
      const x = t[i]!;
      if (SUBJECT_POS.has(x.pos)) {
        if (x.pos === 'DET' && DEMONSTRATIVES.test(x.value)) return null;
        i += 1;
      } else if (
        // "a French scientist named Augustin Fresnel designed …": the name belongs to the subject.
        /^(?:named|called)$/i.test(x.value) &&
        i > subjectStart &&
        t[i + 1]?.pos === 'PROPN'
      ) {
        i += 1;
        while (t[i] && t[i]!.pos === 'PROPN') i += 1;
      } else if (
        (x.normal === 'of' || x.normal === 'and') &&
        i > subjectStart &&
        t[i + 1] &&
        SUBJECT_POS.has(t[i + 1]!.pos)
      ) {
        i += 1;
      } else break;
    }
    const head = t.slice(subjectStart, i);
    if (!head.some((x) => x.pos === 'NOUN' || x.pos === 'PROPN')) return null;
    const last = head.at(-1)!;
    if (last.pos !== 'NOUN' && last.pos !== 'PROPN' && last.pos !== 'NUM') return null;
  }
  let subjectEnd = i;
  // "Water that falls from clouds is called …", "the rain that falls is fresh": a short
  // relative clause inside the subject, when a form of "be" follows it.
  if (!pronoun && t[i] && /^(?:that|which|who)$/i.test(t[i]!.value) && t[i + 1]?.pos === 'VERB') {
    let k = i + 2;
    while (
      k < to &&
      k - i <= 7 &&
      !(t[k]!.pos === 'AUX' && /^(?:is|are|was|were)$/i.test(t[k]!.value))
    ) {
      if (t[k]!.pos === 'VERB' || t[k]!.value === ',') break;
      k += 1;
    }
    if (t[k] && t[k]!.pos === 'AUX' && /^(?:is|are|was|were)$/i.test(t[k]!.value)) {
      i = k;
      subjectEnd = k;
    }
  }
  // "Gutenberg also needed", "keepers rarely slept": an adverb before the verb group stays.
  let adverb: Token | undefined;
  if (t[i]?.pos === 'ADV' && t[i + 1] && ['VERB', 'AUX'].includes(t[i + 1]!.pos)) {
    if (/^(?:not|never)$/i.test(t[i]!.value)) return null;
    adverb = t[i];
    i += 1;
  }
  const aux: Token[] = [];
  while (i < to && t[i]!.pos === 'AUX' && AUXILIARIES.has(t[i]!.normal) && aux.length < 3) {
    aux.push(t[i]!);
    i += 1;
    // "had even used", "was already standing": an adverb inside the verb group.
    // A negation ("did n’t like") is not skipped: it ends the clause's use below.
    if (
      t[i]?.pos === 'ADV' &&
      !/^(?:not|n['’]t|never)$/i.test(t[i]!.value) &&
      t[i + 1] &&
      (t[i + 1]!.pos === 'VERB' || t[i + 1]!.pos === 'AUX')
    )
      i += 1;
  }
  if (t[i] && /^(?:not|n['’]t|never)$/i.test(t[i]!.value)) return null;
  let verb: Token | null = null;
  if (t[i]?.pos === 'VERB') {
    verb = t[i]!;
    i += 1;
  } else if (aux.length === 0) return null;
  // "is called", "were printed": the verb group ends here; a copula's complement is the rest.
  if (verb && aux.length === 0 && /ing$/.test(verb.value) && verb.value !== verb.lemma) return null;
  // "a goldsmith named Johannes Gutenberg, …": a participle, not the clause's verb.
  if (verb && aux.length === 0 && /^(?:named|called|known|titled|nicknamed)$/i.test(verb.value))
    return null;
  return {
    ...(adverb ? { adverb } : {}),
    ...(pronoun ? { pronoun } : {}),
    ...(options.opensWithName === false && subjectStart === 0 ? { lowerFirst: true } : {}),
    ...(options.opensWithName === true && subjectStart === 0 ? { nameFirst: true } : {}),
    sentence: s,
    from,
    to,
    lead,
    subjectStart,
    subjectEnd,
    aux,
    verb,
    restStart: i,
  };
}

/** The subject as it reads inside a question ("the sun", "Gutenberg", "the narrator"). */
export function subjectPhrase(c: Clause): string {
  if (c.subjectText) return c.subjectText;
  const t = c.sentence.tokens;
  const first = t[c.subjectStart]!;
  if (/^I$/.test(first.value) && c.subjectEnd === c.subjectStart + 1) return 'the narrator';
  const text = c.sentence.text.slice(first.start, t[c.subjectEnd - 1]!.end);
  if (/^my$/i.test(first.value)) return `the narrator's${text.slice(2)}`;
  // "Scientists", "A worker": a common word capitalised only because it opens the sentence.
  if (!c.nameFirst && (c.lowerFirst || first.pos !== 'PROPN') && !/^[A-Z]{2,}/.test(first.value))
    return first.value.charAt(0).toLowerCase() + text.slice(1);
  return text;
}

/** The text of a token range of the sentence, verbatim. */
export function spanText(s: Sentence, from: number, to: number): string {
  if (to <= from) return '';
  return s.text.slice(s.tokens[from]!.start, s.tokens[to - 1]!.end);
}

/** Where the clause's rest should stop: before ", and …", "; …" or a new clause. */
export function clauseEnd(c: Clause): number {
  const t = c.sentence.tokens;
  for (let i = c.restStart; i < c.to; i++) {
    const x = t[i]!;
    if (x.value === ';' || x.value === ':' || x.value === '—' || x.value === '–') return i;
    if (x.value === ',' && t[i + 1] && CLAUSE_BREAK.test(t[i + 1]!.value)) {
      // "with a tiny head, a long neck, and four flippers": the "and" closes a list, so the
      // rest stops before the list, not inside it ("… a tiny head, a long neck?").
      const earlier = t.slice(c.restStart, i).findIndex((y) => y.value === ',');
      return earlier >= 0 ? c.restStart + earlier : i;
    }
    // "wrapped it tightly and told him …": a second verb joined without a comma.
    if (/^(?:and|or|but)$/i.test(x.value) && i > c.restStart && t[i + 1]?.pos === 'VERB') return i;
    // "hid the lantern in the alley and the watch began": a second clause with its own subject.
    if (/^(?:and|or|but)$/i.test(x.value) && i > c.restStart) {
      for (let k = i + 2; k <= i + 4 && k < c.to; k++) {
        const v = t[k]!;
        if (v.value === ',' || CLAUSE_BREAK.test(v.value)) break;
        // (A finite verb: "and to my family breathing" starts no clause.)
        const finite =
          v.pos === 'AUX' ||
          (v.pos === 'VERB' &&
            v.value.toLowerCase() !== v.lemma.toLowerCase() &&
            !/ing$/i.test(v.value));
        if (finite && ['NOUN', 'PROPN', 'PRON'].includes(t[k - 1]!.pos)) return i;
      }
    }
  }
  let end = c.to;
  while (end > c.restStart && !isWord(t[end - 1])) end -= 1;
  return end;
}

/**
 * A lead that only links to the sentence before or comments on the telling ("Finally,",
 * "However,", "Of course,", "In truth,"): a one-word linking adverb, or a phrase WordNet
 * knows as an adverb of its own ("of course", "at last", "in fact"). It has no place at the
 * end of a question ("What did the narrator suggest of course?").
 */
function linkingLead(c: Clause): boolean {
  if (!c.lead) return false;
  const words = spanText(c.sentence, c.lead[0], c.lead[1]).replace(/,$/, '').trim().toLowerCase();
  if (c.lead[1] - c.lead[0] > 2 && words.split(/\s+/).length > 1 && lookup(words, 'adv'))
    return true;
  return (
    c.lead[1] - c.lead[0] === 2 &&
    /^(?:finally|then|later|next|first|second|third|also|however|instead|meanwhile|still|besides|moreover|afterwards|eventually|soon|now|indeed|perhaps|surely|certainly|truly|anyway|well|yes|no|oh)$/i.test(
      c.sentence.tokens[c.lead[0]]!.value,
    )
  );
}

/** Words that open a clause inside the predicate ("that", "which", "as they lay"). */
const SUBORDINATE =
  /^(?:that|which|who|whom|whose|when|where|whereupon|while|as|if|because|since|until|till|unless|though|although|after|before|whether)$/i;

/**
 * The verb's base form for do-support ("scraped" → "scrape", not the tagger's "scrap"), or
 * null when the surface form does not come from the lemma by a regular rule and is not a
 * listed irregular form: a question with the wrong verb reads as nonsense.
 */
export function baseForm(verb: Token): string | null {
  const v = verb.value.toLowerCase();
  const lemma = verb.lemma.toLowerCase();
  if (v === lemma) return lemma;
  // A one-syllable verb ending in one vowel and one consonant doubles it ("stop" → "stopped"):
  // "scraped" is then "scrape", not "scrap".
  const short = /^[^aeiou]*[aeiou][bcdfgklmnprtvz]$/.test(lemma);
  const regular = [
    `${lemma}s`,
    `${lemma}es`,
    `${lemma}d`,
    ...(short ? [`${lemma}${lemma.at(-1)}ed`] : [`${lemma}ed`]),
    ...(/[^aeiou]y$/.test(lemma) ? [`${lemma.slice(0, -1)}ied`, `${lemma.slice(0, -1)}ies`] : []),
    ...(/c$/.test(lemma) ? [`${lemma}ked`] : []),
  ];
  if (regular.includes(v)) return lemma;
  if (short && v === `${lemma}ed` && lookup(`${lemma}e`, 'verb')) return `${lemma}e`;
  // Irregular: the form is not a regular one of any verb ("took", "ran", "brought").
  if (!/(?:ed|s)$/.test(v) && lookup(lemma, 'verb')) return lemma;
  if (/ed$/.test(v)) {
    const stems = [v.slice(0, -2), v.slice(0, -1)].filter((x) => x !== lemma && lookup(x, 'verb'));
    if (stems.length === 0 && lookup(lemma, 'verb') && !/ed$/.test(lemma)) return lemma;
  }
  return null;
}

function doForm(verb: Token): 'do' | 'does' | 'did' {
  const v = verb.value.toLowerCase();
  const lemma = verb.lemma.toLowerCase();
  if (v === lemma) return 'do';
  if (
    v === `${lemma}s` ||
    v === `${lemma}es` ||
    (lemma.endsWith('y') && v === `${lemma.slice(0, -1)}ies`)
  )
    return 'does';
  return 'did';
}

/**
 * A question asking for something outside the subject: "When did Gutenberg build his press?"
 * `remove` is a token range of the rest to leave out (the asked-for phrase); `wh` opens it.
 * Null when the result would not read as a grammatical question.
 */
export function invertedQuestion(
  c: Clause,
  wh: string,
  remove: [number, number] | null = null,
  keepLead = true,
): string | null {
  const s = c.sentence;
  const t = s.tokens;
  const end = clauseEnd(c);
  if (remove && (remove[0] < c.restStart || remove[1] > end)) {
    // The asked-for phrase may be the leading adverbial.
    if (!(c.lead && remove[0] === c.lead[0] && remove[1] === c.lead[1])) return null;
  }
  // "noticed that the pebbles were turning into cakes as they lay on the floor": the
  // asked-for phrase belongs to a clause inside the predicate, and a question about it is garbled.
  if (
    remove &&
    remove[0] >= c.restStart &&
    t.slice(c.restStart, remove[0]).some((x) => SUBORDINATE.test(x.value))
  )
    return null;
  // "gravitated to London, that great cesspool …": the phrase had an appositive after it.
  if (remove && remove[0] >= c.restStart && t[remove[1]]?.value === ',' && remove[1] < end - 1)
    return null;
  const pieces: string[] = [];
  const restTokens: Array<[number, number]> = [];
  if (remove && remove[0] >= c.restStart) {
    restTokens.push([c.restStart, remove[0]], [remove[1], end]);
  } else restTokens.push([c.restStart, end]);
  const rest = restTokens
    .map(([a, b]) => spanText(s, a, b))
    .filter(Boolean)
    .join(' ')
    .replace(/\s+,/g, ',')
    .replace(/,\s*,/g, ',')
    .replace(/^[,\s]+|[,\s]+$/g, '')
    .trim();
  // "rolled across Oklahoma and Texas": the asked-for phrase was one of a pair; "has two ends
  // called poles": a participle after it describes it. Either way the rest is left dangling.
  if (remove && remove[0] >= c.restStart) {
    const next = t[remove[1]];
    if (next && remove[1] < end && /^(?:and|or|nor)$/i.test(next.value)) return null;
    if (
      next &&
      remove[1] < end &&
      next.pos === 'VERB' &&
      /(?:ed|en|called|named|known)$/i.test(next.value)
    )
      return null;
  }
  // "Every magnet has two ends": "has" is the verb itself, and a question needs "does … have".
  if (!c.verb && c.aux.length === 1 && /^(?:has|have|had)$/i.test(c.aux[0]!.value)) return null;
  // A dangling preposition or article means the removed phrase was needed.
  if (/\b(?:the|a|an|of|in|at|to|by|from|with|for|on|and|or)$/i.test(rest)) return null;
  if (/\b(?:I|me|my|we|us|our|you|your)\b/.test(rest)) return null;
  // "How did the doctor wrap it?": an object that points to another sentence.
  if (/\b(?:it|them|this|these|those)\b/i.test(rest)) return null;
  const subject = subjectPhrase(c);
  if (c.aux.length) {
    const [first, ...others] = c.aux;
    pieces.push(wh, first!.value.toLowerCase(), subject);
    if (c.adverb) pieces.push(c.adverb.value.toLowerCase());
    const between = spanText(s, t.indexOf(first!) + 1, c.verb ? t.indexOf(c.verb) : c.restStart);
    // "had even used": keep the adverb with the verb.
    const middle = between.split(/\s+/).filter((w) => w && !others.some((o) => o.value === w));
    pieces.push(...others.map((o) => o.value), ...middle);
    if (c.verb) pieces.push(c.verb.value);
  } else if (c.verb) {
    const form = doForm(c.verb);
    if (subject === 'the narrator' && form === 'do') return null;
    const base = baseForm(c.verb);
    if (!base) return null;
    pieces.push(wh, form, subject, ...(c.adverb ? [c.adverb.value.toLowerCase()] : []));
    pieces.push(base);
  } else return null;
  if (rest) pieces.push(rest);
  // "Finally, he adapted the screw press" → "What did he adapt?": a linking adverb of the
  // telling ("Finally", "Then", "However") has no place at the end of a question.
  if (keepLead && c.lead && !linkingLead(c) && !(remove && remove[0] === c.lead[0])) {
    const lead = spanText(s, c.lead[0], c.lead[1]).replace(/,$/, '');
    pieces.push(lead.charAt(0).toLowerCase() + lead.slice(1));
  }
  const question = pieces.filter(Boolean).join(' ').replace(/\s+/g, ' ').trim();
  if (question.split(/\s+/).length < 4) return null;
  return `${capitalise(question)}?`;
}

/** "Who built the press?": the subject replaced by a question word, the verb group kept. */
export function subjectQuestion(c: Clause, wh: string): string | null {
  const s = c.sentence;
  const end = clauseEnd(c);
  if (end <= c.restStart && !c.verb) return null;
  const verbStart = c.adverb ?? c.aux[0] ?? c.verb;
  if (!verbStart) return null;
  const body = spanText(s, s.tokens.indexOf(verbStart), end);
  if (/\b(?:I|me|my|we|us|our|you|your)\b/.test(body)) return null;
  let question = `${wh} ${body}`;
  if (c.lead && !linkingLead(c)) {
    const lead = spanText(s, c.lead[0], c.lead[1]).replace(/,$/, '');
    question += ` ${lead.charAt(0).toLowerCase()}${lead.slice(1)}`;
  }
  if (question.split(/\s+/).length < 4) return null;
  return `${capitalise(question.replace(/\s+,/g, ',').replace(/[,\s]+$/, ''))}?`;
}

/** Names of people in the text (kind person), including their aliases. */
export function personNames(analysis: Analysis): Set<string> {
  const out = new Set<string>();
  for (const n of analysis.names.values()) if (n.kind === 'person') out.add(n.name);
  return out;
}

/** Sentences that read as a statement of fact without their neighbours (no "this", "it", "he" opening). */
export function standsAlone(s: Sentence): boolean {
  return !/^(?:he|she|it|they|this|that|these|those|his|her|its|their|there|such|then|also|and|but|or|so|yet|for|instead|however|here|thus|therefore|as a result)\b/i.test(
    s.text,
  );
}

export { MODALS };

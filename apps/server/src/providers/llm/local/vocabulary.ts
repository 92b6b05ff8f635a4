import type { VocabularyItem } from '@chapterwise/shared';
import pos from 'pos';
import { containsPhrase, termInContext } from '../quality.js';
import { wordNetPos, type Analysis, type Sentence, type Token, type WordInfo } from './analyse.js';
import type { WriterContext } from './common.js';
import { glossLevel, isFamiliar, wordGrade } from './familiar.js';
import { detectGenre } from './genre.js';
import {
  chooseSense,
  fieldOfStudy,
  passageDefinitions,
  personObject,
  possessed,
  takesPersonObject,
  usedTransitively,
  type PassageDefinition,
} from './senses.js';
import {
  antonymsOf,
  frequencyOf,
  lookup,
  sensesOf,
  senseTagCounts,
  synsetAt,
  type Synset,
  type WordNetPos,
} from './wordnet.js';

/**
 * Vocabulary worth teaching, with a meaning a student can trust. Every gate is a reason to
 * skip a word rather than show a doubtful item:
 * - the part of speech is agreed (wink-nlp and jsPOS tag it alike, or the word's ending
 *   settles their disagreement, and WordNet knows the word as that part of speech);
 * - multi-word entries come first ("printing press", "static electricity");
 * - the sense is the passage's own definition, or the WordNet sense that wins over the
 *   passage with margin (senses.ts);
 * - the word is a Tier-2 or key term: not on the Dale–Chall list of familiar words (unless it
 *   is a key term of the passage in a sense WordNet's corpus seldom uses), not a number or unit;
 * - the definition reads at or below the grade (Flesch–Kincaid), the simplest of the
 *   passage's definition, the WordNet gloss and a synonym phrasing.
 */

const LABELS: Record<WordInfo['pos'], string> = {
  NOUN: 'noun',
  VERB: 'verb',
  ADJ: 'adjective',
  ADV: 'adverb',
};

type Pos = WordInfo['pos'];

/** The part of speech a word's ending tells, when it tells one. */
export function morphologyPos(word: string): Pos | null {
  const w = word.toLowerCase();
  if (w.length < 6) return null;
  if (/(?:tion|sion|ment|ness|ity|ance|ence|ship|hood|ism|ist)s?$/.test(w)) return 'NOUN';
  // "-ive" is also a noun ending ("preservative", "detective"): trusted only when WordNet has no such noun.
  if (/(?:able|ible|ous|ful|less|ical|ish)$/.test(w) || (/ive$/.test(w) && !lookup(w, 'noun')))
    return 'ADJ';
  if (/(?:ize|ify)(?:s|d)?$|(?:iz|if)(?:ed|ing)$/.test(w)) return 'VERB';
  // "quickly" from the adjective "quick", "happily" from "happy"; not "family" or "supply".
  if (/ly$/.test(w)) {
    const base = w.slice(0, -2);
    if (lookup(base, 'adj') || (base.endsWith('i') && lookup(`${base.slice(0, -1)}y`, 'adj')))
      return 'ADV';
  }
  return null;
}

function penn(tag: string): Pos | null {
  if (/^NN(?!P)/.test(tag)) return 'NOUN';
  if (/^VB/.test(tag)) return 'VERB';
  if (/^JJ/.test(tag)) return 'ADJ';
  if (/^RB/.test(tag)) return 'ADV';
  return null;
}

const taggedSentences = new WeakMap<Sentence, Array<[string, string]>>();
let lexer: InstanceType<typeof pos.Lexer> | undefined;
let tagger: InstanceType<typeof pos.Tagger> | undefined;

/** jsPOS's tag of a token in its sentence (its own tokenisation, matched by word and order). */
function secondTag(sentence: Sentence, token: Token): Pos | null {
  let tagged = taggedSentences.get(sentence);
  if (!tagged) {
    lexer ??= new pos.Lexer();
    tagger ??= new pos.Tagger();
    tagged = tagger.tag(lexer.lex(sentence.text));
    taggedSentences.set(sentence, tagged);
  }
  // Which occurrence of this word in the sentence the token is.
  const same = sentence.tokens.filter((t) => t.value === token.value);
  const nth = same.indexOf(token);
  let seen = -1;
  for (const [word, tag] of tagged) {
    if (word === token.value && ++seen === nth) return penn(tag);
  }
  return null;
}

/**
 * The part of speech both taggers, the word's ending and WordNet agree on for this use of a
 * word, or null: "movable" in "movable metal type" is tagged a noun by one tagger and an
 * adjective by the other; its ending settles it as an adjective.
 */
export function agreedPos(sentence: Sentence, token: Token): Pos | null {
  const first = ['NOUN', 'VERB', 'ADJ', 'ADV'].includes(token.pos) ? (token.pos as Pos) : null;
  if (!first) return null;
  const second = secondTag(sentence, token);
  const ending = morphologyPos(token.value);
  let agreed: Pos | null = null;
  // jsPOS reads "blacksmith's" as one word: without its vote, wink's tag stands when nothing contradicts it.
  if (first === second || second === null) agreed = ending && ending !== first ? null : first;
  else if (ending && (ending === first || ending === second)) agreed = ending;
  if (!agreed) return null;
  const lemma = agreed === first ? token.lemma.toLowerCase() : token.value.toLowerCase();
  if (!lookup(lemma, wordNetPos(agreed))) return null;
  // A word far more used as another part of speech is likely a tagging slip.
  const own = Math.max(0, frequencyOf(lemma, wordNetPos(agreed)));
  for (const other of ['noun', 'verb', 'adj', 'adv'] as const) {
    if (other === wordNetPos(agreed)) continue;
    if (frequencyOf(lemma, other) > 4 * own + 8) return null;
  }
  return agreed;
}

interface Candidate {
  lemma: string;
  pos: Pos;
  /** Sentences where it is used with the agreed part of speech. */
  sentences: Sentence[];
  forms: Set<string>;
  count: number;
  compound: boolean;
  familiarity: number;
  lexFile: number;
  /** Each use of a single word, to check its part of speech (only for words worth it: it costs). */
  uses: Array<{ sentence: Sentence; token: Token }>;
}

const ORDINALS =
  /^(?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth|(?:thir|four|fif|six|seven|eigh|nine)teenth|twentieth|thirtieth|hundredth|thousandth|millionth)$/;
const TITLE_WORDS = new Set(
  'mister madam madame mademoiselle monsieur señor senor signor signora herr frau fraulein sir lord lady master mistress captain colonel general major sergeant lieutenant professor doctor reverend'.split(
    ' ',
  ),
);
// WordNet's noun.quantity (units) and noun.time (days, months): nothing to teach.
const SKIP_LEXFILES = new Set([23, 28]);
const ACT_LEXFILE: ReadonlySet<number> = new Set([4]);
// noun.body, noun.phenomenon, noun.plant, noun.process, noun.substance: a subject's own terms.
const DOMAIN_LEXFILES = new Set([8, 19, 20, 22, 27]);

/** Noun compounds WordNet lists ("printing press", "carbon dioxide"), by lemma. */
export function findCompounds(analysis: Analysis): Map<string, Candidate> {
  const out = new Map<string, Candidate>();
  for (const s of analysis.sentences) {
    const t = s.tokens;
    for (let i = 0; i < t.length - 1; i++) {
      for (const size of [3, 2]) {
        const run = t.slice(i, i + size);
        if (run.length < size) continue;
        const last = run.at(-1)!;
        if (last.pos !== 'NOUN') continue;
        if (!run.every((x) => /^[a-z][a-z-]*$/.test(x.value))) continue;
        if (!run.slice(0, -1).every((x) => ['NOUN', 'ADJ', 'VERB', 'ADP'].includes(x.pos)))
          continue;
        // "man of war" has its preposition inside; "to leeward", "in time" are phrases, not names.
        if (run[0]!.pos === 'ADP') continue;
        // Adjacent in the text (no punctuation between).
        if (run.some((x, k) => k > 0 && x.start !== run[k - 1]!.end + 1)) continue;
        const lemma = [...run.slice(0, -1).map((x) => x.value), last.lemma.toLowerCase()].join(' ');
        if (!lookup(lemma, 'noun')) continue;
        const c = out.get(lemma) ?? {
          lemma,
          pos: 'NOUN' as Pos,
          sentences: [],
          forms: new Set<string>(),
          count: 0,
          compound: true,
          familiarity: Math.max(0, frequencyOf(lemma, 'noun')),
          lexFile: -1,
          uses: [],
        };
        c.count += 1;
        c.forms.add(s.text.slice(run[0]!.start, last.end).toLowerCase());
        if (c.sentences.at(-1) !== s) c.sentences.push(s);
        out.set(lemma, c);
        i += size - 1;
        break;
      }
    }
  }
  return out;
}

/** "in advance", "in vain", "by heart": a preposition and a word WordNet lists as one adverb or adjective. */
export function idiom(preposition: string, word: string): boolean {
  const phrase = `${preposition.toLowerCase()} ${word.toLowerCase()}`;
  return !!lookup(phrase, 'adv') || !!lookup(phrase, 'adj');
}

/** Single words worth a look, with their uses (outside compounds). */
function singleWords(analysis: Analysis, compounds: Map<string, Candidate>): Candidate[] {
  // Token positions inside a compound belong to it ("printing" of "printing press").
  const inCompound = new Set<string>();
  for (const c of compounds.values())
    for (const s of c.sentences)
      for (const form of c.forms) {
        let at = s.text.toLowerCase().indexOf(form);
        while (at !== -1) {
          for (const t of s.tokens)
            if (t.start >= at && t.end <= at + form.length) inCompound.add(`${s.index}:${t.start}`);
          at = s.text.toLowerCase().indexOf(form, at + 1);
        }
      }
  const out: Candidate[] = [];
  for (const info of analysis.words.values()) {
    if (info.lemma.length < 4 || info.lemma.includes('-') || ORDINALS.test(info.lemma)) continue;
    // Titles ("mademoiselle", "captain") are part of names.
    if (TITLE_WORDS.has(info.lemma)) continue;
    // WordNet's frequency now; its category (a synset read from disk) only for words worth it.
    let lemma = info.lemma;
    // "species" is not the plural of "specie" (coins): a form WordNet knows better than its lemma stays.
    if (info.pos === 'NOUN') {
      const own = [...info.forms.keys()].map((f) => f.toLowerCase()).find((f) => f !== lemma);
      if (own && lookup(own, 'noun') && frequencyOf(own, 'noun') > frequencyOf(lemma, 'noun'))
        lemma = own;
    }
    const familiarity = frequencyOf(lemma, wordNetPos(info.pos));
    if (familiarity < 0) continue;
    const c: Candidate = {
      lemma,
      pos: info.pos,
      sentences: [],
      forms: new Set(),
      count: 0,
      compound: false,
      familiarity,
      lexFile: -2,
      uses: [],
    };
    // "the North Wind", "the Great Green Wall": a capitalised use inside a sentence is part of a
    // name, and so is a capitalised first word when the passage writes the word as a name elsewhere.
    const named = info.sentences.some((index) =>
      analysis.sentences[index]?.tokens.some(
        (t, k) =>
          k > 0 &&
          (t.lemma ?? t.value).toLowerCase() === info.lemma &&
          /^[A-Z]/.test(t.value) &&
          !/^["“‘'(]$/.test(analysis.sentences[index]!.tokens[k - 1]!.value),
      ),
    );
    for (const index of info.sentences) {
      const sentence = analysis.sentences[index];
      if (!sentence) continue;
      for (const token of sentence.tokens) {
        if (token.pos !== info.pos || token.lemma.toLowerCase() !== info.lemma) continue;
        if (/^[A-Z]/.test(token.value) && (named || sentence.tokens.indexOf(token) > 0)) continue;
        if (inCompound.has(`${sentence.index}:${token.start}`)) continue;
        // Part of a hyphenated word ("self-denial"): not the word on its own.
        const around = sentence.text.charAt(token.start - 1) + sentence.text.charAt(token.end);
        if (/[-‐]/.test(around)) continue;
        // "forecast it in advance", "tried in vain": a preposition and the word that WordNet
        // lists together as an adverb or adjective is an idiom, not a use of the word's meaning.
        const prev = sentence.tokens[sentence.tokens.indexOf(token) - 1];
        if (prev?.pos === 'ADP' && idiom(prev.value, token.value)) continue;
        c.uses.push({ sentence, token });
        c.count += 1;
        c.forms.add(token.value.toLowerCase());
        if (c.sentences.at(-1) !== sentence) c.sentences.push(sentence);
      }
    }
    if (c.count === 0) continue;
    out.push(c);
  }
  return out;
}

/**
 * Keeps the uses of a word whose part of speech is agreed; false when most uses disagree
 * (a word the taggers read two ways is not defined).
 */
function confirmPos(c: Candidate): boolean {
  if (c.compound) return true;
  // "sat at her loom": every use after a determiner or a possessive is the noun.
  if (
    c.pos === 'VERB' &&
    c.uses.length > 0 &&
    lookup(c.lemma, 'noun') &&
    c.uses.every(({ sentence: s, token: t }) => {
      const prev = s.tokens[s.tokens.indexOf(t) - 1];
      return (
        !!prev && (prev.pos === 'DET' || /^(?:his|her|their|its|my|our|your)$/i.test(prev.value))
      );
    })
  ) {
    c.pos = 'NOUN';
    c.familiarity = frequencyOf(c.lemma, 'noun');
    return true;
  }
  const agreed: Candidate['uses'] = [];
  let disagreed = 0;
  for (const use of c.uses.slice(0, 6)) {
    const { sentence: s, token: t } = use;
    // "The roots anchor the tree": a "noun" right before a determiner is a verb both taggers missed.
    const next = s.tokens[s.tokens.indexOf(t) + 1];
    const beforeDeterminer =
      t.pos === 'NOUN' &&
      !!next &&
      (next.pos === 'DET' || /^(?:his|her|their|its|my|our|your)$/i.test(next.value));
    // "became convalescent": a bare word after a linking verb is an adjective, whatever the taggers say.
    const prev = s.tokens[s.tokens.indexOf(t) - 1];
    const predicative =
      t.pos === 'NOUN' &&
      !!prev &&
      /^(?:is|are|was|were|be|been|become|became|becomes|seem|seemed|seems|remain|remained|stay|stayed|stays|grew|grow|felt|feel|looked)$/i.test(
        prev.value,
      ) &&
      !!lookup(t.value.toLowerCase(), 'adj') &&
      (!next || next.pos !== 'NOUN');
    // "visits increase, not decrease": after "not", "to" or a modal a bare "noun" is a verb.
    // "sat at her loom": a "verb" after a determiner or a possessive is a noun.
    const afterDeterminer =
      t.pos === 'VERB' &&
      !!prev &&
      (prev.pos === 'DET' || /^(?:his|her|their|its|my|our|your)$/i.test(prev.value));
    // "pulses of electric current through a wire": an "adjective" after a describing word or
    // a determiner, with no noun after it, is the noun the phrase is about.
    const nounHead =
      t.pos === 'ADJ' &&
      !!prev &&
      (prev.pos === 'ADJ' || prev.pos === 'DET') &&
      (!next || !['NOUN', 'ADJ', 'PROPN', 'CCONJ', 'PUNCT'].includes(next.pos)) &&
      !!lookup(t.value.toLowerCase(), 'noun');
    const afterVerbCue =
      t.pos === 'NOUN' &&
      !!prev &&
      /^(?:not|to|will|would|can|could|shall|should|must|may|might|did|does|do)$/i.test(prev.value);
    if (
      beforeDeterminer ||
      predicative ||
      nounHead ||
      afterVerbCue ||
      afterDeterminer ||
      agreedPos(s, t) !== c.pos
    )
      disagreed += 1;
    else agreed.push(use);
  }
  if (agreed.length === 0 || disagreed > agreed.length) return false;
  c.uses = agreed;
  c.sentences = [...new Set(agreed.map((u) => u.sentence))];
  c.forms = new Set(agreed.map((u) => u.token.value.toLowerCase()));
  return true;
}

/**
 * The grade a definition reads at, measured on its words (familiar.ts): the second hardest
 * word's grade, or the hardest's less one and a half (one harder word is carried by the rest), a grade
 * more when it is long. Flesch–Kincaid counts syllables, which says little about a phrase of
 * six words ("an invisible gas" is not grade 9).
 */
export function glossGrade(definition: string, passageWords?: Set<string>, level?: number): number {
  const { hardest, second, words } = glossLevel(definition, passageWords, level);
  return Math.max(second, hardest - 1.5) + (words > 15 ? 1 : 0);
}

/** The plain meaning part of a WordNet definition, short enough for a student. */
export function tidyDefinition(definition: string): string {
  // A field label first ("(botany) the usually underground organ …") says nothing to a student.
  const unlabelled = definition.replace(/^\s*\([^)]*\)\s*/, '');
  // WordNet sometimes opens with a note on usage ("primarily temporal sense; …"): keep the meaning.
  const parts = unlabelled.split(/\s*;\s*/).filter(Boolean);
  const meaning =
    parts.find((p) => !/\bsense\b|^(?:primarily|usually|often|used|especially)\b|^\(/i.test(p)) ??
    parts[0] ??
    unlabelled;
  let d = meaning
    .replace(/\s*\([^)]*\)\s*/g, ' ')
    .replace(/\s+([,.])/g, '$1')
    .replace(/\s+/g, ' ')
    .trim();
  // "make fit for, or change to suit a new purpose", "characteristic of or capable of or having
  // a tendency toward killing": alternatives that share an object read as debris; the last one
  // carries the object and reads alone.
  const alternatives = d.split(/,?\s+or\s+/);
  let dropped = 0;
  while (
    dropped < alternatives.length - 1 &&
    /\b(?:of|for|to|with|in|on|toward|towards|from|by|about)$/.test(alternatives[dropped]!)
  )
    dropped += 1;
  const rest = alternatives.slice(dropped).join(' or ');
  // ("a mass of small bubbles formed in or on a liquid": when what is left opens with a
  // preposition, the alternatives were two prepositions of one object, not two meanings.)
  if (
    dropped > 0 &&
    rest.split(/\s+/).length >= 3 &&
    !/^(?:of|for|to|with|in|on|toward|towards|from|by|about|through|into|onto|at)\b/.test(rest)
  )
    d = rest;
  // Dictionary shorthand a student does not read: "… for wells and springs etc", "white goods".
  d = d
    .replace(/,?\s+etc\.?$/i, '')
    .replace(/^white goods\b/i, 'a kitchen machine')
    .trim();
  // "a strong wind moving 45-90 knots": the measure is a meteorologist's, not the meaning.
  d = d.replace(/\s+(?:[a-z]+ing\s+)?\d+(?:\s*[-–]\s*\d+)?\s+[a-z]+$/i, '');
  // "extraordinarily large in size or extent or amount or power or degree": the list says less
  // than the word; cut before it.
  // (Not when it leaves a bare class: "a set of rules or principles or laws" is not "a set".)
  const listless = d.replace(/\s+(?:in|of|by)\s+[a-z]+(?:\s+or\s+[a-z]+){2,}$/i, '');
  if (listless.split(/\s+/).filter((w) => !/^(?:an?|the)$/i.test(w)).length >= 2) d = listless;
  // "belonging to times long past especially of the historical period before the fall of the
  // Western Roman Empire": the qualification after "especially" is a dictionary's, not the text's.
  // "move downward and lower, but not necessarily all the way": a hedge after ", but" is the
  // dictionary's fine print.
  const hedge = /,\s+but\s/.exec(d);
  if (hedge && d.slice(0, hedge.index).split(/\s+/).length >= 3) d = d.slice(0, hedge.index);
  const especially = /\s(?:especially|specifically|particularly)\s/.exec(d);
  if (especially && d.slice(0, especially.index).split(/\s+/).length >= 3)
    d = d.slice(0, especially.index).replace(/[;,]\s*$/, '');
  if (d.length > 120) {
    // Cut at a clause ("… usually fused together …", ", which …"), never inside a word.
    const clause = /,\s|\s(?:usually|especially|typically|often|that is|as in|and by)\s/g;
    let cut = -1;
    for (const m of d.matchAll(clause)) if (m.index > 40 && m.index <= 120) cut = m.index;
    if (cut > 0) d = d.slice(0, cut).replace(/[;,]\s*$/, '');
  }
  return d;
}

/**
 * "a sea robber" for "pirate": words of the same sense whose own main sense this is, and that a
 * student knows better than the word ("loaded" is a synonym of "wealthy", but not in its main
 * sense, so it is never offered).
 */
export function synonymPhrase(sense: Synset, lemma: string, pos: WordNetPos): string | null {
  const synsets = [sense];
  const own = frequencyOf(lemma, pos);
  const picked: string[] = [];
  for (const synset of synsets)
    for (const word of synset.words) {
      const w = word.toLowerCase();
      if (w === lemma || w.includes(lemma) || lemma.includes(w) || picked.includes(w)) continue;
      // Only a word with one or two senses, this its main one ("runner" is a smuggler only in
      // its ninth sense).
      const senses = sensesOf(w, pos);
      if (/[^a-z ]/.test(w) || senses[0]?.offset !== synset.offset || senses.length > 2) continue;
      // "steps" for "stairs": a plural is no headword ("a steps").
      if (pos === 'noun' && /[^s]s$/.test(w) && lookup(w.slice(0, -1), 'noun')) continue;
      // "cherry" for "scarlet": a word with more senses as another part of speech is read as that.
      if (
        (['noun', 'verb', 'adj', 'adv'] as const).some(
          (o) => o !== pos && sensesOf(w, o).length > senses.length,
        )
      )
        continue;
      if (!isFamiliar(w) && frequencyOf(w, pos) <= Math.max(2, own)) continue;
      // "grave" for "solemn" reads as a burial place: not a word more used as another part of speech.
      const usual = Math.max(0, frequencyOf(w, pos));
      if (
        (['noun', 'verb', 'adj', 'adv'] as const).some(
          (o) => o !== pos && frequencyOf(w, o) > usual,
        )
      )
        continue;
      picked.push(w);
    }
  if (picked.length === 0) return null;
  const words = picked.slice(0, 2);
  const joined = words.join(' or ');
  if (pos === 'noun') return `${/^[aeiou]/.test(words[0]!) ? 'an' : 'a'} ${joined}`;
  if (pos === 'verb') return `to ${joined}`;
  return joined;
}

/** A word without its derivational ends ("unwillingness" → "will", "cheerful" → "cheer"). */
function wordBase(word: string): string {
  let w = word.toLowerCase();
  for (let i = 0; i < 4; i++) {
    const next = w
      .replace(/^(?:un|in|dis|non)(?=[a-z]{5})/, '')
      .replace(
        /(?<=[a-z]{4})(?:ness|fully|ful|less|ly|ment|ity|able|ible|ed|ing|er|est|es|s|y)$/,
        '',
      );
    if (next === w) break;
    // "craggy" → "crag", "stopped" → "stop": the doubled consonant before an ending.
    w = next.replace(/([b-df-hj-np-tv-z])\1$/, '$1');
  }
  return w;
}

/**
 * True when a definition explains a word by itself ("cheerful: full of cheer"), or a closed
 * compound by one of its parts ("rooftop: the top of a roof", "sunlight: the light of the sun").
 */
export function circular(word: string, definition: string): boolean {
  const base = wordBase(word);
  const w0 = word.toLowerCase();
  const said = definition
    .toLowerCase()
    .split(/[^a-z]+/)
    .filter((w) => w.length >= 3);
  // Both parts of a closed compound ("rooftop": roof, top); one is a fair class ("rainforest:
  // a forest with heavy rainfall").
  if (/^[a-z]{6,}$/.test(w0))
    for (let i = 3; i <= w0.length - 3; i++) {
      const head = w0.slice(0, i);
      const tail = w0.slice(i);
      if (!isFamiliar(head) || !(isFamiliar(tail) || isFamiliar(wordBase(tail)))) continue;
      const has = (part: string) => said.some((w) => w === part || wordBase(w) === wordBase(part));
      if (has(head) && has(tail)) return true;
    }
  return said.some((w) => {
    const b = wordBase(w);
    // "scientist: … one or more sciences": a shared root of five letters or more that is over
    // half of the longer word (not "rainforest" and "rainfall").
    let shared = 0;
    while (shared < Math.min(w.length, w0.length) && w[shared] === w0[shared]) shared += 1;
    return (
      b === base ||
      (b.length >= 5 && base.startsWith(b)) ||
      (base.length >= 5 && b.startsWith(base)) ||
      (shared >= 5 && shared >= 0.55 * Math.max(w.length, w0.length))
    );
  });
}

export interface Gloss {
  definition: string;
  grade: number;
  source: 'passage' | 'wordnet' | 'synonym';
}

/**
 * The definition to show: the first of the passage's own definition, the WordNet gloss and a
 * synonym phrasing that reads at most a grade above the class (the passage's own words two more);
 * null when only a far-above-grade one exists.
 */
export function chooseGloss(
  options: Gloss[],
  level: number,
  lemma: string,
  termGrade = Infinity,
  passageWords: Set<string> = new Set(),
): Gloss | null {
  // A definition that uses the word itself teaches nothing ("printing press: a machine used for
  // printing" is fine: only the whole entry counts).
  const words = lemma.toLowerCase().split(/\s+/);
  const self =
    words.length === 1
      ? (d: string) => circular(words[0]!, d)
      : // A compound explained by all its own words ("ice crystal: small crystals of ice") teaches
        // nothing, nor a short gloss that repeats one of them ("fishing boat: a vessel for fishing").
        (d: string) =>
          new RegExp(`\\b${lemma}`, 'i').test(d) ||
          words.every((w) => circular(w, d)) ||
          (d.split(/\s+/).length <= 4 && words.some((w) => circular(w, d)));
  // "nomadic: migratory", "spire: a steeple": a meaning of one or two words must be easier
  // than the word, or it explains nothing.
  const noEasier = (d: string) => {
    const content = d
      .toLowerCase()
      .split(/[^a-z]+/)
      .filter((w) => w.length > 0 && !/^(?:an?|the|or|and|to|of)$/.test(w));
    return (
      content.length <= 2 &&
      Math.max(...content.map((w) => wordGrade(w))) > Math.max(3, termGrade - 1)
    );
  };
  // "repugnance: intense aversion", "solemnly: in a grave and sedate manner": a short meaning
  // is a word swap, and helps only when every word of it is one the class knows (a grade of
  // grace over `knownBelow`: "without mercy or pity" in grade 4).
  const unknownSwap = (d: string) => {
    const content = d
      .toLowerCase()
      .split(/[^a-z]+/)
      .filter((w) => w.length > 0 && !/^(?:an?|the|or|and|to|of|in|on|for|with|by|at)$/.test(w));
    // (The passage's own words are known to a student who has just read them: "vapor".)
    return (
      content.length <= 3 &&
      content.some((w) => !passageWords.has(w) && wordGrade(w) > knownBelow(level) + 1)
    );
  };
  const usable = options.filter(
    (o) =>
      o.definition.length >= 3 &&
      !self(o.definition) &&
      !noEasier(o.definition) &&
      (o.source === 'passage' || !unknownSwap(o.definition)),
  );
  const target = Math.max(3, level);
  // The passage's own words are at the passage's level: they get two grades of grace.
  return usable.find((o) => o.grade <= target + (o.source === 'passage' ? 3 : 0)) ?? null;
}

/**
 * Two senses of a word that a student would take for one meaning: one is the other's broader
 * or narrower sense, or their definitions share a content word ("library": a room where books
 * are kept, a depository built to contain books).
 */
function sensesRelated(a: Synset, b: Synset): boolean {
  if (
    a.pointers.some((p) => p.offset === b.offset) ||
    b.pointers.some((p) => p.offset === a.offset)
  )
    return true;
  const words = (s: Synset) =>
    new Set(
      s.definition
        .toLowerCase()
        .split(/[^a-z]+/)
        .filter(
          (w) =>
            w.length > 3 &&
            !/^(?:that|with|which|from|used|have|having|something|someone|especially|usually|other|their|this|into|made)$/.test(
              w,
            ),
        )
        .map((w) => w.replace(/(?:es|s)$/, '')),
    );
  const wa = words(a);
  return [...words(b)].some((w) => wa.has(w));
}

/** In how many sentences a phrase occurs, in any case. */
function mentions(analysis: Analysis, phrase: string): number {
  const re = new RegExp(`\\b${phrase.replace(/[^a-z ]/g, '')}`, 'i');
  return analysis.sentences.filter((s) => re.test(s.text)).length;
}

/**
 * The word grade (familiar.ts) under which most of a class knows a word: half a grade under the
 * class's own up to grade 7 (from grade 4 never under 4.5, the list fourth-graders know), 7 in
 * grades 8–9, two and a half grades under the class after. Spoken frequency puts book words late
 * (the Dale–Chall words, known to fourth-graders, have a median Zipf of 4.3 and a quarter of them
 * fall under 3.75, which the frequency scale calls grade 6.4): "invisible" (5.4), "appetite" (5.8)
 * and "convenient" (5.9) are everyday words in grade 7, "excellent" (3.7) in grade 4. Past grade 7
 * the scale no longer tells Tier-2 words a class should learn ("distraught", "contemporary",
 * ≈ 7.8) from words it knows ("fragment", ≈ 7.7): the floor stays put there.
 */
export function knownBelow(level: number): number {
  return Math.max(Math.min(level + 1, 4.5), Math.min(level - 0.5, 7), level - 2.5);
}

/** How much a candidate is worth teaching here (0 when it is not), and whether it is an everyday word. */
function worth(
  c: Candidate,
  ctx: WriterContext,
  defined: boolean,
  keyTerms: Set<string>,
): { score: number; familiar: boolean; easy: boolean; subjectTerm: boolean } {
  const level = ctx.plan.level;
  // Counted in any case: a heading ("The Printing Press") names the passage's subject.
  const compoundUses = c.compound
    ? c.sentences.length > 1
      ? 2
      : mentions(ctx.analysis, c.lemma)
    : 0;
  const familiar = c.compound
    ? c.lemma.split(' ').every((w) => isFamiliar(w))
    : [...c.forms].some(
        (f) =>
          isFamiliar(f, c.lemma) || isFamiliar(f.replace(/(?:er|est)$/, '').replace(/i$/, 'y')),
      );
  // A familiar word the passage describes once ("A coconut is a seed with a thick, hairy
  // shell") is still the word the class knows: its definition makes it a term only from grade
  // 5 (the familiar list is what fourth-graders know) and when the passage is about it.
  const recurring = keyTerms.has(c.lemma) || c.count >= 3 || compoundUses >= 2;
  const key = (defined && (!familiar || (level >= 5 && recurring))) || recurring;
  // Everyday words ("water", "walking") are not vocabulary; a key term may still be, in a
  // sense of its subject ("bark" of a tree, "charge" in electricity): checked once the sense is known.
  if (familiar && !((key || (c.compound && c.count >= 2)) && level >= 3 && c.familiarity <= 45))
    return { score: 0, familiar, easy: true, subjectTerm: false };
  // Very common words are below every grade but the youngest.
  const ceiling = level <= 2 ? 60 : level <= 5 ? 30 : 20;
  if (c.familiarity > ceiling && !key)
    return { score: 0, familiar, easy: true, subjectTerm: false };
  // Words most students know years before this grade ("reliable", "warehouse", "homework" in
  // grade 10; "expensive" in grade 7), unless the passage defines them.
  const words = c.lemma.split(' ');
  const grades = words.map((w, i) =>
    i === words.length - 1 && !c.compound ? wordGrade([...c.forms][0] ?? w, w) : wordGrade(w),
  );
  const termGrade = Math.max(...grades);
  // A key term may still be one in a sense of its own ("type" as metal letters): checked with the sense.
  // (Two grades up to grade 8: "warehouse" and "chemical", about grade 6, are below a grade-8
  // class; two and a half above it, where Tier-2 words such as "immigrant" (8) still teach.)
  // The subject's own terms in a text that informs ("rainforest", "climate" in geography) are
  // taught a little nearer the class's grade than a story's words: they are what the text is about.
  const genre = detectGenre(ctx.analysis);
  const subjectTerm = key && (genre === 'informational' || genre === 'argument');
  const below = subjectTerm ? level - (level >= 9 ? 2.5 : 2) : knownBelow(level);
  const easy = familiar || (!defined && termGrade < below);
  if (easy && !key) return { score: 0, familiar, easy, subjectTerm };
  // A compound of words the class knows means what its words say ("printing shop", "low
  // temperature", "school assignment"): only a defined or recurring one is a term.
  if (c.compound && !key && grades.every((g) => g <= Math.max(level, 6))) {
    if (compoundUses < 2) return { score: 0, familiar, easy, subjectTerm };
  }
  // "separately": an adverb made from an adjective the class knows.
  if (c.pos === 'ADV' && /ly$/.test(c.lemma)) {
    const base = c.lemma.slice(0, -2);
    const adjective = /bly$/.test(c.lemma)
      ? `${c.lemma.slice(0, -1)}e`
      : lookup(base, 'adj')
        ? base
        : base.endsWith('i') && lookup(`${base.slice(0, -1)}y`, 'adj')
          ? `${base.slice(0, -1)}y`
          : lookup(`${base}e`, 'adj')
            ? `${base}e`
            : null;
    if (adjective && wordGrade(adjective) <= level)
      return { score: 0, familiar, easy, subjectTerm };
  }
  const rarity = c.familiarity <= 0 ? 0.8 : c.familiarity <= 10 ? 1 : 0.8;
  const posWeight = c.pos === 'ADV' ? 0.5 : c.pos === 'VERB' ? 0.8 : 1;
  const focus = ctx.plan.focusTerms.some((f) => c.lemma.includes(f)) ? 2 : 1;
  const score =
    Math.log2(1 + c.count) *
    rarity *
    posWeight *
    focus *
    (defined ? 2 : 1) *
    (keyTerms.has(c.lemma) ? 1.5 : 1) *
    (c.compound ? 1.4 : 1) *
    (easy ? 0.6 : 1) *
    (1 + Math.min(c.lemma.length, 14) / 20);
  return { score, familiar, easy, subjectTerm };
}

// WordNet's everyday things: noun.animal, noun.artifact, noun.body, noun.food, noun.person,
// noun.shape. A child meets "skeleton", "disk", "toddler" and "dog" long before a text teaches
// them; such a word is vocabulary only when it is rarer than the class's level ("parchment" in
// grade 7, "schooner" in grade 5) or the passage defines it ("compositor").
const EVERYDAY_THINGS = new Set([5, 6, 8, 13, 18, 25]);
const PEOPLE = new Set([18]);
const ARTIFACTS = 6;
// Senses in which an everyday word is a subject's term: artifact, attribute, body, food, object,
// phenomenon, plant, process, substance.
const TERM_SENSES = new Set([6, 7, 8, 13, 17, 19, 20, 22, 27]);
// adj.pert: "lunar", "subclavian", "enteric" only mean "of the moon / collarbone / intestines".
const RELATIONAL_ADJECTIVES = 1;

/**
 * True when a noun's gloss is a sentence, not a definition ("lunar eclipse: the earth
 * interrupts light shining on the moon"): it opens with a subject and its verb.
 */
export function glossIsClause(gloss: string): boolean {
  lexer ??= new pos.Lexer();
  tagger ??= new pos.Tagger();
  const tagged = tagger.tag(lexer.lex(gloss));
  let i = 0;
  if (/^(?:DT|PRP\$)$/.test(tagged[i]?.[1] ?? '')) i += 1;
  while (/^JJ/.test(tagged[i]?.[1] ?? '')) i += 1;
  const nounStart = i;
  while (/^NN/.test(tagged[i]?.[1] ?? '')) i += 1;
  if (i === nounStart) return false;
  // "the earth blocks the light": a plural "noun" before a determiner is the verb.
  if (
    i - nounStart >= 2 &&
    tagged[i - 1]![1] === 'NNS' &&
    /^(?:DT|PRP\$)$/.test(tagged[i]?.[1] ?? '')
  )
    return true;
  return /^(?:VBZ|VBP|VBD)$/.test(tagged[i]?.[1] ?? '') && !/ing$/.test(tagged[i]![0]);
}

/**
 * "make a complete alteration in my style of living": a noun that is the object of a light
 * verb (make, do, take, give) names an act, not an event or a state.
 */
function lightVerbObject(sentence: Sentence, token: Token): boolean {
  const at = sentence.tokens.indexOf(token);
  for (let k = at - 1; k >= Math.max(0, at - 4); k--) {
    const t = sentence.tokens[k]!;
    if (t.pos === 'DET' || t.pos === 'ADJ' || t.pos === 'ADV') continue;
    return t.pos === 'VERB' && /^(?:make|do|take|give|perform|carry)$/.test(t.lemma.toLowerCase());
  }
  return false;
}

/**
 * A gloss that explains the hard by the harder: a word above the class and above the term
 * itself ("gallinaceous" for "pheasant"), or three words past grade 9 ("intestinal
 * inflammation and ulceration" for "enteric fever").
 */
export function tooHard(
  gloss: string,
  passageWords: Set<string>,
  level: number,
  termGrade: number,
): boolean {
  const words = gloss
    .toLowerCase()
    .split(/[^a-z']+/)
    .filter((w) => w.length > 3 && !passageWords.has(w));
  const grades = words.map((w) => wordGrade(w));
  const hardest = Math.max(0, ...grades);
  if (hardest > level + 1.5 && hardest > termGrade && hardest > 8) return true;
  return grades.filter((g) => g >= 9).length >= 3;
}

/** Endings of the formal, Latinate vocabulary ("combatant", "immigrant", "precipitation"). */
const LATINATE = /(?:ant|ent|ion|ity|ist|ism|ive|ory|ary|ure|ance|ence|ate|ous|al)s?$/;

/**
 * Whether a sense is surely the word's usual one: its only sense, or the one WordNet's corpus
 * tags most (at least twice; WordNet's order alone says little: "schooner" lists a beer glass
 * first).
 */
export function usualSense(lemma: string, pos: WordNetPos, sense: Synset): boolean {
  if (sensesOf(lemma, pos).length <= 1) return true;
  const top = [...senseTagCounts(lemma, pos).entries()].sort((a, b) => b[1] - a[1])[0];
  return !!top && top[1] >= 2 && top[0] === sense.offset;
}

/** Two terms of one root: a shared start of seven letters, or three quarters of the shorter. */
export function sharedRoot(a: string, b: string): boolean {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  let n = 0;
  while (n < Math.min(x.length, y.length) && x[n] === y[n]) n += 1;
  return n >= 7 || (n >= 5 && n >= 0.75 * Math.min(x.length, y.length));
}

/** Whether another sense of the word is well attested and used far more than this one. */
function outweighed(lemma: string, pos: WordNetPos, sense: Synset): boolean {
  const tags = senseTagCounts(lemma, pos);
  const mine = tags.get(sense.offset) ?? 0;
  return [...tags.entries()].some(
    ([offset, n]) => offset !== sense.offset && n >= 3 && n >= 2 * mine,
  );
}

/** What the gates knew of an entry they let through, for the exercises built on it. */
interface EntryFacts {
  source: Gloss['source'];
  /** How far the chosen sense led the next one (Infinity for the passage's own definition). */
  margin: number;
  /** The passage's definition, the word's only sense, or the sense its corpus tags most. */
  usual: boolean;
  glossGrade: number;
  termGrade: number;
  level: number;
  easy: boolean;
  sense: { offset: number; pos: WordNetPos } | null;
}

const entryFacts = new WeakMap<VocabularyItem, EntryFacts>();

/**
 * An entry sure enough for a matching set, where one doubtful pair spoils the whole item: the
 * passage's own definition, or the word's usual dictionary sense (its only one, or the one its
 * corpus tags most), glossed at the class's grade, for a word that is not an everyday one.
 */
export function strongEntry(item: VocabularyItem): boolean {
  const f = entryFacts.get(item);
  if (!f) return false;
  if (f.source === 'passage') return true;
  // (A rarer sense that Lesk prefers by a wide margin may still be the field's slip: "resistant"
  // among words of infection read as "conferring immunity", not as withstanding a drug.)
  return f.usual && f.glossGrade <= f.level && !f.easy;
}

/** The WordNet sense an entry was glossed with (null for the passage's own definitions). */
export function entrySense(item: VocabularyItem): { offset: number; pos: WordNetPos } | null {
  return entryFacts.get(item)?.sense ?? null;
}

/**
 * Two entries a student could swap in a matching set: one sense is the other's broader or
 * narrower sense, or both are kinds of the same thing ("idler: person who does no work",
 * "lounger: someone who wastes time"), or their meanings read the same.
 */
export function entriesRelated(a: VocabularyItem, b: VocabularyItem): boolean {
  if (a.definition.toLowerCase() === b.definition.toLowerCase()) return true;
  const sa = entrySense(a);
  const sb = entrySense(b);
  if (!sa || !sb || sa.pos !== sb.pos) return false;
  if (sa.offset === sb.offset) return true;
  const x = synsetAt(sa.offset, sa.pos);
  const y = synsetAt(sb.offset, sb.pos);
  return !!x && !!y && kindred(x, y);
}

/**
 * Two senses a student could take for each other: one is the other's broader sense, or both
 * are kinds of the same thing ("lounger" is a kind of "idler"; "sloop" and "schooner" are
 * both sailing vessels).
 */
export function kindred(x: Synset, y: Synset): boolean {
  if (x.offset === y.offset && x.pos === y.pos) return true;
  const up = (s: Synset) =>
    new Set(s.pointers.filter((p) => p.symbol === '@' || p.symbol === '@i').map((p) => p.offset));
  const ux = up(x);
  const uy = up(y);
  return ux.has(y.offset) || uy.has(x.offset) || [...ux].some((o) => uy.has(o));
}

/**
 * The entries for a matching set: only strong ones (`strongEntry`), none that could be taken
 * for another already in the set, at most `wanted`.
 */
export function matchingEntries(items: VocabularyItem[], wanted: number): VocabularyItem[] {
  const out: VocabularyItem[] = [];
  for (const item of items) {
    if (out.length >= wanted) break;
    if (!strongEntry(item) || out.some((o) => entriesRelated(o, item))) continue;
    out.push(item);
  }
  return out;
}

/** A definition of at most two content words, each one a young reader knows ("a young child"). */
export function plainConcept(definition: string): boolean {
  const words = definition
    .toLowerCase()
    .split(/[^a-z]+/)
    .filter(
      (w) => w.length > 0 && !/^(?:an?|the|of|for|to|in|on|or|and|with|that|who|which)$/.test(w),
    );
  return words.length > 0 && words.length <= 2 && words.every((w) => wordGrade(w) <= 4);
}

/**
 * Whether WordNet links a sense of `word` by derivation to one of the three commonest senses of
 * `base` ("warmth" → warm, "traveler" → travel, "organizer" → organize, plan and direct).
 */
function derivedFrom(word: string, pos: WordNetPos, base: string, basePos: WordNetPos): boolean {
  const targets = new Set(
    sensesOf(base, basePos)
      .slice(0, 3)
      .map((x) => x.offset),
  );
  if (targets.size === 0) return false;
  const code = { noun: 'n', verb: 'v', adj: 'a', adv: 'r' }[basePos];
  const senses = sensesOf(word, pos);
  for (const sense of senses)
    for (const p of sense.pointers) {
      if (p.symbol !== '+' && p.symbol !== '=' && p.symbol !== '\\') continue;
      if (!targets.has(p.offset)) continue;
      if (p.pos === code || (code === 'a' && p.pos === 's')) return true;
    }
  // "careful: exercising caution or showing care": the usual sense says it with the base.
  const first = senses[0]?.definition.toLowerCase() ?? '';
  return new RegExp(`\\b${base}(?:s|es|ed|ing)?\\b`).test(first);
}

/**
 * Whether a passage's definition names one kind or instance of the term rather than what the
 * term means: its head noun is, in WordNet, a kind of the term ("the dog, a big gray husky":
 * a husky is a dog). A definition names a broader kind ("a husky is a sled dog"), never a narrower.
 */
export function narrowerThanTerm(definition: string, term: string): boolean {
  const t = term.toLowerCase();
  if (t.includes(' ')) return false;
  const words = definition.toLowerCase().split(/\s+/);
  const stop = words.findIndex((w) =>
    /^(?:with|that|who|which|whose|of|in|on|from|for|to|by|at|and|or|than|when|where)$/.test(w),
  );
  const head = (stop < 0 ? words : words.slice(0, stop))
    .map((w) => w.replace(/[^a-z]/g, ''))
    .filter((w) => w.length > 0)
    .at(-1);
  if (!head || head === t) return false;
  const targets = new Set(sensesOf(t, 'noun').map((x) => x.offset));
  if (targets.size === 0) return false;
  const forms = [head, head.replace(/s$/, ''), head.replace(/ies$/, 'y'), head.replace(/es$/, '')];
  const form = forms.find((f) => lookup(f, 'noun'));
  if (!form || form === t) return false;
  let frontier = sensesOf(form, 'noun');
  const seen = new Set<number>();
  for (let depth = 0; depth < 8 && frontier.length > 0; depth++) {
    const next: Synset[] = [];
    for (const sense of frontier)
      for (const p of sense.pointers) {
        if ((p.symbol !== '@' && p.symbol !== '@i') || p.pos !== 'n' || seen.has(p.offset))
          continue;
        if (targets.has(p.offset)) return true;
        seen.add(p.offset);
        const up = synsetAt(p.offset, 'noun');
        if (up) next.push(up);
      }
    frontier = next;
  }
  return false;
}

/** Whether WordNet knows a word as a part of speech with one of these categories (any sense). */
function hasSense(word: string, pos: WordNetPos, lexFiles?: ReadonlySet<number>): boolean {
  if (!lookup(word, pos)) return false;
  return !lexFiles || sensesOf(word, pos).some((s) => lexFiles.has(s.lexFile));
}

// noun.act, noun.attribute, noun.event, noun.feeling, noun.process, noun.state: what "-th" and
// "-ness" make of a describing word or a verb ("warmth", "growth", "kindness").
const QUALITY_LEXFILES: ReadonlySet<number> = new Set([4, 7, 11, 12, 22, 26]);
const PERSON_LEXFILE: ReadonlySet<number> = new Set([18]);

/** The endings of a verb's act ("amazement", "selection"): not for a subject's own terms. */
const ACT_NOUN_ENDINGS = new Set(['ment$', 'ation$', 'ition$', 'ion$']);

/**
 * The base a word is regularly built from when its ending (or "un-") adds only a meaning every
 * reader knows: the doer of a verb ("traveler", "idler"), a direction ("westward"), a quality
 * or state ("warmth", "growth", "kindness"), having or lacking ("careful", "fearless"),
 * "somewhat" ("greenish"), "not" ("unhappy"). Checked against WordNet so that a word that only
 * looks built ("mother", "corner", "booth", "witness", "vanish", "union") has no base. Null when
 * the word is not so built.
 */
export function derivationBase(word: string, actNouns = true): string | null {
  const w = word.toLowerCase();
  if (!/^[a-z]{5,}$/.test(w)) return null;
  const spellings = (s: string): string[] => {
    const out = [s];
    // "travel-ler", "run-ner": a doubled last consonant; "danc-er": a dropped "e"; "happi-ness".
    if (/([b-df-hj-np-tv-z])\1$/.test(s)) out.push(s.slice(0, -1));
    out.push(`${s}e`);
    if (s.endsWith('i')) out.push(`${s.slice(0, -1)}y`);
    return out.filter((b) => b.length >= 3);
  };
  // The meaning must be the base's own: WordNet links the word to one of the base's two
  // commonest senses ("traveler" to travel, change location; not "suitor" to suit, court a
  // woman, nor "fitful" to fit).
  const linked = (pos: WordNetPos, bases: WordNetPos[]) => (b: string) =>
    bases.some((bp) => derivedFrom(w, pos, b, bp));
  const rules: Array<[RegExp, (base: string) => boolean, boolean]> = [
    // The doer: a person, from a verb.
    [/(?:er|or)$/, linked('noun', ['verb']), hasSense(w, 'noun', PERSON_LEXFILE)],
    [/wards?$/, (b) => hasSense(b, 'noun') || hasSense(b, 'adv'), true],
    [/th$/, linked('noun', ['adj', 'verb']), hasSense(w, 'noun', QUALITY_LEXFILES)],
    [/ness$/, linked('noun', ['adj']), hasSense(w, 'noun', QUALITY_LEXFILES)],
    [/(?:less|ful)$/, linked('adj', ['noun', 'verb']), hasSense(w, 'adj')],
    [/ish$/, linked('adj', ['adj', 'noun']), hasSense(w, 'adj')],
    // Full of, or given to, what the base names ("murderous", "poisonous", "mountainous").
    [/ous$/, linked('adj', ['noun']), hasSense(w, 'adj')],
    // The act, or the feeling, of a verb ("amazement", "admiration", "confusion"): WordNet links
    // the noun to one of the verb's commonest senses.
    [/ment$/, linked('noun', ['verb']), hasSense(w, 'noun')],
    [/ation$/, linked('noun', ['verb']), hasSense(w, 'noun')],
    [/ition$/, linked('noun', ['verb']), hasSense(w, 'noun')],
    [/ion$/, linked('noun', ['verb']), hasSense(w, 'noun')],
  ];
  for (const [ending, baseOk, wordOk] of rules) {
    if (!actNouns && ACT_NOUN_ENDINGS.has(ending.source)) continue;
    const m = ending.exec(w);
    if (!m || !wordOk) continue;
    const base = spellings(w.slice(0, m.index)).find(baseOk);
    if (base) return base;
  }
  if (w.startsWith('un') && hasSense(w, 'adj') && hasSense(w.slice(2), 'adj')) return w.slice(2);
  // "invisible", "impossible", "dishonest": "not" and the adjective WordNet gives as its opposite.
  const negated = /^(?:in|im|il|ir|dis|non)/.exec(w);
  if (negated && hasSense(w, 'adj')) {
    const rest = w.slice(negated[0].length);
    if (antonymsOf(w, 'adj').some((a) => a.toLowerCase() === rest)) return rest;
  }
  return null;
}

/** The grade of a base word by its easiest inflection ("amaze" by "amazing", "admire"). */
function baseGrade(base: string): number {
  const stem = base.replace(/e$/, '');
  const forms = [base, `${base}s`, `${stem}ed`, `${stem}ing`];
  return Math.min(...forms.map((f) => wordGrade(f)));
}

/**
 * Why a word is an everyday word at this grade although it is neither on the familiar list nor
 * frequent in speech, or null. Spoken frequency misses words children learn early from one
 * they know: a regular derivation of a base the class knows well ("traveler", "westward",
 * "warmth"), and a describing word whose opposite is a familiar word (learnt as a pair:
 * "expensive" with "cheap").
 */
export function everydayReason(
  lemma: string,
  pos: WordNetPos,
  level: number,
  subjectTerm = false,
): string | null {
  const w = lemma.toLowerCase();
  if (w.includes(' ')) return null;
  const base = derivationBase(w, !subjectTerm);
  // A base the class knows well: two grades below it (three from grade 9), never above grade 4.5
  // below that ("travel" ≈ 4 at grade 5; "invent" ≈ 6.6 is not, so "inventor" still teaches).
  // Its commonest inflection counts ("amazing" for "amaze").
  if (base && baseGrade(base) <= Math.max(4.5, level - (level >= 9 ? 2.5 : 2)))
    return `built from "${base}"`;
  if (pos === 'adj' && wordGrade(w) <= 6) {
    const opposite = antonymsOf(w, 'adj').find((a) => isFamiliar(a));
    if (opposite) return `the opposite of "${opposite}"`;
  }
  return null;
}

/** A closed compound of two everyday words ("iceman", "sunlight"): it means what its parts say. */
export function transparentCompound(word: string): boolean {
  const w = word.toLowerCase();
  if (!/^[a-z]{6,}$/.test(w)) return false;
  for (let i = 3; i <= w.length - 3; i++)
    if (isFamiliar(w.slice(0, i)) && isFamiliar(w.slice(i))) return true;
  return false;
}

/**
 * Vocabulary worth teaching from this text at this grade, each with a meaning that fits the
 * passage and reads at the grade, and the sentence it comes from as the example in context.
 */
export function writeVocabulary(
  ctx: WriterContext,
  count: number,
  trace?: (lemma: string, verdict: string) => void,
): VocabularyItem[] {
  if (count <= 0) return [];
  const analysis = ctx.analysis;
  const level = ctx.plan.level;
  // A story or a poem describes more than it defines ("Essendean is a good place indeed", "the
  // moonlight, a bulk in the dark"): there only what the text names counts ("… called a hamada").
  const genre = detectGenre(analysis);
  const definitions = new Map(
    [...passageDefinitions(analysis)].filter(
      ([, d]) => d.shape === 'named' || genre === 'informational' || genre === 'argument',
    ),
  );
  const passageWords = new Set(
    analysis.sentences.flatMap((s) => s.tokens.map((t) => t.value.toLowerCase())),
  );
  const compounds = findCompounds(analysis);
  const keyTerms = new Set(
    analysis.keyphrases.flatMap((k) => [k.toLowerCase(), ...k.toLowerCase().split(/\s+/)]),
  );
  const candidates = [...compounds.values(), ...singleWords(analysis, compounds)];
  // Terms the passage defines that WordNet does not know ("emergents", "understory") are
  // candidates too: the passage's definition is their meaning.
  const known = new Set(candidates.flatMap((c) => [c.lemma, ...c.forms]));
  for (const d of definitions.values()) {
    if (known.has(d.term) || d.term.split(' ').length > 3) continue;
    const uses = analysis.sentences.filter((s) => containsPhrase(s.text, d.term));
    if (!uses.includes(d.sentence)) continue;
    candidates.push({
      lemma: d.term,
      pos: 'NOUN',
      sentences: uses,
      forms: new Set([d.term]),
      count: uses.length,
      compound: true,
      familiarity: 0,
      lexFile: -1,
      uses: [],
    });
  }
  const definitionOf = (c: Candidate): PassageDefinition | undefined => {
    for (const form of [c.lemma, ...c.forms]) {
      const d = definitions.get(form);
      if (d) return d;
    }
    return undefined;
  };
  const ranked = candidates
    .map((c) => ({ c, ...worth(c, ctx, !!definitionOf(c), keyTerms) }))
    .filter((x) => {
      if (x.score <= 0)
        trace?.(x.c.lemma, x.familiar ? 'familiar (ranked out)' : 'too common (ranked out)');
      return x.score > 0;
    })
    .sort((a, b) => b.score - a.score);
  if (trace) for (const x of ranked) trace(x.c.lemma, `rank ${x.score.toFixed(2)}`);

  const out: VocabularyItem[] = [];
  const taken = new Set<string>();
  // One meaning, one entry: "icebox" and "refrigerator" share a WordNet sense, and two equal
  // meanings make a matching set ambiguous.
  const meanings = new Set<string>();
  for (const { c, easy, familiar, subjectTerm } of ranked) {
    if (out.length >= count) break;
    if (taken.has(c.lemma) || [...taken].some((t) => t.split(' ').includes(c.lemma))) continue;
    if (!confirmPos(c)) {
      trace?.(c.lemma, `part of speech not agreed (${c.pos})`);
      continue;
    }
    const wnPos = wordNetPos(c.pos);
    // "traveler", "westward", "warmth", "expensive": everyday words spoken frequency misses.
    // (A subject's term of a text that informs is not the act of its verb: "selection" in a
    // text on evolution.)
    const everyday = definitionOf(c) ? null : everydayReason(c.lemma, wnPos, level, subjectTerm);
    if (everyday) {
      trace?.(c.lemma, `everyday word: ${everyday}`);
      continue;
    }
    const termGrade = Math.max(
      ...c.lemma
        .split(' ')
        .map((w, i, all) =>
          i === all.length - 1 && !c.compound ? wordGrade([...c.forms][0] ?? w, w) : wordGrade(w),
        ),
    );
    const options: Gloss[] = [];
    const own = definitionOf(c);
    // A familiar word the passage describes ("A coconut is a seed with a thick, hairy shell")
    // is still the word the class knows: taught only from grade 5 (the familiar list is what
    // fourth-graders know) and only as a term the passage is about.
    if (own && familiar && !(level >= 5 && (keyTerms.has(c.lemma) || c.count >= 3 || c.compound))) {
      trace?.(c.lemma, 'familiar word the passage only describes');
      continue;
    }
    if (own && narrowerThanTerm(own.definition, c.lemma)) {
      trace?.(c.lemma, `the passage describes one kind of it ("${own.definition}")`);
      continue;
    }
    if (own)
      options.push({
        definition: own.definition,
        grade: glossGrade(own.definition, passageWords, level),
        source: 'passage',
      });
    // A verb's sense fits how it is used: with an object or without one (all uses must agree).
    let transitive: boolean | null = null;
    if (c.pos === 'VERB') {
      const uses = c.uses.map((u) =>
        usedTransitively(u.sentence, u.sentence.tokens.indexOf(u.token)),
      );
      if (uses.length > 0 && uses.every((u) => u === uses[0])) transitive = uses[0]!;
    }
    const acts =
      c.pos === 'NOUN' &&
      c.uses.length > 0 &&
      c.uses.every((u) => lightVerbObject(u.sentence, u.token))
        ? ACT_LEXFILE
        : undefined;
    // "had divested him of his members": with a person as its object, a verb means what can be
    // done to a person; "their own biology" is what they have, not a science.
    const keep =
      c.pos === 'VERB' &&
      c.uses.length > 0 &&
      c.uses.every((u) => personObject(u.sentence, u.sentence.tokens.indexOf(u.token)))
        ? takesPersonObject
        : c.pos === 'NOUN' &&
            c.uses.length > 0 &&
            c.uses.every((u) => possessed(u.sentence, u.sentence.tokens.indexOf(u.token)))
          ? (sense: Synset) => !fieldOfStudy(sense)
          : undefined;
    const choice = chooseSense(c.lemma, wnPos, analysis, c.sentences, transitive, acts, keep);
    if (choice) {
      const gloss = tidyDefinition(choice.sense.definition);
      // A noun's gloss that is a sentence is no definition; one with a word far above the class
      // ("intestinal inflammation and ulceration" in grade 10) explains the hard by the harder.
      // (A word harder than the class and than the term itself; or three words past grade 9.)
      // "confer: present" reads as a gift or as now: a one-word meaning must be read as the
      // same part of speech as the word.
      const oneWord = /^[a-z]+$/.test(gloss) ? gloss : null;
      const misread =
        !!oneWord &&
        (['noun', 'verb', 'adj', 'adv'] as const).some(
          (o) =>
            o !== wnPos &&
            frequencyOf(oneWord, o) >= Math.max(5, 0.25 * frequencyOf(oneWord, wnPos)),
        );
      const unusable =
        misread ||
        (c.pos === 'NOUN' && glossIsClause(gloss)) ||
        tooHard(gloss, passageWords, level, termGrade);
      options.push({
        definition: gloss,
        grade: unusable ? Infinity : glossGrade(gloss, passageWords, level),
        source: 'wordnet',
      });
      const synonyms = synonymPhrase(choice.sense, c.lemma, wnPos);
      if (synonyms)
        options.push({
          definition: synonyms,
          grade: glossGrade(synonyms, passageWords, level),
          source: 'synonym',
        });
    }
    // Units and times ("kilometer", "century") are nothing to teach, unless the passage defines one.
    if (!own && choice && SKIP_LEXFILES.has(choice.sense.lexFile)) {
      trace?.(c.lemma, 'unit or time');
      continue;
    }
    // "high school", "school system": a compound of everyday words that is itself in everyday
    // use (WordNet's corpus uses it) is no term; "printing press", "water vapor" are. Outside a
    // text that informs about its subject, no compound of everyday words is ("horse race").
    if (
      !own &&
      c.compound &&
      (c.familiarity >= 3 || !subjectTerm) &&
      c.lemma.split(' ').every((w) => isFamiliar(w) || wordGrade(w) <= 4)
    ) {
      trace?.(c.lemma, 'everyday compound');
      continue;
    }
    // A verb glossed in a sense it shares with a commoner verb ("despatch" under "dispatch",
    // "divest" under "deprive") takes a shade of meaning the gloss does not give.
    if (!own && choice && c.pos === 'VERB' && choice.sense.words[0]?.toLowerCase() !== c.lemma) {
      trace?.(c.lemma, `verb is not the head of its sense (${choice.sense.words[0]})`);
      continue;
    }
    // A verb in a sense the corpus uses less than another ("divested him of his legs" read as
    // selling an investment) needs the passage clearly on its side.
    if (!own && choice && c.pos === 'VERB') {
      const tags = senseTagCounts(c.lemma, wnPos);
      const mine = tags.get(choice.sense.offset) ?? 0;
      if (Math.max(0, ...tags.values()) > mine && choice.margin < 3) {
        trace?.(c.lemma, 'verb in a less used sense without a clear margin');
        continue;
      }
    }
    // A rarer sense than a usual one the corpus attests well (three tags at least, twice the
    // chosen sense's) needs the passage on its side by a point ("his countenance" read as
    // approval, not as a face, by less).
    if (!own && choice && choice.margin < 1 && outweighed(c.lemma, wnPos, choice.sense)) {
      trace?.(c.lemma, `a rarer sense without a clear margin (${choice.margin.toFixed(2)})`);
      continue;
    }
    if (!own && choice) {
      const grade = termGrade;
      // Only in the word's usual sense: "type" as a metal block is not the "type" a child knows.
      const top = [...senseTagCounts(c.lemma, wnPos).entries()].sort((a, b) => b[1] - a[1])[0];
      // (A word the corpus never tagged gives no sign of a rarer sense.)
      const usual = !top || top[1] === 0 || top[0] === choice.sense.offset;
      // Names of people and made things are learnt later than animals, body parts, food and
      // shapes: "immigrant" and "merchant" still teach in grades 7–8, "toddler" not in grade 10.
      // Things a child sees and handles (animals, made things, food, the body) are known years
      // before their spoken frequency says ("thermometer", "syrup" ≈ 7 by frequency): three
      // grades of margin from grade 5 (below it, as before: artifacts one grade below); people's
      // roles (merchant, immigrant) one grade below the class. A thing past grade 8.5 is rare
      // enough to teach from grade 5 ("schooner", "parchment"); the older floors (made things one
      // grade below the class, up to 9) still hold.
      const lexFile = choice.sense.lexFile;
      const floor = Math.max(
        Math.min(9, PEOPLE.has(lexFile) || lexFile === ARTIFACTS ? level - 1 : level + 1),
        level >= 5 && !PEOPLE.has(lexFile) ? Math.min(8.5, level + 3) : 0,
        // In grade 4 too: a child handles a "thermometer" (7.5) or pours "syrup" (6.5) years
        // before the word is common in speech; grade 8 is the floor there ("wharf", 8.2, teaches).
        level >= 4 && !PEOPLE.has(lexFile) ? 8 : 0,
      );
      // (A compound is not as easy as its words: "printing press", "quill pen".)
      if (
        c.pos === 'NOUN' &&
        !c.compound &&
        usual &&
        EVERYDAY_THINGS.has(choice.sense.lexFile) &&
        grade < floor
      ) {
        trace?.(c.lemma, `everyday thing (grade ${grade.toFixed(1)})`);
        continue;
      }
      // "toddler: a young child": an everyday thing that two words a young reader knows say
      // entirely is an everyday word, however seldom it is spoken; not a word of the formal,
      // Latinate register ("combatant: someone who fights"), which is what Tier 2 teaches.
      if (
        c.pos === 'NOUN' &&
        !c.compound &&
        !LATINATE.test(c.lemma) &&
        EVERYDAY_THINGS.has(choice.sense.lexFile) &&
        plainConcept(tidyDefinition(choice.sense.definition))
      ) {
        trace?.(c.lemma, `everyday thing said in two easy words ("${choice.sense.definition}")`);
        continue;
      }
      // "teen" is "teenage" shortened: a form of a word the class knows well, in the same sense.
      const variant = choice.sense.words
        .map((w) => w.toLowerCase())
        .find(
          (w) =>
            /^[a-z]+$/.test(w) &&
            w !== c.lemma &&
            w.slice(0, 4) === c.lemma.slice(0, 4) &&
            wordGrade(w) < Math.min(termGrade, level - (level >= 9 ? 2.5 : 2)),
        );
      if (!c.compound && variant) {
        trace?.(c.lemma, `a form of the everyday word "${variant}"`);
        continue;
      }
      if (c.pos === 'ADJ' && choice.sense.lexFile === RELATIONAL_ADJECTIVES) {
        trace?.(c.lemma, 'relational adjective ("of the moon")');
        continue;
      }
    }
    if (
      !own &&
      !c.compound &&
      c.count < 3 &&
      !keyTerms.has(c.lemma) &&
      transparentCompound(c.lemma)
    ) {
      trace?.(c.lemma, 'closed compound of everyday words');
      continue;
    }
    // No passage definition and no clear sense: skip the word rather than guess.
    if (options.length === 0) {
      trace?.(c.lemma, 'no passage definition, no clear sense');
      continue;
    }
    // An everyday word is taught only in a sense of the passage's subject: its own definition,
    // a sense of science (plants, substances, phenomena…), or not the word's everyday sense.
    // ("library" as a depository is still the library the class knows; "wind" as moving air too.)
    // A sense far from the everyday one is worth teaching ("type": a small metal block, not a kind).
    if (easy && !own && !c.compound) {
      const top = [...senseTagCounts(c.lemma, wnPos).entries()].sort((a, b) => b[1] - a[1])[0];
      const usual = top ? top[0] : sensesOf(c.lemma, wnPos)[0]?.offset;
      const everyday = !choice || usual === choice.sense.offset;
      const domain = c.pos === 'NOUN' && !!choice && DOMAIN_LEXFILES.has(choice.sense.lexFile);
      const usualSense = usual === undefined ? undefined : synsetAt(usual, wnPos);
      // An everyday word in another sense needs the passage clearly on that sense's side ("type"
      // among printers wins by 7; a "dog" that Lesk reads as a person would not).
      const distinct =
        !!choice &&
        !everyday &&
        !!usualSense &&
        !sensesRelated(choice.sense, usualSense) &&
        (!familiar || choice.margin >= 3) &&
        // A thing or a process of the subject ("type" as a metal block, "bark" of a tree); an
        // everyday word read as a person, a feeling or an idea ("student": "a learned person")
        // is the sense chooser's slip, not a term.
        c.pos === 'NOUN' &&
        TERM_SENSES.has(choice.sense.lexFile);
      // A word on the familiar list ("rain", "wind", "heat") is an everyday word even in a text
      // about weather or heat: taught only in a sense apart from its everyday one.
      if (!(domain && !familiar && (!everyday || c.count >= 3)) && !distinct) {
        trace?.(c.lemma, 'everyday word in its everyday sense');
        continue;
      }
      trace?.(
        c.lemma,
        `everyday word in another sense (margin ${choice?.margin.toFixed(2)}): ${choice?.sense.definition}`,
      );
    }
    const gloss = chooseGloss(options, level, c.lemma, termGrade, passageWords);
    if (!gloss) {
      trace?.(
        c.lemma,
        `no gloss at grade: ${options.map((o) => `${o.source} ${o.grade.toFixed(1)} "${o.definition}"`).join('; ')}`,
      );
      continue;
    }
    const meaning = gloss.source === 'passage' || !choice ? '' : `${wnPos}:${choice.sense.offset}`;
    // The passage uses two words the dictionary gives one meaning ("icebox" and "refrigerator"):
    // it tells them apart, so the shared gloss would mislead.
    if (
      meaning &&
      choice!.sense.words.some(
        (w) =>
          !c.lemma.includes(w.toLowerCase()) &&
          !w.toLowerCase().includes(c.lemma) &&
          !w.includes('_') &&
          passageWords.has(w.toLowerCase()),
      )
    ) {
      trace?.(c.lemma, 'the passage uses a synonym of this sense as another word');
      continue;
    }
    // "legislature" and "legislator": two entries of one root read as one word twice.
    const sameRoot = [...taken].find((t) => sharedRoot(t, c.lemma));
    if (sameRoot) {
      trace?.(c.lemma, `same root as "${sameRoot}"`);
      continue;
    }
    const said = gloss.definition.toLowerCase();
    if ((meaning && meanings.has(meaning)) || meanings.has(said)) {
      trace?.(c.lemma, 'same meaning as a word already listed');
      continue;
    }
    // An example that reads as a sentence: not the tail of a line of dialogue ("she ventured.").
    const whole = c.sentences.filter((x) => /^[“"‘'(]?[A-Z0-9]/.test(x.text) && x.words >= 5);
    const sentence =
      (own && whole.includes(own.sentence) ? own.sentence : undefined) ??
      [...whole].sort((a, b) => contextScore(b) - contextScore(a))[0];
    if (!sentence) {
      trace?.(c.lemma, 'no whole sentence to show it in');
      continue;
    }
    const form = [...c.forms].find((f) => containsPhrase(sentence.text, f)) ?? c.lemma;
    // The passage's definition goes with its own form ("moraines: piles of rock and soil");
    // a dictionary's with the base form ("historian", "growl").
    const term =
      gloss.source === 'passage' && own
        ? own.term
        : containsPhrase(sentence.text, c.lemma) || termInContext(c.lemma, sentence.text)
          ? c.lemma
          : form;
    taken.add(c.lemma);
    if (meaning) meanings.add(meaning);
    meanings.add(said);
    const item: VocabularyItem = {
      term,
      partOfSpeech: LABELS[c.pos],
      definition: gloss.definition,
      context: sentence.text,
    };
    entryFacts.set(item, {
      source: gloss.source,
      margin: gloss.source === 'passage' ? Infinity : (choice?.margin ?? 0),
      // The word's usual sense: the one its corpus tags most, or its only sense.
      usual: gloss.source === 'passage' || (!!choice && usualSense(c.lemma, wnPos, choice.sense)),
      glossGrade: gloss.grade,
      termGrade,
      level,
      easy,
      sense:
        choice && gloss.source !== 'passage' ? { offset: choice.sense.offset, pos: wnPos } : null,
    });
    trace?.(
      c.lemma,
      `shown: ${gloss.source}, margin ${entryFacts.get(item)!.margin.toFixed(2)}, usual ${entryFacts.get(item)!.usual}, gloss grade ${gloss.grade.toFixed(1)}, term grade ${termGrade.toFixed(1)}${easy ? ', easy' : ''}${strongEntry(item) ? ', STRONG' : ''}`,
    );
    out.push(item);
  }
  return out;
}

/** A sentence that shows a word well: full, not too long, not dialogue. */
function contextScore(s: Sentence): number {
  let score = 1;
  if (s.words < 6 || s.words > 40) score *= 0.4;
  if (s.hasQuotes) score *= 0.6;
  if (!/[.!?]["”’']?$/.test(s.text)) score *= 0.5;
  return score + s.importance;
}

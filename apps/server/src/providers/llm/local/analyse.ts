import nlpCompromise from 'compromise';
import { retext } from 'retext';
import retextKeywords from 'retext-keywords';
import retextPos from 'retext-pos';
import { toString as nlcstToString } from 'nlcst-to-string';
import winkNLP, { type ItemSentence, type ItsFunction, type WinkMethods } from 'wink-nlp';
import model from 'wink-eng-lite-web-model';
import { countWords, prepareText, type PreparedText } from './text.js';
import { fleschKincaidGrade, syllables } from './readability.js';
import { frequencyOf, lexFileOf, lookup } from './wordnet.js';

/**
 * One pass of real NLP over the reference text: wink-nlp for sentences, parts of speech,
 * lemmas, entities and sentence importance; compromise to tell people from places; and
 * retext-keywords for the key phrases of the passage. Everything the question writers need
 * is computed here once.
 */

export interface Token {
  value: string;
  normal: string;
  lemma: string;
  pos: string;
  /** Offsets in the sentence text. */
  start: number;
  end: number;
  stop: boolean;
}

export interface Sentence {
  index: number;
  /** Verbatim sentence (whitespace evened out). */
  text: string;
  tokens: Token[];
  words: number;
  /** Flesch–Kincaid grade of this sentence alone. */
  grade: number;
  /** wink's sentence-wise importance, 0–1. */
  importance: number;
  /** Position in the text, 0–1. */
  position: number;
  paragraph: number;
  /** Set in plays: who says it, and the label-and-speech quote it can be cited with. */
  speaker?: string;
  speechQuote?: string;
  /** The sentence opens its speech (so "LABEL. sentence" is one verbatim run). */
  opensSpeech: boolean;
  hasQuotes: boolean;
  negative: boolean;
  sentiment: number;
}

export type NameKind = 'person' | 'place' | 'other';

export interface NameInfo {
  name: string;
  kind: NameKind;
  count: number;
  tokens: string[];
}

export interface WordInfo {
  lemma: string;
  pos: 'NOUN' | 'VERB' | 'ADJ' | 'ADV';
  count: number;
  forms: Map<string, number>;
  /** How often WordNet's tagged corpus uses the word (familiarity); -1 when WordNet does not know it. */
  familiarity: number;
  lexFile: number;
  sentences: number[];
}

export interface NameSpan {
  name: string;
  start: number;
  end: number;
}

export interface Analysis {
  prepared: PreparedText;
  sentences: Sentence[];
  names: Map<string, NameInfo>;
  /** Where each name occurs, by sentence index (offsets in the sentence text). */
  nameSpans: Map<number, NameSpan[]>;
  /** Names of each kind, most mentioned first. */
  namesByKind: Map<NameKind, string[]>;
  /** Other names of the same person or place ("Henry" and "Clerval" of "Henry Clerval"). */
  aliases: Map<string, Set<string>>;
  words: Map<string, WordInfo>;
  /** Numbers written in the text, by form ("two", "1776"). */
  numbers: Map<string, number>;
  keyphrases: string[];
  wordCount: number;
  readingGrade: number;
}

let wink: WinkMethods | undefined;
function getWink(): WinkMethods {
  wink ??= winkNLP(model);
  return wink;
}

const TITLES = new Set(
  'mr mr. mrs mrs. miss ms ms. dr dr. captain capt. lady sir lord uncle aunt professor king queen prince princess master madame madam monsieur mademoiselle father mother brother sister saint st. st general colonel major lieutenant sergeant doctor judge squire count countess duke duchess baron mistress'.split(
    ' ',
  ),
);
const SAINT = new Set(['saint', 'st.', 'st']);
/** Verbs that tag a line of dialogue ("…," she said). */
export const SPEECH_VERBS = new Set(
  'said says asked replied cried answered exclaimed whispered shouted muttered called added continued remarked returned thought'.split(
    ' ',
  ),
);
const PLACE_PREPOSITIONS = new Set(
  'in at from to towards toward near into through across over'.split(' '),
);

/**
 * Verse: at least eight raw lines, most of them short and not ending a sentence (as genre.ts
 * reads a poem); lines of up to 80 characters when nearly all open with a capital, as verse
 * lines do and the hard-wrapped lines of prose do not.
 */
export function isVerseText(text: string): boolean {
  const lines = text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean);
  if (lines.length < 8) return false;
  const open = (max: number) =>
    lines.filter((l) => l.length < max && !/[.!?]["”’']?$/.test(l)).length / lines.length;
  const capitals = lines.filter((l) => /^["“‘']?\p{Lu}/u.test(l)).length / lines.length;
  return open(60) > 0.5 || (open(80) > 0.5 && capitals >= 0.8);
}

/**
 * Words a verse text capitalises inside a line, not only at a line's start: its names
 * ("Frederick", "Ellen"), kept capitalised when the lines are joined.
 */
export function midLineCapitals(text: string): Set<string> {
  const out = new Set<string>();
  for (const line of text.split(/\r?\n/))
    for (const m of line.trim().matchAll(/(?<=\S\s+)(\p{Lu}[\p{L}'’-]*)/gu))
      if (!/[.!?:;]["”’']?\s+$/.test(line.trim().slice(0, m.index))) out.add(m[1]!);
  return out;
}

/**
 * A sentence of verse read across its line breaks: a line's opening capital lower-cased
 * ("…with me, And what can be…" → "…with me, and what can be…"; "stand Green-walled" →
 * "stand green-walled"), unless it is "I" or one of its contractions, a word the text also
 * capitalises inside a line (a name), or one of two capitalised words ("Stonewall
 * Jackson"); a closing semicolon or colon made a full stop. Evidence matching ignores case
 * and the end mark, so the sentence is still found in the text.
 */
export function joinVerseLines(text: string, names: Set<string> = new Set()): string {
  return text
    .replace(
      /(?<=[\p{L}\d,;:—'’"”-] )(\p{Lu})([\p{L}'’-]*)(?=(\s+\p{Lu})?)/gu,
      (all, cap: string, rest: string, nextCapital: string | undefined, at: number) => {
        const word = cap + rest;
        // The second word of a name ("Captain Reed").
        if (/(?:^|\s)\p{Lu}[\p{L}'’-]*\s$/u.test(text.slice(Math.max(0, at - 30), at))) return all;
        if (/^I(?:['’].*)?$/.test(word) || names.has(word) || names.has(word.replace(/['’]s$/, '')))
          return all;
        if (nextCapital || (rest && rest === rest.toUpperCase())) return all;
        return `${cap.toLowerCase()}${rest}`;
      },
    )
    .replace(/[;:]$/, '.');
}

export function analyse(referenceText: string): Analysis {
  const prepared = prepareText(referenceText);
  const verse = !prepared.isPlay && isVerseText(referenceText);
  const verseNames = verse ? midLineCapitals(referenceText) : new Set<string>();
  const nlp = getWink();
  const its = nlp.its;
  const doc = nlp.readDoc(prepared.body);

  const values = doc.tokens().out(its.value) as string[];
  const spaces = doc
    .tokens()
    .out(its.precedingSpaces as unknown as ItsFunction<string>) as string[];
  const normals = doc.tokens().out(its.normal) as string[];
  const lemmas = doc.tokens().out(its.lemma as unknown as ItsFunction<string>) as string[];
  const poses = doc.tokens().out(its.pos) as string[];
  const stops = doc.tokens().out(its.stopWordFlag) as unknown as boolean[];
  const starts: number[] = new Array(values.length);
  let at = 0;
  for (let i = 0; i < values.length; i++) {
    at += spaces[i]!.length;
    starts[i] = at;
    at += values[i]!.length;
  }

  const importance = new Map<number, number>();
  for (const item of doc.out(its.sentenceWiseImportance) as unknown as Array<{
    index: number;
    importance: number;
  }>) {
    importance.set(item.index, item.importance);
  }
  const spans: Array<[number, number]> = [];
  const sentiments: number[] = [];
  doc.sentences().each((s: ItemSentence) => {
    spans.push(s.out(its.span) as unknown as [number, number]);
    sentiments.push(Number(s.out(its.sentiment)) || 0);
  });

  // Map body offsets to paragraphs.
  const paraStarts = prepared.spans;
  const paragraphAt = (offset: number) => {
    let lo = 0;
    let hi = paraStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (paraStarts[mid]!.start <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  };

  const sentences: Sentence[] = [];
  const bodyLength = Math.max(1, prepared.body.length);
  spans.forEach(([first, last], sIndex) => {
    // A sentence never crosses a paragraph break (a heading without a full stop would otherwise join the next line).
    const pieces: Array<[number, number]> = [];
    let pieceStart = first;
    for (let t = first; t <= last; t++) {
      if (t > pieceStart && spaces[t]!.includes('\n')) {
        pieces.push([pieceStart, t - 1]);
        pieceStart = t;
      }
      // Verse: a semicolon or colon closes a clause that reads as a sentence of its own (a
      // stanza is often one "sentence" of 35 words, too long for any question).
      if (verse && t < last && /^[;:]$/.test(values[t]!) && t - pieceStart >= 4 && last - t >= 5) {
        pieces.push([pieceStart, t]);
        pieceStart = t + 1;
      }
    }
    pieces.push([pieceStart, last]);
    for (const [a, b] of pieces) {
      // Leading/trailing whitespace tokens are not part of the sentence.
      let s = a;
      let e = b;
      while (s <= e && poses[s] === 'SPACE') s++;
      while (e >= s && poses[e] === 'SPACE') e--;
      if (s > e) continue;
      let startOffset = starts[s]!;
      const endOffset = starts[e]! + values[e]!.length;
      // wink leaves an opening quotation mark with the previous sentence: take it back.
      const head = prepared.body.slice(startOffset, endOffset);
      const straight = (head.match(/"/g) ?? []).length % 2 === 1;
      const curly = (head.match(/“/g) ?? []).length < (head.match(/”/g) ?? []).length;
      if (straight || curly) {
        const before = prepared.body.slice(Math.max(0, startOffset - 2), startOffset);
        const mark = straight ? '"' : '“';
        const at = before.lastIndexOf(mark);
        if (at !== -1 && before.slice(at + 1).trim() === '') startOffset -= before.length - at;
      }
      const raw = prepared.body.slice(startOffset, endOffset);
      let text = raw.replace(/\s+/g, ' ').trim();
      if (verse) text = joinVerseLines(text, verseNames);
      const tokens: Token[] = [];
      // Offsets inside the whitespace-evened text.
      let cursor = 0;
      for (let t = s; t <= e; t++) {
        if (poses[t] === 'SPACE') continue;
        let value = values[t]!;
        let found = text.indexOf(value, cursor);
        // Verse read across its lines: a line's capital lower-cased, its closing ";" a full stop.
        if (found === -1 && verse) {
          found = text.toLowerCase().indexOf(value.toLowerCase(), cursor);
          if (found !== -1) value = text.slice(found, found + value.length);
          else if (t === e && /^[;:]$/.test(value) && text.endsWith('.')) {
            found = text.length - 1;
            value = '.';
          }
        }
        const start = found === -1 ? cursor : found;
        cursor = start + value.length;
        tokens.push({
          value,
          normal: normals[t] ?? value.toLowerCase(),
          // The tagger gives no lemma for a few odd tokens ("ha-ha-ha"): the word itself.
          lemma: lemmas[t] ?? normals[t] ?? value.toLowerCase(),
          pos: poses[t]!,
          start,
          end: start + value.length,
          stop: !!stops[t],
        });
      }
      const wordTokens = tokens.filter((t) => /[\p{L}\p{N}]/u.test(t.value));
      const syllableCount = wordTokens.reduce((sum, t) => sum + syllables(t.value), 0);
      const paragraphIndex = paragraphAt(startOffset);
      const spanInfo = paraStarts[paragraphIndex]!;
      const paragraph = prepared.paragraphs[spanInfo.paragraph]!;
      const opensSpeech = paragraph.kind === 'speech' && startOffset === spanInfo.start;
      const sentence: Sentence = {
        index: sentences.length,
        text,
        tokens,
        words: wordTokens.length,
        grade: fleschKincaidGrade(wordTokens.length, 1, syllableCount),
        importance: importance.get(sIndex) ?? 0,
        position: startOffset / bodyLength,
        paragraph: spanInfo.paragraph,
        opensSpeech,
        hasQuotes: /["“”]|(?:^|\s)['‘]|['’](?:\s|$)/.test(text),
        negative: tokens.some((t) =>
          /^(?:not|n't|never|no|nothing|nobody|none|neither|nor)$/i.test(t.value),
        ),
        sentiment: sentiments[sIndex] ?? 0,
      };
      if (paragraph.kind === 'speech' && paragraph.speaker) {
        sentence.speaker = paragraph.speaker;
        if (opensSpeech) {
          const full = paragraph.full.replace(/\s+/g, ' ');
          const end = full.indexOf(text);
          if (end !== -1) sentence.speechQuote = full.slice(0, end + text.length);
        }
      }
      sentences.push(sentence);
    }
  });

  const { names, nameSpans } = collectNames(sentences, prepared.speakers);
  const namesByKind = new Map<NameKind, string[]>();
  for (const info of [...names.values()].sort((a, b) => b.count - a.count)) {
    const list = namesByKind.get(info.kind) ?? [];
    list.push(info.name);
    namesByKind.set(info.kind, list);
  }
  const aliases = aliasesOf(names);
  const { words, numbers } = collectWords(sentences, names);
  const keyphrases = extractKeyphrases(sentences);
  const wordCount = countWords(prepared.body);
  const allWords = sentences.reduce((sum, s) => sum + s.words, 0);
  const allSyllables = sentences.reduce(
    (sum, s) =>
      sum +
      s.tokens.reduce((n, t) => n + (/[\p{L}\p{N}]/u.test(t.value) ? syllables(t.value) : 0), 0),
    0,
  );
  return {
    prepared,
    sentences,
    names,
    nameSpans,
    namesByKind,
    aliases,
    words,
    numbers,
    keyphrases,
    wordCount,
    readingGrade: fleschKincaidGrade(allWords, Math.max(1, sentences.length), allSyllables),
  };
}

function isCapitalised(value: string): boolean {
  return /^\p{Lu}/u.test(value) && !(value.length > 1 && value === value.toUpperCase());
}

/**
 * Old function words and verb forms that taggers read as proper nouns when capitalised (at
 * the start of a line of verse, say): never names, so never a "person" distractor.
 */
const ARCHAIC_WORDS = new Set(
  (
    'doth dost hath hast art shalt wilt canst couldst wouldst shouldst mayst didst hadst ' +
    'saith thou thee thy thine ye yea nay ay aye alas o lo ere oft tis twas whence thence ' +
    'hither thither whither wherefore methinks prithee unto anon forsooth'
  ).split(' '),
);

/** Runs of proper nouns ("Mr. Utterson", "Lake of Como"), classified as people or places. */
function collectNames(
  sentences: Sentence[],
  speakers: string[],
): { names: Map<string, NameInfo>; nameSpans: Map<number, NameSpan[]> } {
  const spans: Array<{ sentence: number } & NameSpan> = [];
  const votes = new Map<
    string,
    { person: number; place: number; count: number; midSentence: number; tokens: string[] }
  >();
  for (const sentence of sentences) {
    const t = sentence.tokens;
    for (let i = 0; i < t.length; i++) {
      const token = t[i]!;
      const title = TITLES.has(token.normal) && isCapitalised(token.value);
      if (!(token.pos === 'PROPN' && isCapitalised(token.value)) && !title) continue;
      let j = i;
      const run: string[] = [];
      while (j < t.length) {
        const cur = t[j]!;
        if ((cur.pos === 'PROPN' || TITLES.has(cur.normal)) && isCapitalised(cur.value)) {
          run.push(cur.value);
          j++;
        } else if (
          (cur.normal === 'of' || cur.normal === 'de') &&
          t[j + 1]?.pos === 'PROPN' &&
          isCapitalised(t[j + 1]!.value) &&
          run.length > 0
        ) {
          run.push(cur.value);
          j++;
        } else break;
      }
      const proper = run.filter((w) => !TITLES.has(w.toLowerCase()));
      if (
        proper.length === 0 ||
        run.join(' ').length < 3 ||
        (run.length === 1 && ARCHAIC_WORDS.has(run[0]!.toLowerCase().replace(/[’']/g, '')))
      ) {
        i = Math.max(i, j - 1);
        continue;
      }
      const name = run.join(' ').replace(/[’']s$/, '');
      spans.push({ sentence: sentence.index, name, start: t[i]!.start, end: t[j - 1]!.end });
      const entry = votes.get(name) ?? {
        person: 0,
        place: 0,
        count: 0,
        midSentence: 0,
        tokens: run,
      };
      entry.count += 1;
      if (i > 0) entry.midSentence += 1;
      // "St." opens places as often as saints ("St. Petersburgh", "St. Paul's"): no vote.
      if (run.some((w) => TITLES.has(w.toLowerCase()) && !SAINT.has(w.toLowerCase())))
        entry.person += 2;
      const before = t[i - 1];
      const after = t[j];
      if (after && SPEECH_VERBS.has(after.normal)) entry.person += 2;
      if (before && SPEECH_VERBS.has(before.normal)) entry.person += 2;
      if (after && (after.pos === 'VERB' || after.pos === 'AUX')) entry.person += 1;
      if (after && /^[’']s$/.test(after.value)) entry.person += 0.5;
      if (before && PLACE_PREPOSITIONS.has(before.normal)) entry.place += 1;
      votes.set(name, entry);
      i = j - 1;
    }
  }

  const candidates = [...votes.entries()].filter(([, v]) => v.midSentence > 0 || v.count >= 2);
  // compromise knows many first names and places: ask it, all at once, about the names the
  // context left undecided.
  const undecided = candidates
    .filter(([, v]) => v.person === v.place || v.person + v.place < 1.5)
    .map(([name]) => name);
  const people = new Set<string>();
  const places = new Set<string>();
  if (undecided.length) {
    const c = nlpCompromise(
      undecided
        .slice(0, 80)
        .map((n) => `${n}.`)
        .join(' '),
    );
    for (const p of c.people().out('array') as string[]) people.add(p.replace(/[.,]$/, '').trim());
    for (const p of c.places().out('array') as string[]) places.add(p.replace(/[.,]$/, '').trim());
  }
  const speakerSet = new Set(speakers);
  const out = new Map<string, NameInfo>();
  for (const [name, v] of candidates) {
    let kind: NameKind = 'other';
    // "in St. Petersburgh": a saint's name after a place preposition is a place.
    if (/^(st\.?|saint) /i.test(name) && v.place > 0 && !speakerSet.has(name)) kind = 'place';
    else if (speakerSet.has(name) || people.has(name) || v.person >= Math.max(1, v.place))
      kind = 'person';
    else if (places.has(name) || v.place > v.person) kind = 'place';
    out.set(name, { name, kind, count: v.count, tokens: v.tokens });
  }
  for (const speaker of speakers) {
    if (!out.has(speaker))
      out.set(speaker, { name: speaker, kind: 'person', count: 1, tokens: speaker.split(' ') });
  }
  const nameSpans = new Map<number, NameSpan[]>();
  for (const span of spans) {
    if (!out.has(span.name)) continue;
    const list = nameSpans.get(span.sentence) ?? [];
    list.push({ name: span.name, start: span.start, end: span.end });
    nameSpans.set(span.sentence, list);
  }
  return { names: out, nameSpans };
}

/** Names that are parts of one longer name are the same person or place. */
function aliasesOf(names: Map<string, NameInfo>): Map<string, Set<string>> {
  const proper = (n: NameInfo) =>
    n.tokens.filter((t) => !TITLES.has(t.toLowerCase()) && !/^(?:of|de)$/i.test(t));
  const out = new Map<string, Set<string>>();
  const byToken = new Map<string, NameInfo[]>();
  for (const n of names.values())
    for (const t of proper(n)) byToken.set(t, [...(byToken.get(t) ?? []), n]);
  for (const full of names.values()) {
    const group = new Set(proper(full));
    if (group.size < 2) continue;
    // Every name made only of this full name's words is the same person or place.
    const members = new Set<NameInfo>();
    for (const t of group)
      for (const n of byToken.get(t) ?? [])
        if (proper(n).every((x) => group.has(x))) members.add(n);
    for (const a of members) {
      for (const b of members) {
        if (a === b) continue;
        const set = out.get(a.name) ?? new Set<string>();
        set.add(b.name);
        out.set(a.name, set);
      }
    }
  }
  return out;
}

const WORD_POS = new Set(['NOUN', 'VERB', 'ADJ', 'ADV']);
const NUMBER_WORDS = new Set(
  'two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty thirty forty fifty sixty seventy eighty ninety hundred thousand million'.split(
    ' ',
  ),
);

function collectWords(sentences: Sentence[], names: Map<string, NameInfo>) {
  const words = new Map<string, WordInfo>();
  const numbers = new Map<string, number>();
  const nameWords = new Set(
    [...names.values()].flatMap((n) => n.tokens.map((t) => t.toLowerCase())),
  );
  for (const sentence of sentences) {
    for (const token of sentence.tokens) {
      if (token.pos === 'NUM') {
        const v = token.value.toLowerCase();
        if (/^\d{1,4}$/.test(v) || NUMBER_WORDS.has(v)) numbers.set(v, (numbers.get(v) ?? 0) + 1);
        continue;
      }
      if (!WORD_POS.has(token.pos)) continue;
      const lemma = token.lemma.toLowerCase();
      if (!/^[a-z][a-z-]*[a-z]$/.test(lemma) || lemma.length < 3 || nameWords.has(lemma)) continue;
      if (token.stop) continue;
      const key = `${token.pos}:${lemma}`;
      let info = words.get(key);
      if (!info) {
        info = {
          lemma,
          pos: token.pos as WordInfo['pos'],
          count: 0,
          forms: new Map(),
          familiarity: -2,
          lexFile: -2,
          sentences: [],
        };
        words.set(key, info);
      }
      info.count += 1;
      const form = token.value.toLowerCase();
      info.forms.set(form, (info.forms.get(form) ?? 0) + 1);
      if (info.sentences.at(-1) !== sentence.index) info.sentences.push(sentence.index);
    }
  }
  return { words, numbers };
}

/** WordNet facts of a word, looked up only when a question writer needs them. */
export function describeWord(info: WordInfo): WordInfo {
  if (info.familiarity === -2) {
    const pos = wordNetPos(info.pos);
    const entry = lookup(info.lemma, pos);
    info.familiarity = entry ? Math.max(0, frequencyOf(info.lemma, pos)) : -1;
    info.lexFile =
      entry && (info.pos === 'NOUN' || info.pos === 'VERB') ? lexFileOf(info.lemma, pos) : -1;
  }
  return info;
}

export function wordNetPos(pos: WordInfo['pos']): 'noun' | 'verb' | 'adj' | 'adv' {
  return pos === 'NOUN' ? 'noun' : pos === 'VERB' ? 'verb' : pos === 'ADJ' ? 'adj' : 'adv';
}

/**
 * Key phrases of the passage by retext-keywords, read from its most important sentences
 * (about 1,500 words: enough for the themes, and fast on a long chapter).
 */
function extractKeyphrases(sentences: Sentence[]): string[] {
  const ranked = [...sentences]
    .filter((s) => s.words >= 5)
    .sort((a, b) => b.importance - a.importance);
  const picked: Sentence[] = [];
  let words = 0;
  for (const s of ranked) {
    if (words > 1500) break;
    picked.push(s);
    words += s.words;
  }
  picked.sort((a, b) => a.index - b.index);
  const sample = picked.map((s) => s.text).join(' ');
  if (!sample) return [];
  try {
    const file = retext().use(retextPos).use(retextKeywords, { maximum: 12 }).processSync(sample);
    const data = file.data as {
      keyphrases?: Array<{ matches: Array<{ nodes: unknown[] }>; score: number }>;
    };
    const phrases = (data.keyphrases ?? [])
      .map((p) =>
        (p.matches[0]?.nodes ?? [])
          .map((n) => nlcstToString(n as Parameters<typeof nlcstToString>[0]))
          .join('')
          .trim(),
      )
      .filter((p) => p.length >= 3 && /[a-z]/i.test(p));
    const seen = new Set<string>();
    return phrases.filter((p) => {
      const k = p.toLowerCase();
      if (seen.has(k)) return false;
      seen.add(k);
      return true;
    });
  } catch {
    return [];
  }
}

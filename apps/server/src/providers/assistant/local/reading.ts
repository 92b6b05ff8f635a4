import compromise from 'compromise';
import type { Sentence, Source } from './source.js';

const STOPWORDS = new Set(
  'a an the and or but of to in on at for with from by as is are was were be been being it its this that these those he she they them his her their him i me my we us our you your not no so do does did has have had will would can could shall should may might must than then there here what which who whom how why when where all any some one into upon out up down over about after before again very such only own same too just now if while said'.split(
    ' ',
  ),
);

function contentWords(sentence: string): string[] {
  return sentence
    .toLowerCase()
    .replace(/[^a-z' -]+/g, ' ')
    .split(/[\s-]+/)
    .map((w) => w.replace(/^'+|'+$|'s$/g, ''))
    .filter((w) => w.length > 2 && !STOPWORDS.has(w));
}

/**
 * The text's own sentences that cover it from beginning to end: the text is cut into equal
 * stretches and the sentence of each whose words are most frequent in the whole text is kept
 * (an extractive summary: nothing is paraphrased, so every line can be checked).
 */
export function summarySentences(source: Source, count: number): Sentence[] {
  const sentences = source.sentences().filter((s) => s.words >= 8 && s.words <= 45);
  if (sentences.length <= count) return sentences;
  const frequency = new Map<string, number>();
  for (const s of sentences)
    for (const w of new Set(contentWords(s.text))) frequency.set(w, (frequency.get(w) ?? 0) + 1);
  const score = (s: Sentence) => {
    const words = contentWords(s.text);
    if (words.length === 0) return 0;
    const total = words.reduce((sum, w) => sum + Math.log(1 + (frequency.get(w) ?? 0)), 0);
    // Dialogue fragments and questions summarise less well than narration.
    const dialogue = /[“”"]/.test(s.text) ? 0.7 : 1;
    return (total / Math.sqrt(words.length)) * dialogue;
  };
  const picked: Sentence[] = [];
  const size = sentences.length / count;
  for (let i = 0; i < count; i++) {
    const stretch = sentences.slice(Math.floor(i * size), Math.floor((i + 1) * size));
    const best = stretch.reduce<Sentence | undefined>(
      (a, b) => (!a || score(b) > score(a) ? b : a),
      undefined,
    );
    if (best) picked.push(best);
  }
  return picked;
}

const HONORIFIC =
  /^(?:Mr|Mrs|Ms|Miss|Dr|Captain|Capt|Uncle|Aunt|Lady|Lord|Sir|Madame|Madam|Monsieur|Mademoiselle|Master|Mistress|Professor|King|Queen|Prince|Princess|Father|Mother|Sister|Brother|Colonel|General|Major|Doctor|Count|Countess|Baron|Duke)\.?$/;
const NOT_NAMES = new Set(
  'I The A An And But Or If Then When While Where What Who Why How This That These Those There Here He She It They We You His Her Its Their Our Your My Me Him Them Us O Oh Ah Yes No Not Nor So Yet For Of In On At To By With From As All Some Any Every Each One Two Three Chapter Letter Book Part Volume God Heaven Lord Sir Madam Mrs Mr Miss Dr St Mt Monday Tuesday Wednesday Thursday Friday Saturday Sunday January February March April May June July August September October November December English French German Christian Indian Well Now Even Still Perhaps Indeed Alas Hence Thus After Before Upon Again Once Nay Aye Let Do Did Does Is Was Were Are Be Have Had Has Shall Should Will Would Can Could May Might Must'.split(
    ' ',
  ),
);

export interface Character {
  name: string;
  mentions: number;
  first: Sentence;
}

/**
 * The people of a text: capitalised names found in the middle of sentences (so ordinary words
 * that open a sentence are not taken for names), counted, and kept when compromise reads them
 * as people, a title precedes them (Mr., Captain) or they speak ("said Walton").
 */
export function findCharacters(source: Source, limit: number): Character[] {
  const sentences = source.sentences();
  const counts = new Map<
    string,
    { mentions: number; first: Sentence; titled: boolean; speaks: boolean }
  >();
  const midSentence = new Set<string>();
  const nameRe =
    /\b((?:(?:Mr|Mrs|Ms|Dr|St)\.?|[A-Z][a-z]+)(?:\s+[A-Z][a-z]+){0,2})(?=[^A-Za-z]|$)/g;
  for (const sentence of sentences) {
    for (const match of sentence.text.matchAll(nameRe)) {
      let name = match[1]!;
      const at = match.index ?? 0;
      const before = sentence.text.slice(0, at).trim();
      const opens = before === '' || /[“"‘'(—-]$/.test(before);
      const parts = name.split(/\s+/);
      let titled = false;
      while (parts.length > 1 && HONORIFIC.test(parts[0]!)) {
        titled = true;
        parts.shift();
      }
      if (parts.length === 1 && HONORIFIC.test(parts[0]!)) continue;
      while (parts.length && NOT_NAMES.has(parts[0]!)) parts.shift();
      if (parts.length === 0 || parts.some((p) => NOT_NAMES.has(p))) continue;
      name = parts.join(' ');
      if (name.length < 3) continue;
      if (!opens) midSentence.add(name);
      const after = sentence.text.slice(at + match[0].length, at + match[0].length + 20);
      const speaks =
        /^,?\s*(?:said|cried|replied|asked|answered|exclaimed|whispered|shouted)\b/.test(after) ||
        /\b(?:said|cried|replied|asked|answered|exclaimed)\s*$/.test(before);
      const entry = counts.get(name);
      if (entry) {
        entry.mentions += 1;
        entry.titled ||= titled;
        entry.speaks ||= speaks;
      } else counts.set(name, { mentions: 1, first: sentence, titled, speaks });
    }
  }
  const candidates = [...counts.entries()]
    .filter(([name]) => midSentence.has(name))
    .sort((a, b) => b[1].mentions - a[1].mentions)
    .slice(0, 30);
  if (candidates.length === 0) return [];

  // compromise tells people from places; it is slow on whole chapters, so it reads only the
  // sentences where the candidates first appear.
  const sample = [...new Set(candidates.map(([, c]) => c.first.text))].join(' ');
  const doc = compromise(sample);
  const people = new Set(
    (doc.people().out('array') as string[]).flatMap((p) =>
      p
        .replace(/[^A-Za-z\s]/g, ' ')
        .split(/\s+/)
        .filter(Boolean),
    ),
  );
  const places = new Set(
    (doc.places().out('array') as string[]).flatMap((p) =>
      p
        .replace(/[^A-Za-z\s]/g, ' ')
        .split(/\s+/)
        .filter(Boolean),
    ),
  );
  const kept = candidates.filter(([name, c]) => {
    const parts = name.split(' ');
    if (parts.every((p) => places.has(p)) && !c.titled && !c.speaks) return false;
    return c.titled || c.speaks || parts.some((p) => people.has(p));
  });
  // "Victor" and "Victor Frankenstein" are one person: fold a single name into a longer one.
  const merged: Character[] = [];
  for (const [name, c] of kept) {
    const longer = merged.find((m) => m.name.split(' ').includes(name) && m.name !== name);
    if (longer) {
      longer.mentions += c.mentions;
      if (c.first.order < longer.first.order) longer.first = c.first;
      continue;
    }
    merged.push({ name, mentions: c.mentions, first: c.first });
  }
  return merged.sort((a, b) => b.mentions - a.mentions).slice(0, limit);
}

/** Words per sentence a grade reads comfortably (a rule of thumb used by readability guides). */
export function targetSentenceWords(gradeNumber: number): number {
  return Math.max(8, Math.min(25, 8 + gradeNumber * 1.3));
}

/**
 * Splits sentences longer than the target at their natural joints (semicolons, colons, and
 * ", and", ", but", ", which" clauses), keeping the author's words in order.
 */
export function splitLongSentence(sentence: string, target: number): string[] {
  if (sentence.split(' ').length <= target) return [sentence];
  const pieces = sentence
    .split(
      /\s*[;:]\s+|,\s+(?=(?:and|but|for|so|yet|which|who|when|while|because|although|though)\s)/,
    )
    .map((p) => p.trim())
    .filter(Boolean);
  if (pieces.length <= 1) return [sentence];
  return pieces.map((piece, i) => {
    let p = piece.replace(/^(?:and|but|for|so|yet)\s+/i, '');
    if (/^which\s/i.test(p)) p = p.replace(/^which\s/i, 'This ');
    p = p.charAt(0).toUpperCase() + p.slice(1);
    if (!/[.!?”"’]$/.test(p)) p += i === pieces.length - 1 && /[.!?]$/.test(sentence) ? '' : '.';
    return p;
  });
}

import type { Analysis } from './analyse.js';
import { peopleOf, storyCast, usedAsPlace, wordNetKind } from './characters.js';
import type { WriterContext } from './common.js';
import type { FormCandidate } from './forms.js';
import { detectGenre, tellsAStory } from './genre.js';
import { lexFileOf, sensesOf, synsetAt } from './wordnet.js';

/** WordNet's lexicographer file of body parts. */
const BODY = 8;

/**
 * Checks every who/what/where question must pass, whichever builder made it (issue 22: the
 * rules fitted the dev stories and broke on new text). A question is a teacher's question when
 * it reads as one on its own (no pronoun whose referent stands in another sentence, no
 * contraction of a character's speech), when its options are of the asked kind (no place
 * among the people, no person among the places, no name twice), and, in a story, when it asks
 * about something that matters there: what the question turns on is mentioned again elsewhere
 * in the story, not a detail of one sentence ("Who drew a long breath?").
 */

/** A contraction or a dialect form outside quoted words: a character's speech, not narration. */
const SPOKEN = /\b\w+['’](?:t|ll|re|ve|d|m)\b|(?:^|\s)\w+['’]\w+\b(?!['’])|\bD['’]/i;
/** Objects that point to someone or something named in another sentence. */
const OBJECT_PRONOUN = /\b(?:him|them|it|us|me|himself|herself|themselves|itself)\b/i;
/** "her" as an object (before a preposition, an article or the end), not as a possessive. */
const HER_OBJECT =
  /\bher(?=\s*(?:[?,.;:!]|$|\s(?:a|an|the|at|in|on|to|into|from|with|for|by|of|as|and|that|when|while|before|after|up|down|out|off|away|back)\b))/i;
/** A question about what someone did not do asks about nothing that happened. */
const NEGATIVE = /\b(?:no|not|nothing|never|neither|nor|none|nobody|n['’]t)\b/i;
const TITLE = /\b(?:Mr|Mrs|Miss|Ms|Dr|Sir|Lady|Lord|Captain|Uncle|Aunt)\.?\s+$/;

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function allText(analysis: Analysis): string {
  return analysis.sentences.map((s) => s.text).join(' ');
}

/** True when the text names a person so: a character, a verified person, or "Mr. Bingley". */
function usedAsPerson(analysis: Analysis, name: string): boolean {
  const plain = name.replace(/^(?:at|in|on|to|into|the)\s+/i, '');
  if (storyCast(analysis).some((m) => m.pattern.test(plain) && m.label !== 'the narrator'))
    return true;
  if (peopleOf(analysis).people.some((p) => p === plain)) return true;
  const re = new RegExp(`\\b${escape(plain)}\\b`, 'g');
  const text = allText(analysis);
  for (const m of text.matchAll(re)) {
    if (TITLE.test(text.slice(Math.max(0, m.index - 12), m.index))) return true;
  }
  return false;
}

/** True when the text writes this word in lower case mid-sentence: a common noun ("men"). */
function commonNoun(analysis: Analysis, answer: string): boolean {
  const word = answer.replace(/[.?!]$/, '').trim();
  if (/\s/.test(word)) return false;
  const lower = word.toLowerCase();
  if (lower === word) return true;
  return analysis.sentences.some((s) => s.tokens.some((t, i) => i > 0 && t.value === lower));
}

/** Capitalised words of an option ("Uncle Pete" → Uncle, Pete). */
function nameWords(option: string): string[] {
  return (
    option
      .match(/\b\p{Lu}[\p{L}-]+/gu)
      ?.filter((w) => !/^(?:The|A|An|At|In|On|To|Into)$/.test(w)) ?? []
  );
}

/**
 * True when a noun (lemma) comes up in a sentence other than `except`: the same noun, or a
 * kind of it ("the heron" for "the bird"), up to three steps in WordNet.
 */
export function mentionedElsewhere(analysis: Analysis, lemma: string, except: number[]): boolean {
  const l = lemma.toLowerCase();
  for (const s of analysis.sentences) {
    if (except.includes(s.index)) continue;
    for (const t of s.tokens) {
      // (The tagger reads a noun as a describing word now and then: "the old net".)
      if (t.pos !== 'NOUN' && t.pos !== 'PROPN' && t.pos !== 'ADJ') continue;
      const other = t.lemma.toLowerCase();
      if (other === l || t.value.toLowerCase() === l) return true;
      if (t.pos === 'ADJ') continue;
      if (t.pos === 'NOUN' && isKindOf(other, l)) return true;
    }
  }
  return false;
}

const kindCache = new Map<string, boolean>();

function isKindOf(word: string, of: string): boolean {
  const key = `${word}>${of}`;
  const cached = kindCache.get(key);
  if (cached !== undefined) return cached;
  let found = false;
  let frontier = sensesOf(word, 'noun').slice(0, 2);
  for (let depth = 0; depth < 3 && frontier.length && !found; depth++) {
    const next: typeof frontier = [];
    for (const x of frontier) {
      for (const p of x.pointers) {
        if (p.symbol !== '@') continue;
        const up = synsetAt(p.offset, 'noun');
        if (!up) continue;
        if (up.words.some((w) => w.toLowerCase() === of)) found = true;
        next.push(up);
      }
    }
    frontier = next;
  }
  kindCache.set(key, found);
  return found;
}

function kindOfQuestion(prompt: string): 'who' | 'what' | 'where' | 'speaker' | 'other' {
  if (/^Who says\b/.test(prompt)) return 'speaker';
  if (/^Who\b/.test(prompt)) return 'who';
  if (/^What (?:did|does|do|had|has|was|were|is|are)\b/.test(prompt) && !/\bcalled\?$/.test(prompt))
    return 'what';
  if (/^Where\b/.test(prompt)) return 'where';
  return 'other';
}

/**
 * The words of the evidence sentence(s) that a question turns on: for "who", the nouns and
 * names of its predicate; for "what" and "where", the head noun of the answer.
 */
function turnsOn(ctx: WriterContext, c: FormCandidate, kind: 'who' | 'what' | 'where'): string[] {
  const words =
    kind === 'who'
      ? c.prompt.replace(/^Who\s+/, '').replace(/\?$/, '')
      : c.answer.replace(/[.?!]$/, '');
  const inWords = new Set(words.toLowerCase().match(/[\p{L}-]+/gu) ?? []);
  const out: string[] = [];
  for (const i of c.sentences) {
    const s = ctx.analysis.sentences[i];
    if (!s) continue;
    for (const t of s.tokens) {
      if ((t.pos === 'NOUN' || t.pos === 'PROPN') && inWords.has(t.value.toLowerCase()))
        out.push(t.lemma.toLowerCase());
    }
  }
  if (kind === 'who') return out;
  // The answer's last word is its head, whatever the tagger made of it ("the old net").
  const head = words
    .toLowerCase()
    .match(/[\p{L}-]+/gu)
    ?.at(-1);
  if (!head) return [];
  for (const i of c.sentences) {
    const t = ctx.analysis.sentences[i]?.tokens.find((x) => x.value.toLowerCase() === head);
    if (t) return [t.pos === 'NOUN' || t.pos === 'PROPN' ? t.lemma.toLowerCase() : head];
  }
  return [head];
}

/** How many describing words of the evidence the question keeps ("fair and very wise": 2). */
function describingWords(ctx: WriterContext, c: FormCandidate): number {
  const words = new Set(c.prompt.toLowerCase().match(/[\p{L}-]+/gu) ?? []);
  let n = 0;
  for (const i of c.sentences)
    for (const t of ctx.analysis.sentences[i]?.tokens ?? [])
      if (t.pos === 'ADJ' && words.has(t.value.toLowerCase())) n += 1;
  return n;
}

/**
 * The question as it may be shown (options of the wrong kind removed), or null when it is not
 * a question a teacher would sign.
 */
export function soundWh(ctx: WriterContext, c: FormCandidate): FormCandidate | null {
  if (c.form !== 'wh') return c;
  const stem = c.prompt.replace(/“[^”]*”/g, '“”');
  const kind = kindOfQuestion(c.prompt);
  if (kind !== 'speaker') {
    const plain = `${stem} ${c.answer}`.replace(/\b(\p{L}+)['’]s\b/gu, '$1');
    if (SPOKEN.test(plain)) return null;
    if (OBJECT_PRONOUN.test(stem) || HER_OBJECT.test(stem)) return null;
    if (NEGATIVE.test(stem) || NEGATIVE.test(c.answer)) return null;
  }
  // "Who were shaking hands? Men.": a who-question's answer is someone of the text (a name,
  // "the fox", "the narrator"), not a common noun that opened the sentence.
  if (kind === 'who' && !/^the\s/i.test(c.answer) && commonNoun(ctx.analysis, c.answer))
    return null;
  const analysis = ctx.analysis;
  // "Who was equally willing?", "Who was crying as usual?": a predicate of "be" with no noun
  // and one describing word at most says too little to ask about (willing to do what?).
  if (
    kind === 'who' &&
    /^Who (?:was|were|is|are)\b/.test(c.prompt) &&
    turnsOn(ctx, c, 'who').length === 0 &&
    describingWords(ctx, c) < 2
  )
    return null;
  let distractors = c.distractors;
  if (distractors.length) {
    const seen = new Set(nameWords(c.answer));
    distractors = distractors.filter((d) => {
      const words = nameWords(d);
      // "Pete" and "Uncle Pete": one person twice.
      if (words.some((w) => seen.has(w) && !/^(?:Uncle|Aunt|Mr|Mrs|Miss)$/.test(w))) return false;
      words.forEach((w) => seen.add(w));
      return true;
    });
    if (kind === 'who') {
      // No place or book among the people ("Mainz", "Avonlea"), and when the key is a name,
      // no common noun that may be the same one ("Buck" against "The dog").
      const named = !/^the\s/i.test(c.answer);
      distractors = distractors.filter(
        (d) =>
          !usedAsPlace(analysis, d) &&
          wordNetKind(d) !== 'other' &&
          !(named && /^the\s/i.test(d) && !/^the narrator$/i.test(d)),
      );
    }
    if (kind === 'where')
      distractors = distractors.filter(
        (d) => !nameWords(d).length || !usedAsPerson(analysis, d.replace(/^\p{Ll}+\s+/u, '')),
      );
    if (distractors.length < 2) return null;
  }
  if (
    tellsAStory(detectGenre(analysis)) &&
    (kind === 'who' || kind === 'what' || kind === 'where')
  ) {
    // A story's narration is told in the past: "Who is a very ladylike girl?" comes from speech.
    if (
      /(?<!\b(?:would|could|should|might|must|will|may|shall|to|not) )\b(?:is|are|am|has|have|does|do|tonight|today|tomorrow)\b/i.test(
        stem,
      )
    )
      return null;
    // What it turns on comes up again in the story; a character's description ("Who was
    // fair and very wise?") is about the character.
    // ("Who was crying as usual?", "Who was suffering in reality?": a verb's form after
    // "was", not a description; "Who was equally willing?": one describing word alone often
    // wants its complement, willing to do what?)
    const after = /^Who (?:was|were)\s+(?:\p{L}+ly\s+)*(\p{L}+)/u.exec(c.prompt)?.[1] ?? '';
    const description =
      kind === 'who' &&
      !!after &&
      !/(?:ing|ed)$/.test(after) &&
      (turnsOn(ctx, c, kind).length > 0 || describingWords(ctx, c) >= 2);
    // "Who took a hand?", "Who drew a breath?": a gesture of the body, not an event.
    const whoNouns = kind === 'who' ? turnsOn(ctx, c, kind) : [];
    if (whoNouns.length > 0 && whoNouns.every((n) => lexFileOf(n, 'noun') === BODY)) return null;
    // "What were the men shaking? Hands.": a gesture, not a thing of the story.
    if (kind === 'what' && turnsOn(ctx, c, kind).some((n) => lexFileOf(n, 'noun') === BODY))
      return null;
    if (!description) {
      const nouns = turnsOn(ctx, c, kind);
      if (!nouns.some((n) => mentionedElsewhere(analysis, n, c.sentences))) return null;
    }
  }
  return distractors === c.distractors ? c : { ...c, distractors };
}

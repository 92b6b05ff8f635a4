import type { Analysis, Sentence, Token } from './analyse.js';
import { lookup, sensesOf, synsetAt, type WordNetPos } from './wordnet.js';

/**
 * Which word of a sentence a cloze item may blank (issue 22, the `trivial` defect): faults of
 * the blank itself that make the answer known without reading the passage. Each rule is a rule
 * of question writing, measured with the sentence, the material's heading and WordNet only.
 */

export interface BlankCandidate {
  answer: string;
  start: number;
  kind: 'person' | 'place' | 'name' | 'number' | 'noun' | 'verb' | 'adjective';
}

/** Why the blank gives its answer away (null when it does not). */
export function blankGivenAway(
  sentence: Sentence,
  target: BlankCandidate,
  title = '',
  analysis?: Analysis,
): string | null {
  if (target.kind !== 'noun' && target.kind !== 'verb' && target.kind !== 'adjective') return null;
  const at = sentence.tokens.findIndex((t) => t.start === target.start);
  const token = at >= 0 ? sentence.tokens[at] : undefined;
  const lemma = (token?.lemma || target.answer).toLowerCase();
  const pos: WordNetPos = target.kind === 'noun' ? 'noun' : target.kind === 'verb' ? 'verb' : 'adj';
  if (inTitle(title, target.answer, lemma, pos)) return 'word of the heading';
  if (at >= 0 && compoundPartInSentence(sentence, at)) return 'part of it in its sentence';
  if (at >= 0 && inSetExpression(sentence, at)) return 'word of a set expression';
  const mentions = analysis?.words.get(`NOUN:${lemma}`)?.count ?? 1;
  if (target.kind === 'noun' && at >= 0 && passingDetail(sentence, at, mentions))
    return 'worn or body part in passing';
  return null;
}

/** A word cut to its stem for comparing forms ("traveled", "travels", "travel"). */
function plainForm(word: string): string {
  return word
    .toLowerCase()
    .replace(/(?:ing|ed|es|s)$/, '')
    .replace(/(?<=\w{3})e$/, '');
}

/** WordNet's lexicographer file of people (noun.person). */
const PERSON_FILE = 18;

/**
 * The material's heading names the word ("How Seeds Travel": "a seed that _____ed there";
 * "Antibiotic Resistance": "slowing _____"): the student reads the answer above the question.
 * A kind of person is kept ("The Weaver and the Wind": "a _____ named Mira"): it names who
 * the story follows, and the sentence asks who a character is, not what the text is about.
 */
export function inTitle(title: string, answer: string, lemma: string, pos: WordNetPos): boolean {
  const words = title
    .split(/[^\p{L}'-]+/u)
    .map((w) => w.replace(/'s$/, ''))
    .filter((w) => w.length >= 4);
  if (!words.length) return false;
  const forms = new Set([plainForm(answer), plainForm(lemma)]);
  if (!words.some((w) => forms.has(plainForm(w)))) return false;
  if (pos === 'noun' && sensesOf(lemma, 'noun')[0]?.lexFile === PERSON_FILE) return false;
  return true;
}

const CONTENT = new Set(['NOUN', 'VERB', 'ADJ', 'PROPN']);

/**
 * A compound whose part stands alone in the same sentence ("blocks of ice … packed them in
 * _____" for icehouses, "a rain _____ coat" …): the part the sentence shows gives the word.
 */
export function compoundPartInSentence(sentence: Sentence, at: number): boolean {
  const token = sentence.tokens[at];
  if (!token) return false;
  const word = (token.lemma || token.value).toLowerCase();
  if (word.length < 7) return false;
  const others = new Set(
    sentence.tokens
      // Content words only: "some" of "handsome", "after" of "afternoon" give nothing away.
      .filter(
        (t: Token, i) => i !== at && !t.stop && CONTENT.has(t.pos) && /^\p{L}{3,}$/u.test(t.value),
      )
      .flatMap((t) => [t.value.toLowerCase(), (t.lemma || t.value).toLowerCase()]),
  );
  for (let cut = 3; cut <= word.length - 3; cut++) {
    const head = word.slice(0, cut);
    const tail = word.slice(cut);
    if (!others.has(head) && !others.has(tail) && !others.has(plainForm(tail))) continue;
    // Both halves are words ("ice" + "house"), so the word is made of them.
    const known = (w: string) =>
      !!lookup(w, 'noun') || !!lookup(w, 'verb') || !!lookup(w, 'adj') || !!lookup(w, 'adv');
    if (known(head) && (known(tail) || known(tail.replace(/e?s$/, '')))) return true;
  }
  return false;
}

/**
 * The blank is a word of a longer set expression that WordNet lists ("every letter of the
 * _____" for alphabet, "a _____ of the mind" …): the rest of the expression gives it. (Pairs of
 * two words next to each other are `setPhrase` of the question writers.)
 */
export function inSetExpression(sentence: Sentence, at: number): string | null {
  const tokens = sentence.tokens;
  // Each word as written and as its lemma ("fell in love" is listed as "fall in love").
  const forms = (i: number): string[] => {
    const t = tokens[i];
    if (!t || !/^[\p{L}'-]+$/u.test(t.value)) return [];
    return [...new Set([t.value.toLowerCase(), (t.lemma || t.value).toLowerCase()])];
  };
  if (!forms(at).length) return null;
  for (let size = 3; size <= 4; size++) {
    for (let from = at - size + 1; from <= at; from++) {
      if (from < 0 || from + size > tokens.length) continue;
      const slots = Array.from({ length: size }, (_, k) => forms(from + k));
      if (slots.some((f) => !f.length)) continue;
      for (const variant of [0, 1]) {
        const phrase = slots.map((f) => f[Math.min(variant, f.length - 1)]).join(' ');
        for (const pos of ['noun', 'verb', 'adj', 'adv'] as const)
          if (lookup(phrase, pos)) return phrase;
      }
    }
  }
  return null;
}

const BODY_FILE = 8;
const POSSESSIVE = /^(?:my|your|his|her|its|our|their)$/i;

/** True when the noun's first sense is a garment or a part of the body. */
function wornOrBody(lemma: string): boolean {
  for (const sense of sensesOf(lemma, 'noun').slice(0, 1)) {
    if (sense.lexFile === BODY_FILE) return true;
    let frontier = [sense];
    for (let d = 0; d < 6 && frontier.length; d++) {
      const next = [];
      for (const s of frontier) {
        if (s.words.some((w) => /^(?:clothing|garment|article of clothing|footwear)$/i.test(w)))
          return true;
        for (const p of s.pointers)
          if (p.symbol === '@') {
            const parent = synsetAt(p.offset, 'noun');
            if (parent) next.push(parent);
          }
      }
      frontier = next;
    }
  }
  return false;
}

/**
 * "tied on her _____", "a burr on your _____", "and her _____ white as the hawthorn": what
 * someone wears, or a part of their body, named once in passing after "her"/"his"/"your" is a
 * detail of the scene, not an idea of the text.
 */
export function passingDetail(sentence: Sentence, at: number, mentions: number): boolean {
  const token = sentence.tokens[at];
  const prev = sentence.tokens[at - 1];
  if (!token || token.pos !== 'NOUN' || mentions > 1) return false;
  if (!prev || !POSSESSIVE.test(prev.value)) return false;
  return wornOrBody((token.lemma || token.value).toLowerCase());
}

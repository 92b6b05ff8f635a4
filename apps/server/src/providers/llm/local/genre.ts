import type { Analysis } from './analyse.js';

/**
 * What kind of text a passage is, so the writers ask questions that fit it: a story (characters,
 * plot, predictions), an informational text (ideas, causes, evidence), an argument (claims and
 * reasons) or a poem. A minimal detector from surface features (gen-q may replace it with a
 * fuller one; keep the signature):
 * - a poem: most raw lines short and not ending a sentence;
 * - a story: dialogue, or narration by "I"/"he"/"she" in the past tense; but a life told in
 *   the third person with dates ("In 1811 …", "born in 1799") and no dialogue is a biography,
 *   an informational text;
 * - an argument: "should", "must", "critics", a question the author puts, and "we" (not the
 *   explaining "we see", "we call") with no story;
 * - otherwise informational.
 */
export type Genre = 'narrative' | 'informational' | 'argument' | 'poem';

const cache = new WeakMap<Analysis, Genre>();

export function detectGenre(analysis: Analysis, rawText?: string): Genre {
  const cached = cache.get(analysis);
  if (cached) return cached;
  const genre = detect(analysis, rawText);
  cache.set(analysis, genre);
  return genre;
}

function detect(analysis: Analysis, rawText?: string): Genre {
  if (analysis.prepared.isPlay) return 'narrative';
  if (rawText) {
    const lines = rawText.split(/\r?\n/).filter((l) => l.trim());
    const verse = lines.filter((l) => l.trim().length < 60 && !/[.!?]["”’']?\s*$/.test(l.trim()));
    if (lines.length >= 8 && verse.length / lines.length > 0.5) return 'poem';
  }
  const sentences = analysis.sentences;
  if (sentences.length === 0) return 'informational';
  let words = 0;
  let persons = 0;
  let firstPerson = 0;
  let past = 0;
  let present = 0;
  let arguing = 0;
  let quotes = 0;
  let asked = 0;
  for (const s of sentences) {
    if (s.hasQuotes && /["“”]/.test(s.text)) quotes += 1;
    // A question the author puts to the reader ("Why should a city pay …?"), not a character's.
    else if (/\?["”’']?$/.test(s.text)) asked += 1;
    s.tokens.forEach((t, i) => {
      if (!/[A-Za-z]/.test(t.value)) return;
      words += 1;
      const v = t.normal;
      if (/^(?:he|she|him|her|his|i|me|my|myself|himself|herself)$/.test(v)) persons += 1;
      if (/^(?:i|me|my|myself)$/.test(v)) firstPerson += 1;
      if (/^(?:was|were|had|did|said)$/.test(v)) past += 1;
      else if (/^(?:is|are|has|have|does|do|can)$/.test(v)) present += 1;
      // Simple stories tell in plain past verbs ("Maya fed the hens and ran to the barn") with
      // few forms of "be": a verb after its subject, not after an auxiliary (a participle).
      else if (t.pos === 'VERB' && i > 0 && !['AUX', 'PART'].includes(s.tokens[i - 1]!.pos)) {
        const lemma = t.lemma.toLowerCase();
        if (v !== lemma && !/ing$/.test(v) && v !== `${lemma}s` && v !== `${lemma}es`) past += 1;
        else if (v === `${lemma}s` || v === `${lemma}es`) present += 1;
      }
      if (/^(?:should|must|ought|opinion|argue|therefore|clearly|critics)$/.test(v)) arguing += 1;
      // "Many people believe that …" reports a view; "I believe" argues one.
      else if (
        v === 'believe' &&
        !/^(?:people|some|many|others|scientists)$/.test(s.tokens[i - 1]?.normal ?? '')
      )
        arguing += 1;
      // "we see half of the Moon", "we call this …": the explaining "we" argues nothing.
      else if (/^(?:we|our|us)$/.test(v)) {
        const next = s.tokens.slice(i + 1, i + 3).map((x) => x.normal);
        const explaining =
          v === 'we' &&
          next.some((n) =>
            /^(?:see|saw|seen|call|say|notice|observe|look|know|can|cannot|could)$/.test(n),
          );
        if (!explaining) arguing += 0.5;
      }
    });
  }
  const per100 = (n: number) => (100 * n) / Math.max(1, words);
  const dialogue = quotes / sentences.length;
  const pastShare = past / Math.max(1, past + present);
  if (dialogue >= 0.12) return 'narrative';
  if (per100(persons) >= 4 && pastShare >= 0.6) {
    // A biography or a history: a life told in the third person, with dates, no dialogue.
    const years = new Set(
      sentences.flatMap((s) => s.text.match(/\b(?:1[0-9]{3}|20[0-9]{2})\b/g) ?? []),
    ).size;
    if (years >= 2 && dialogue < 0.05 && per100(firstPerson) < 1) return 'informational';
    return 'narrative';
  }
  if (per100(arguing + Math.min(2, asked)) >= 1.2 && dialogue < 0.05) return 'argument';
  return 'informational';
}

/** Texts whose people are characters in a story (rather than historical figures or sources). */
export function tellsAStory(genre: Genre): boolean {
  return genre === 'narrative' || genre === 'poem';
}

import type { Analysis } from './analyse.js';

/**
 * What kind of text a passage is, so the writers ask questions that fit it: a story (characters,
 * plot, predictions), an informational text (ideas, causes, evidence), an argument (claims and
 * reasons) or a poem. A minimal detector from surface features (gen-q may replace it with a
 * fuller one; keep the signature):
 * - a poem: most raw lines short and not ending a sentence;
 * - a story: dialogue, or narration by "I"/"he"/"she" in the past tense;
 * - an argument: "should", "must", "we", "I believe" and no story;
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
  let past = 0;
  let present = 0;
  let arguing = 0;
  let quotes = 0;
  for (const s of sentences) {
    if (s.hasQuotes && /["“”]/.test(s.text)) quotes += 1;
    for (const t of s.tokens) {
      if (!/[A-Za-z]/.test(t.value)) continue;
      words += 1;
      const v = t.normal;
      if (/^(?:he|she|him|her|his|i|me|my|myself|himself|herself)$/.test(v)) persons += 1;
      if (/^(?:was|were|had|did|said)$/.test(v)) past += 1;
      else if (/^(?:is|are|has|have|does|do|can)$/.test(v)) present += 1;
      if (/^(?:should|must|ought|we|our|us|believe|opinion|argue|therefore|clearly)$/.test(v))
        arguing += 1;
    }
  }
  const per100 = (n: number) => (100 * n) / Math.max(1, words);
  const dialogue = quotes / sentences.length;
  const pastShare = past / Math.max(1, past + present);
  if (dialogue >= 0.12 || (per100(persons) >= 4 && pastShare >= 0.6)) return 'narrative';
  if (per100(arguing) >= 1.5 && dialogue < 0.05) return 'argument';
  return 'informational';
}

/** Texts whose people are characters in a story (rather than historical figures or sources). */
export function tellsAStory(genre: Genre): boolean {
  return genre === 'narrative' || genre === 'poem';
}

import type { VocabularyItem } from '@chapterwise/shared';
import { containsPhrase } from '../quality.js';
import { describeWord, wordNetPos, type WordInfo } from './analyse.js';
import { pickSentences, type WriterContext } from './common.js';
import { syllables } from './readability.js';
import { frequencyOf, senseInContext } from './wordnet.js';

/** How familiar (WordNet corpus frequency) and long a vocabulary word should be at a level. */
function band(level: number): {
  minFamiliarity: number;
  maxFamiliarity: number;
  minLength: number;
  minSyllables: number;
} {
  if (level <= 2) return { minFamiliarity: 2, maxFamiliarity: 40, minLength: 4, minSyllables: 1 };
  if (level <= 5) return { minFamiliarity: 1, maxFamiliarity: 15, minLength: 5, minSyllables: 2 };
  if (level <= 8) return { minFamiliarity: 0, maxFamiliarity: 6, minLength: 6, minSyllables: 2 };
  return { minFamiliarity: 0, maxFamiliarity: 3, minLength: 6, minSyllables: 2 };
}

const LABELS: Record<WordInfo['pos'], string> = {
  NOUN: 'noun',
  VERB: 'verb',
  ADJ: 'adjective',
  ADV: 'adverb',
};

/** Clean first clause of a WordNet definition, short enough for a student. */
function tidyDefinition(definition: string): string {
  // WordNet sometimes opens with a note on usage ("primarily temporal sense; …"): keep the meaning.
  const parts = definition.split(/\s*;\s*/).filter(Boolean);
  const meaning =
    parts.find((p) => !/\bsense\b|^(?:primarily|usually|often|used|especially)\b|^\(/i.test(p)) ??
    parts[0] ??
    definition;
  let d = meaning
    .replace(/\s*\([^)]*\)\s*/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  if (d.length > 160) {
    const cut = d.slice(0, 160);
    d = cut.slice(0, Math.max(cut.lastIndexOf(','), 80)).replace(/[;,]\s*$/, '');
  }
  return d;
}

/**
 * Vocabulary worth teaching from this text at this grade: words the passage uses (more than
 * once when it can), of the right rarity and length for the level, each with the WordNet
 * sense that fits its sentence (simplified Lesk) and that sentence as the example in context.
 */
export function writeVocabulary(ctx: WriterContext, count: number): VocabularyItem[] {
  if (count <= 0) return [];
  const strict = band(ctx.plan.level);
  const candidates: Array<{ info: WordInfo; score: number }> = [];
  // Widen the band when the text has too few words of the ideal rarity for this grade.
  for (const [stretch, weight] of [
    [1, 1],
    [3, 0.5],
    [10, 0.25],
  ] as const) {
    const minFamiliarity = stretch === 1 ? strict.minFamiliarity : 0;
    const maxFamiliarity = strict.maxFamiliarity * stretch;
    const minLength = stretch === 1 ? strict.minLength : 4;
    const minSyllables = stretch === 1 ? strict.minSyllables : 1;
    const seen = new Set(candidates.map((c) => c.info));
    for (const info of ctx.analysis.words.values()) {
      if (seen.has(info)) continue;
      if (info.lemma.length < minLength || info.lemma.includes('-')) continue;
      if (syllables(info.lemma) < minSyllables) continue;
      const d = describeWord(info);
      if (d.familiarity < minFamiliarity || d.familiarity > maxFamiliarity) continue;
      // A tagging slip ("subject" read as an adjective) shows as a word far more common in another part of speech.
      const others = (['noun', 'verb', 'adj', 'adv'] as const).filter(
        (p) => p !== wordNetPos(info.pos),
      );
      if (others.some((p) => frequencyOf(info.lemma, p) > 3 * d.familiarity + 5)) continue;
      const focus = ctx.plan.focusTerms.includes(info.lemma) ? 2 : 1;
      const posWeight = info.pos === 'ADV' ? 0.6 : info.pos === 'VERB' ? 0.9 : 1;
      candidates.push({
        info,
        score:
          weight * Math.log2(1 + info.count) * posWeight * focus * (1 + info.lemma.length / 20),
      });
    }
    if (candidates.length >= count * 2) break;
  }
  candidates.sort((a, b) => b.score - a.score);

  const out: VocabularyItem[] = [];
  const seen = new Set<string>();
  for (const { info } of candidates) {
    if (out.length >= count) break;
    if (seen.has(info.lemma)) continue;
    const sentence =
      pickSentences(ctx, 1, { minWords: 5, maxWords: 50 }, (s) =>
        info.sentences.includes(s.index),
      )[0] ?? ctx.analysis.sentences.find((s) => s.index === info.sentences[0]);
    if (!sentence) continue;
    const sense = senseInContext(info.lemma, wordNetPos(info.pos), sentence.text);
    if (!sense?.definition) continue;
    const definition = tidyDefinition(sense.definition);
    // A definition that uses the word itself teaches nothing.
    if (new RegExp(`\\b${info.lemma}`, 'i').test(definition)) continue;
    const form = [...info.forms.keys()].find((f) => containsPhrase(sentence.text, f)) ?? info.lemma;
    const term =
      containsPhrase(sentence.text, info.lemma) || form.startsWith(info.lemma) ? info.lemma : form;
    seen.add(info.lemma);
    out.push({ term, partOfSpeech: LABELS[info.pos], definition, context: sentence.text });
  }
  return out;
}

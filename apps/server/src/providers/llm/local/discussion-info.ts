import type { DiscussionQuestion } from '@chapterwise/shared';
import type { Sentence } from './analyse.js';
import { pickSentences, type WriterContext } from './common.js';
import { isFamiliar } from './familiar.js';
import type { Genre } from './genre.js';
import { passageDefinitions } from './senses.js';
import { lexFileOf } from './wordnet.js';

/**
 * Discussion questions for texts that explain or argue (issue 22, "vague"): each is filled with
 * something the passage itself says (a claim of importance, a contrast, a cause, a term it
 * defines) instead of a story's questions ("What will happen next?") or a mood-and-imagery
 * prompt pinned to an ordinary sentence. Every question quotes its sentence, and the key names
 * what a strong answer contains, with a second detail of the text where one is needed.
 */

let counter = 0;
const nextId = () => `i${++counter}`;
const markUsedSentence = (ctx: WriterContext, s: Sentence) => ctx.usedSentences.add(s.index);

function quote(text: string): string {
  return `“${text.replace(/^["“]|["”]$/g, '')}”`;
}

const CONTENT = /^[a-z]{4,}$/;
const COMMON = new Set(
  'that this with from have they their there which when what were been more most some many much also into than then them these those very about over such only other each just like make made does long time year years part'.split(
    ' ',
  ),
);

/** Content words of a sentence (lower case), for finding another sentence on the same idea. */
function contentWords(s: Sentence): Set<string> {
  return new Set(
    s.tokens
      .filter((t) => (t.pos === 'NOUN' || t.pos === 'ADJ') && !t.stop)
      .map((t) => t.lemma.toLowerCase())
      .filter((w) => CONTENT.test(w) && !COMMON.has(w)),
  );
}

/**
 * Another sentence of the text on the same idea: the next one when the statement opens its
 * paragraph's explanation, else the one sharing most content words (two at least).
 */
function supportingSentence(ctx: WriterContext, s: Sentence): Sentence | null {
  const next = ctx.analysis.sentences[s.index + 1];
  if (next && next.paragraph === s.paragraph && next.words >= 6 && !next.hasQuotes) return next;
  const words = contentWords(s);
  let best: { x: Sentence; score: number } | null = null;
  for (const x of ctx.analysis.sentences) {
    if (x.index === s.index || x.words < 6 || x.words > 40 || x.hasQuotes) continue;
    const shared = [...contentWords(x)].filter((w) => words.has(w)).length;
    if (shared < 2) continue;
    const score = shared + x.importance;
    if (!best || score > best.score) best = { x, score };
  }
  return best && best.score >= 2 ? best.x : null;
}

const IMPORTANCE =
  /\b(?:is|are|was|were|remains?|became|become)\s+(?:\w+\s+)?(?:important|valuable|essential|vital|crucial)\b/i;
// A view the text reports, to answer it.
const REPORTED =
  /\b(?:the argument goes|some (?:people )?(?:say|argue|believe|claim)|critics|many (?:people )?(?:believe|think|say)|they (?:ask|say|argue)|it is often said)\b/i;
// "Before we decide that it is no longer necessary …": a claim the sentence denies or doubts.
const DENIED =
  /\b(?:no longer|not|never|n't|hardly|whether|if)\s+(?:\w+\s+){0,2}(?:important|matters?|valuable|essential|vital|necessary|crucial)\b/i;
// A contrast between two ideas of the same sentence: a clause-level "but"/"yet"/"while" (after
// a comma), or a word that only contrasts; not "a short but dangerous crossing", and not "But
// the science tells a different story.", whose other side is the sentence before.
const CONTRAST =
  /[,;]\s*(?:but|yet|while)\b|\b(?:although|though|rather than|unlike|whereas|instead of)\b/i;
// "but it also stretches into Peru" adds, it does not contrast.
const ADDITIVE = /\bbut\b[^,.;]*\balso\b|\bnot only\b/i;
// A quoted sentence must make sense alone: not "Its trees …", "Most of it …".
const LEANS_BACK =
  /^(?:it|its|they|their|them|this|these|that|those|he|she|his|her|most of it|some of it|all of it|as a result|for this reason|because of this|in this way|for these reasons)\b/i;

/** A sentence that can be quoted on its own (not "They measure …", "As a result, …"). */
export function standsAlone(s: Sentence): boolean {
  return !LEANS_BACK.test(s.text) && !pronounFirst(s);
}

/**
 * "Before we decide that it is no longer necessary, we should ask who would lose the most if
 * it disappeared.": "it" comes before any noun it could stand for; the sentence needs the one
 * before it.
 */
export function pronounFirst(s: Sentence): boolean {
  for (const t of s.tokens) {
    if (t.pos === 'NOUN' || t.pos === 'PROPN') return false;
    if (/^(?:it|its|they|them|their|this|these|those|he|she|him|her|his)$/i.test(t.value))
      return t.pos === 'PRON' || /^(?:it|its|they|them|their|he|she|him|his)$/i.test(t.value);
  }
  return false;
}
// ", so the rain that falls is fresh"
const CAUSE =
  /\b(?:because|as a result|therefore|so that|which helps|that is why|causes?|leads? to)\b|, so (?!much|many|far|that)\b/i;

/**
 * A topic sentence that names causes without giving one ("The causes of the flood were many.",
 * "There were several causes of the war."): no single cause and effect to separate.
 */
export function namesCausesOnly(text: string): boolean {
  const rest = text.replace(
    /\b(?:the|its|their|many|several|main|two|three|other|deeper|real)\s+(?:\w+\s+)?causes\b(?:\s+of\b)?/gi,
    ' ',
  );
  if (rest === text) return false;
  return !CAUSE.test(rest);
}

export function informationalDiscussion(
  ctx: WriterContext,
  genre: Genre,
): Array<() => DiscussionQuestion | null> {
  const level = ctx.plan.level;
  const makers: Array<() => DiscussionQuestion | null> = [];
  const sentenceWith = (re: RegExp, maxWords = 40) =>
    pickSentences(
      ctx,
      1,
      { maxWords, noQuotes: true },
      (x) =>
        re.test(x.text) &&
        x.words >= 7 &&
        standsAlone(x) &&
        !ADDITIVE.test(x.text) &&
        !(re === IMPORTANCE && (DENIED.test(x.text) || REPORTED.test(x.text))) &&
        !(re === CAUSE && namesCausesOnly(x.text)),
    )[0];

  // The author's own claim that something matters, explained with the text's details: only
  // a claim the author makes ("… is essential to …"), not a view the text reports to answer it
  // ("Adults often treat this as a matter of discipline") nor a description ("Antibiotics work
  // by attacking structures … that bacterial cells depend on").
  makers.push(() => {
    const s = sentenceWith(IMPORTANCE);
    if (!s) return null;
    const support = supportingSentence(ctx, s);
    if (!support) return null;
    markUsedSentence(ctx, s);
    return {
      id: nextId(),
      kind: 'discussion',
      form: 'discussion',
      prompt:
        level <= 5
          ? `The text says, ${quote(s.text)} Why is this true? Use two details from the text.`
          : `The text says, ${quote(s.text)} Explain why, using two details from the text.`,
      answer: `A strong answer gives two details from the text that show this, for example ${quote(support.text)}, and says how each one supports the statement.`,
      evidence: s.text,
    };
  });

  // A term the passage defines: explain it and connect it to the rest of the text (two at most).
  const defined = (): DiscussionQuestion | null => {
    // A term the text comes back to: one named once ("the harmattan") is a detail, and "how does
    // it connect to the other ideas" has no clear answer.
    const defs = [...passageDefinitions(ctx.analysis).values()].filter(
      (d) =>
        !ctx.usedSentences.has(d.sentence.index) &&
        d.term.length > 3 &&
        // A thing every student knows ("a coconut is a seed …") is an example, not a concept.
        !d.term.split(/\s+/).every((w) => isFamiliar(w)) &&
        ctx.analysis.sentences.filter((x) =>
          new RegExp(`\\b${d.term.replace(/[^a-z ]/gi, '')}`, 'i').test(x.text),
        ).length >= 2,
    );
    const d = defs.sort((a, b) => b.sentence.importance - a.sentence.importance)[0];
    if (!d) return null;
    markUsedSentence(ctx, d.sentence);
    // "what the canopy is", "what water vapor is", "what emergents are".
    const article = new RegExp(`\\b(the|an?) ${d.term}\\b`, 'i').exec(d.sentence.text)?.[1];
    const plural = /[^s]s$/.test(d.term);
    const named = `${article ? `${article.toLowerCase()} ` : ''}${d.term}`;
    const what = `what ${named} ${plural ? 'are' : 'is'}`;
    return {
      id: nextId(),
      kind: 'discussion',
      form: 'discussion',
      prompt:
        level <= 5
          ? `Explain in your own words ${what}. How ${plural ? 'do they' : 'does it'} connect to another idea in the text?`
          : `Explain in your own words ${what}. How ${plural ? 'do they' : 'does it'} connect to the other ideas in the text? Use details from the text.`,
      answer: `A strong answer explains that ${named} ${plural ? 'are' : 'is'} ${d.definition} (${quote(d.sentence.text)}), in the student's own words, and links ${plural ? 'them' : 'it'} to another detail of the text.`,
      evidence: d.sentence.text,
    };
  };
  makers.push(defined);

  // A contrast the text draws.
  makers.push(() => {
    const s = sentenceWith(CONTRAST);
    if (!s) return null;
    markUsedSentence(ctx, s);
    return {
      id: nextId(),
      kind: 'discussion',
      form: 'inference',
      prompt:
        level <= 5
          ? `The text says, ${quote(s.text)} What two things does this sentence set against each other? Why does the difference matter?`
          : `The text says, ${quote(s.text)} What two ideas does this sentence contrast, and why does the difference matter to the text as a whole?`,
      answer: `A strong answer names both sides of the contrast in ${quote(s.text)} and explains, with another detail from the text, why the difference matters.`,
      evidence: s.text,
    };
  });

  // A cause and its effect (two at most).
  const cause = (): DiscussionQuestion | null => {
    const s = sentenceWith(CAUSE);
    if (!s) return null;
    markUsedSentence(ctx, s);
    return {
      id: nextId(),
      kind: 'discussion',
      form: 'inference',
      prompt:
        level <= 5
          ? `The text says, ${quote(s.text)} What is the cause, and what is the effect? Explain in your own words.`
          : `The text says, ${quote(s.text)} Explain the cause and the effect in your own words, and tell why this link matters in the text.`,
      answer: `A strong answer separates the cause from the effect in ${quote(s.text)} and explains the link in the student's own words, with another detail from the text.`,
      evidence: s.text,
    };
  };
  makers.push(cause, defined, cause);

  // An argument: its claim and its reasons.
  if (genre === 'argument')
    makers.unshift(() => {
      // The author's claim, not the critics' question the essay answers ("Why, they ask,
      // should a city pay …?").
      const s = pickSentences(
        ctx,
        1,
        { maxWords: 40, noQuotes: true },
        (x) =>
          /\b(?:should|must|need to|ought)\b/i.test(x.text) &&
          !/\?["”’']?$/.test(x.text) &&
          !REPORTED.test(x.text),
      )[0];
      if (!s) return null;
      markUsedSentence(ctx, s);
      return {
        id: nextId(),
        kind: 'discussion',
        form: 'discussion',
        prompt: `The author writes, ${quote(s.text)} What reasons does the author give for this view? Do you find them convincing? Use quotations from the text.`,
        answer: `A strong answer states the author's claim (${quote(s.text)}), names at least two reasons the text gives, quotes them, and judges how well they support the claim.`,
        evidence: s.text,
      };
    });
  return makers;
}

/**
 * A key phrase a question can be about: a common noun of the text ("the flag", "the library"),
 * not a name written in lower case ("the london"), a time or quantity ("months") or a pronoun
 * ("the one").
 */
export function worthATheme(ctx: WriterContext, phrase: string): boolean {
  const p = phrase.toLowerCase();
  if (
    /^(?:one|ones|thing|things|way|ways|time|times|part|kind|lot|none|other|others|people|person|man|men|woman|women|day|days|world|life|work|place|places|home)$/.test(
      p,
    )
  )
    return false;
  const re = new RegExp(`\\b${p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`, 'i');
  const uses = ctx.analysis.sentences.flatMap((s) => {
    const m = re.exec(s.text);
    return m ? [m[0]] : [];
  });
  // Written with a capital wherever it occurs: a name.
  if (uses.length > 0 && uses.every((u) => /^[A-Z]/.test(u))) return false;
  // What a passage is about recurs: "the hotel" named once or twice is a detail.
  if (uses.length < 3) return false;
  const head = p.split(/\s+/).at(-1)!;
  return ![head, head.replace(/s$/, '')].some((h) => [23, 28].includes(lexFileOf(h, 'noun')));
}

/** Whether the text explains causes (two sentences or more) or draws contrasts. */
export function textMoves(ctx: WriterContext): {
  argues: boolean;
  process: boolean;
  causes: boolean;
  contrasts: boolean;
} {
  const standing = ctx.analysis.sentences.filter((s) => standsAlone(s) && !s.hasQuotes);
  // A process told in steps: "When water vapor cools, it turns back into …", "then", "finally".
  const steps = ctx.analysis.sentences.filter((s) =>
    /^(?:when|after|then|next|finally|first|once)\b|\b(?:turns? (?:back )?into|becomes?|changes? into)\b/i.test(
      s.text,
    ),
  ).length;
  // Steps in an order, not ways side by side ("Some seeds …", "When an animal eats …"): words
  // that order them, or one stage turning into the next.
  const ordered = ctx.analysis.sentences.filter((s) =>
    /^(?:first|then|next|finally|after that|afterwards|later|second|third|at last)\b|\b(?:later|after that)\b|\b(?:turns? (?:back )?into|changes? into|the (?:cycle|process) (?:begins|starts))\b/i.test(
      s.text,
    ),
  ).length;
  // An argument states its claim and answers its critics: "should", "must", "the solution is".
  const claims = ctx.analysis.sentences.filter((s) =>
    /\b(?:should|must|ought to|critics?|argue|the (?:solution|answer) is|we need)\b/i.test(s.text),
  ).length;
  return {
    argues: claims >= 2,
    process: steps >= 4 && ordered >= 2,
    causes: standing.filter((s) => CAUSE.test(s.text)).length >= 2,
    contrasts: standing.some((s) => CONTRAST.test(s.text) && !ADDITIVE.test(s.text)),
  };
}

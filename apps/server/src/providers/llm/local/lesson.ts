import type { LessonPlan, Question, VocabularyItem } from '@chapterwise/shared';
import type { GenerationRequest } from '../types.js';
import { peopleOf } from './characters.js';
import type { WriterContext } from './common.js';
import { textMoves, worthATheme } from './discussion-info.js';
import { detectGenre, tellsAStory } from './genre.js';
import { themePhrase, writeMultipleChoice, writeShortAnswer, writeTrueFalse } from './questions.js';

/** The passage in its own words: its most important sentences, in the order of the text. */
export function keyPassages(ctx: WriterContext, count: number): string[] {
  const ranked = ctx.analysis.sentences
    .filter(
      (s) => s.words >= 6 && s.words <= 45 && !/[[\]]/.test(s.text) && /[.!?]["”’']?$/.test(s.text),
    )
    .sort((a, b) => b.importance - a.importance)
    .slice(0, count * 3);
  // Spread the summary over the text: one sentence per stretch where possible.
  const picked: typeof ranked = [];
  const stretches = new Set<number>();
  for (const s of ranked) {
    const stretch = Math.floor(s.position * count);
    if (stretches.has(stretch)) continue;
    stretches.add(stretch);
    picked.push(s);
    if (picked.length >= count) break;
  }
  for (const s of ranked) {
    if (picked.length >= count) break;
    if (!picked.includes(s)) picked.push(s);
  }
  return picked.sort((a, b) => a.index - b.index).map((s) => s.text);
}

// A verb of a past event: "ran", "found", "opened".
const PAST_IRREGULAR =
  /^(?:was|were|had|did|went|came|saw|said|took|found|ran|made|got|gave|left|felt|knew|thought|told|heard|began|fell|stood|sat|held|brought|caught|threw|flew|grew|rode|woke|drove|broke|spoke|wrote|lost|kept|met|put|set|let)$/;

/** The text narrates: most of its sentences tell something that happened. */
export function hasEvents(ctx: WriterContext): boolean {
  const all = ctx.analysis.sentences;
  if (all.length < 3) return false;
  const past = all.filter((s) =>
    s.tokens.some(
      (t) =>
        (t.pos === 'VERB' || t.pos === 'AUX') &&
        (PAST_IRREGULAR.test(t.normal) || (/ed$/.test(t.normal) && t.normal !== t.lemma)),
    ),
  ).length;
  return past / all.length >= 0.4;
}

const LINK =
  /\b(?:because|so that|as a result|therefore|that is why|at once|when|after|then|until|suddenly)\b|, so\b/i;

/** One thing leads to another: several sentences link events in time or by cause. */
export function linksEvents(ctx: WriterContext): boolean {
  return ctx.analysis.sentences.filter((s) => LINK.test(s.text)).length >= 3;
}

const LEARNS =
  /\b(?:learn(?:ed|t|s)?|realis(?:ed|es)|realiz(?:ed|es)|understood|understands|saw that|knew then|from that day|never again|changed (?:his|her|my) mind)\b/i;
const MORAL = /\b(?:moral|the lesson)\b|^(?:so |and so )?(?:it is|it's) (?:better|best|wise)\b/i;

/**
 * Who comes to see something in the story: the main character when a sentence about them says
 * they learn or realise it, "the narrator" when a first-person sentence does; null when nobody
 * does ("what Ben learns" on a story where Ben learns nothing).
 */
export function whoLearns(ctx: WriterContext, main?: string): string | null {
  for (const s of ctx.analysis.sentences) {
    if (!LEARNS.test(s.text)) continue;
    if (main && s.text.includes(main)) return main;
    if (/\b(?:I|we)\b/.test(s.text) && !/["“”]/.test(s.text)) return 'the narrator';
  }
  return null;
}

/** The text states its lesson or moral. */
export function statesLesson(ctx: WriterContext): boolean {
  return ctx.analysis.sentences.some((s) => MORAL.test(s.text));
}

/**
 * A capitalised word the text also uses in lower case ("Caves form …" and "the caves") is a
 * common noun that opened a sentence, not a person who did something.
 */
export function commonNounToo(ctx: WriterContext, name: string): boolean {
  const lower = name.toLowerCase();
  if (lower === name) return false;
  const re = new RegExp(`\\b${lower.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`);
  return ctx.analysis.sentences.some((s) => re.test(s.text));
}

/** Splits a lesson's minutes over its parts in proportion, keeping the exact total. */
function timeBudget(total: number, weights: number[]): number[] {
  const sum = weights.reduce((a, b) => a + b, 0);
  const minutes = weights.map((w) => Math.max(3, Math.round((w / sum) * total)));
  let diff = total - minutes.reduce((a, b) => a + b, 0);
  let i = minutes.length - 1;
  while (diff !== 0 && i >= 0) {
    const largest = minutes.indexOf(Math.max(...minutes));
    const step = diff > 0 ? 1 : -1;
    if (minutes[largest]! + step >= 3) {
      minutes[largest] = minutes[largest]! + step;
      diff -= step;
    } else i -= 1;
  }
  return minutes;
}

function list(items: string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

/** Words that name the kind of material, not what the text is about. */
const MATERIAL_WORDS =
  /\b(quiz|quizzes|test|tests|lesson|lessons|plan|worksheet|worksheets|exit ticket|homework|review|questions?|unit|period|class|draft|copy)\b/gi;

/**
 * What the objectives call the text: the material's name without words like "Quiz" or
 * "Lesson" ("Frankenstein: Letter 1 Lesson" → "Frankenstein: Letter 1"), or "the passage"
 * when what is left is not a title a student would recognise ("GE1", "Period 3").
 */
export function lessonTopic(name: string): string {
  const cleaned = name
    // "The Lantern on Gull Rock (a short story)": a note on the title, not the title.
    .replace(/\s*\([^)]*\)/g, ' ')
    .replace(MATERIAL_WORDS, ' ')
    .replace(/\s*[-–—:,;|/]+\s*$/g, '')
    .replace(/^\s*[-–—:,;|/]+\s*/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  const hasRealWord = /\p{L}{4,}/u.test(cleaned.replace(/\b\p{Lu}+\d+\b/gu, ''));
  return hasRealWord ? `“${cleaned}”` : 'the passage';
}

/**
 * A lesson plan on the passage: objectives in the grade's terms, timed activities (warm-up,
 * vocabulary in context, guided reading with stop-and-think questions, discussion,
 * independent practice, exit ticket) summing to the requested length, differentiation,
 * assessment, and an exit ticket of three checked questions.
 */
export function writeLesson(
  ctx: WriterContext,
  request: GenerationRequest,
  vocabulary: VocabularyItem[],
  discussionPrompts: string[],
): { lesson: LessonPlan; exitTicketSpares: Question[] } {
  const level = ctx.plan.level;
  // A story's characters; an informational text's people are historical figures, not characters.
  const story = tellsAStory(detectGenre(ctx.analysis));
  const { people: everyone, characters } = peopleOf(ctx.analysis);
  // A second character only when the text follows them too ("Joseph found a skull" once is
  // not a character whose actions a class can describe).
  const mentions = (name: string) => ctx.analysis.names.get(name)?.count ?? 0;
  const people = characters
    .slice(0, 2)
    .filter((p, i) => i === 0 || mentions(p) >= Math.max(3, 0.4 * mentions(characters[0]!)));
  const genre = detectGenre(ctx.analysis);
  const figure = story ? undefined : everyone.find((p) => !commonNounToo(ctx, p));
  const themes = ctx.analysis.keyphrases
    .filter((k) => !everyone.some((p) => p.includes(k) || k.includes(p)) && worthATheme(ctx, k))
    .slice(0, 2);
  // What an explanation does (causes, contrasts) is a better aim than "what it shows about the water".
  const moves = story
    ? { argues: false, process: false, causes: false, contrasts: false }
    : textMoves(ctx);
  const words = vocabulary.slice(0, 3).map((v) => v.term);
  const topic = lessonTopic(request.name);
  const young = level <= 2;

  // What the text has decides the aims: a sequence aim only where things happen, a lesson aim
  // only where the text states one or someone comes to see something, a vocabulary aim only
  // naming the lesson's own words.
  const events = story && hasEvents(ctx);
  const linked = events && linksEvents(ctx);
  const learner = story ? whoLearns(ctx, people[0]) : null;

  const candidates: Array<string | null> = [
    story
      ? events
        ? young
          ? `retell the main events of ${topic} in order`
          : `summarise the key events of ${topic} in their own words`
        : genre === 'poem'
          ? `describe what ${topic} shows and the words that create its pictures`
          : `describe what ${topic} shows, using details from the text`
      : young
        ? `tell the main idea of ${topic} and two facts that show it`
        : `summarise the main ideas of ${topic} in their own words`,
    words.length
      ? young
        ? `say what the words ${list(words)} mean, using pictures and the story`
        : `explain the meaning of ${list(words)} using clues from the text`
      : null,
    figure
      ? `explain what ${figure} did and why it mattered, using evidence from the text`
      : people.length
        ? young
          ? `tell how ${people[0]} feels and why`
          : `describe how ${list(people)} ${people.length > 1 ? 'act' : 'acts'} and what this shows about ${people.length > 1 ? 'them' : 'the character'}`
        : !story && moves.argues && !young
          ? "identify the author's main claim and the reasons the text gives for it"
          : !story && moves.process
            ? young
              ? 'tell the steps the text describes, in order'
              : 'describe the steps of the process the text explains, in order, using evidence from it'
            : !story && moves.causes
              ? young
                ? 'tell what causes the things the text describes'
                : 'explain the causes and effects the text describes, using evidence from it'
              : story
                ? linked
                  ? 'explain how one event in the passage leads to another, using details from the text'
                  : null
                : 'identify the main idea of each paragraph and the details that support it',
    !story
      ? level >= 6
        ? 'identify the evidence the text gives for one of its main ideas and explain how it supports it'
        : young
          ? 'answer questions about the text using facts from it'
          : 'find two facts in the text that support its main idea'
      : level >= 6
        ? // "an interpretation of the snow / of combatants": a frequent noun is no target.
          'support an interpretation of the passage with a quotation from the text'
        : young
          ? 'answer questions about the text using details from it'
          : genre === 'poem'
            ? "explain the poem's message and the lines that show it, using details from the text"
            : learner
              ? `explain what ${learner} learns, using details from the text`
              : statesLesson(ctx)
                ? 'explain the lesson the story teaches, using details from the text'
                : null,
  ];
  const objectives = candidates.filter((o): o is string => !!o);
  // Never fewer than three aims: the plain ones that fit any text.
  const spares = events
    ? young
      ? ['tell what changes in the story and why']
      : [
          'identify the moment where things change in the story and explain why it matters, using details from the text',
        ]
    : genre === 'poem'
      ? ['explain the feeling the words of the poem create, quoting the words that create it']
      : [];
  spares.push(
    young
      ? 'answer questions about the text using details from it'
      : 'support an answer about the text with a quotation from it',
  );
  for (const spare of spares)
    if (objectives.length < 3 && !objectives.includes(spare)) objectives.push(spare);

  const passages = keyPassages(ctx, young ? 3 : 5);
  const minutes = timeBudget(ctx.plan.durationMinutes, [5, 8, 15, 10, 10, 5]);
  const [warm, vocab, reading, discussion, practice, exit] = minutes as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const stopAndThink = discussionPrompts.slice(0, 3);

  const activities: LessonPlan['activities'] = [
    {
      title: 'Warm-up',
      minutes: warm,
      grouping: 'whole class',
      steps: [
        themes.length
          ? `Ask: "What do you already know or think about ${themePhrase(themes[0]!, ctx)}?" Take three or four answers.`
          : topic === 'the passage'
            ? 'Read the first sentence aloud and ask students to predict what the passage will be about.'
            : `Show the title ${topic} and ask students to predict what the passage will be about.`,
        'Share the learning objectives and write them on the board.',
      ],
    },
    {
      title: 'Vocabulary in context',
      minutes: vocab,
      grouping: 'pairs',
      steps: vocabulary.length
        ? [
            `Display the words ${list(vocabulary.map((v) => v.term))} with the sentence each comes from.`,
            'Pairs guess each meaning from the sentence, then check against the definition.',
            'Students write one new sentence using a word of their choice.',
          ]
        : [
            'Students list unfamiliar words as they read and guess their meaning from the sentence around them.',
          ],
    },
    {
      title: 'Guided reading',
      minutes: reading,
      grouping: young ? 'whole class (teacher reads aloud)' : 'whole class, then pairs',
      steps: [
        young
          ? 'Read the passage aloud while students follow along.'
          : 'Read the passage aloud or in pairs, pausing at the key passages.',
        ...(passages.length
          ? [
              `Pause at: "${passages[0]}"${passages[1] ? ` and "${passages[1]}"` : ''} and ask students to restate them in their own words.`,
            ]
          : []),
        ...(stopAndThink.length ? [`Stop-and-think: ${stopAndThink[0]}`] : []),
      ],
    },
    {
      title: 'Discussion',
      minutes: discussion,
      grouping: 'small groups',
      steps: [
        ...(stopAndThink.slice(1).length
          ? stopAndThink.slice(1)
          : [
              story
                ? 'Groups discuss the most important moment of the passage and why it matters.'
                : 'Groups discuss the most important idea of the passage and the evidence the text gives for it.',
            ]),
        'Each group shares one answer with the evidence that supports it.',
      ],
    },
    {
      title: 'Independent practice',
      minutes: practice,
      grouping: 'individual',
      steps: [
        young
          ? story
            ? 'Students draw the most important part of the passage and write or dictate one sentence about it.'
            : 'Students draw or label a picture of one fact from the passage and write or dictate one sentence about it.'
          : level <= 8
            ? 'Students write a paragraph answering one discussion question, with at least one quotation from the text.'
            : 'Students write an analytical paragraph (claim, quotation, explanation) answering one discussion question.',
      ],
    },
    {
      title: 'Exit ticket',
      minutes: exit,
      grouping: 'individual',
      steps: ['Students answer the exit ticket questions on their own and hand them in.'],
    },
  ];

  // Exit ticket: one of each kind, checked by the gate like any question.
  const exitTicketSpares: Question[] = [
    ...writeMultipleChoice(ctx, 2),
    ...writeTrueFalse(ctx, 2),
    ...writeShortAnswer(ctx, 2),
  ];
  const byKind = (kind: Question['kind']) => exitTicketSpares.filter((q) => q.kind === kind);
  const exitTicket = [
    byKind('multiple_choice')[0],
    byKind('true_false')[0],
    byKind('short_answer')[0],
  ].filter((q): q is Question => !!q);

  const lesson: LessonPlan = {
    durationMinutes: minutes.reduce((a, b) => a + b, 0),
    objectives,
    materialsNeeded: [
      topic === 'the passage' ? 'Copies of the text' : `Copies of the text: ${topic}`,
      ...(vocabulary.length
        ? ['Vocabulary cards (word on one side, sentence from the text on the other)']
        : []),
      'Exit ticket slips',
    ],
    keyPassages: passages,
    activities,
    differentiation: {
      support: [
        'Pre-teach the vocabulary with the sentences from the text before reading.',
        young
          ? story
            ? 'Use pictures or acting out to show what happens.'
            : 'Use pictures or a simple diagram to show the main idea.'
          : `Give sentence frames: "I think ___ because the text says ___."`,
        'Read the key passages aloud and let students answer orally or with a partner.',
      ],
      extension: [
        !story
          ? level >= 6
            ? 'Find one more source on the topic and compare what it says with the passage, quoting each.'
            : 'Write two questions the passage leaves open and say where you could find the answers.'
          : level >= 6
            ? 'Compare how this passage and another chapter treat the same theme, with a quotation from each.'
            : 'Write what happens next, keeping the characters as the text shows them.',
        level >= 9
          ? "Analyse one of the author's word choices and how it shapes the reader's view."
          : 'Find two more words in the passage that are new to you and work out their meaning.',
      ],
      languageLearners: [
        'Provide a bilingual glossary of the vocabulary words.',
        'Pair with a supportive partner for the reading and discussion.',
      ],
    },
    assessment: [
      'Listen during the discussion for answers that use evidence from the text.',
      'Check the independent practice for a clear answer and at least one accurate quotation.',
      'Exit ticket: all three correct shows the objectives were met; re-teach with those who miss two or more.',
    ],
    exitTicket: exitTicket.length ? exitTicket : exitTicketSpares.slice(0, 3),
  };
  return { lesson, exitTicketSpares: exitTicketSpares.filter((q) => !exitTicket.includes(q)) };
}

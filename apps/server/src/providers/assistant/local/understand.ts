import { GRADES, type ASSISTANT_MATERIAL_TYPES } from '@chapterwise/shared';
import { CARDINALS } from '../../../lib/number-words.js';

/** The teacher requests the offline assistant understands. */
export type Intent =
  | { kind: 'discussion'; count: number }
  | { kind: 'summary' }
  | { kind: 'key_passages'; count: number }
  | { kind: 'characters' }
  | { kind: 'vocabulary'; count: number }
  | { kind: 'reading_level' }
  | { kind: 'make_material'; type: (typeof ASSISTANT_MATERIAL_TYPES)[number] }
  | { kind: 'find_books'; topic: string }
  | { kind: 'adapt'; grade: string }
  | { kind: 'search'; query: string }
  | { kind: 'beyond'; query: string }
  | { kind: 'help' };

/** Counts in a message: the shared cardinals up to twenty, and "few", "some", "several". */
const NUMBER_WORDS: Record<string, number> = {
  ...Object.fromEntries(Object.entries(CARDINALS).filter(([, n]) => n <= 20)),
  few: 3,
  some: 5,
  several: 5,
};

/** "three discussion questions" → 3; the default when the message gives no number. */
function countBefore(text: string, noun: string, fallback: number, max: number): number {
  const re = new RegExp(
    `\\b(\\d{1,2}|${Object.keys(NUMBER_WORDS).join('|')})\\s+(?:[a-z-]+\\s+){0,3}?(?:${noun})`,
  );
  const match = re.exec(text);
  if (!match?.[1]) return fallback;
  const n = Number(match[1]) || NUMBER_WORDS[match[1]] || fallback;
  return Math.max(1, Math.min(max, n));
}

/** A grade named in a message ("grade 5", "5th grade", "year 6", "kindergarten"), as the form's grade. */
export function gradeIn(text: string): string | undefined {
  const t = text.toLowerCase();
  if (/\bkindergarten\b/.test(t)) return GRADES[0];
  if (/\b(?:college|university|collegiate)\b/.test(t)) return GRADES[13];
  const grade =
    /\bgrade\s+(\d{1,2})\b/.exec(t) ??
    /\b(\d{1,2})(?:st|nd|rd|th)[\s-]+grade/.exec(t) ??
    /\b(\d{1,2})(?:st|nd|rd|th)[\s-]+graders?\b/.exec(t);
  if (grade?.[1]) {
    const n = Number(grade[1]);
    if (n >= 1 && n <= 12) return GRADES[n];
  }
  const year = /\byear\s+(\d{1,2})\b/.exec(t);
  if (year?.[1]) {
    const n = Number(year[1]) - 1;
    if (n >= 0 && n <= 12) return GRADES[n];
  }
  return undefined;
}

/** Words that say what to do rather than what about: left out of retrieval queries. */
const REQUEST_WORDS = new Set(
  (
    'a an the and or but of to in on at for with about from by into this that these those it its is are was were be ' +
    'i me my we our you your they them their he she his her him please can could would should will may might ' +
    'give make create write generate show find list tell get need want like help me us some any all few more ' +
    'three two one four five six seven eight nine ten several what which who whom where when why how do does did ' +
    'question questions discussion discuss passage passages quote quotes text chapter chapters book books letter ' +
    'story novel page pages part section here there just also only very really let lets'
  ).split(' '),
);

/** The content words of a message, for full-text retrieval. */
export function topicOf(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9' -]+/g, ' ')
    .split(/\s+/)
    .map((w) => w.replace(/^'+|'+$/g, ''))
    .filter((w) => w.length > 2 && !REQUEST_WORDS.has(w) && !/^\d+$/.test(w))
    .join(' ');
}

/**
 * What the teacher asks for, from the words of the message. Checked from the most specific
 * request to the most general; anything else is a search of the text or, without one, help.
 */
export function understand(message: string, fallbackGrade: string): Intent {
  const t = ` ${message.toLowerCase().replace(/\s+/g, ' ')} `;

  const books =
    /\b(?:find|recommend|suggest|search for|look for|looking for|any|list|which|what|other)\b[^.?!]*\b(?:books?|novels?|stories|texts|titles|reads)\b\s+(?:about|on|with|featuring|for|that)\s+([^.?!]+)/.exec(
      t,
    ) ?? /\bbooks?\s+(?:about|on)\s+([^.?!]+)/.exec(t);
  if (books?.[1] && !/\b(?:this|the)\s+(?:chapter|passage|text)\b/.test(t)) {
    const topic = books[1].replace(/\b(?:for|to)\s+(?:my|a|the)\s+class\b.*$/, '').trim();
    if (topic) return { kind: 'find_books', topic };
  }

  if (
    /\b(?:adapt|simplif(?:y|ied)|rewrite|re-level|level down|make (?:it|this) easier|easier to read)\b/.test(
      t,
    )
  ) {
    return { kind: 'adapt', grade: gradeIn(t) ?? fallbackGrade };
  }

  if (
    !/\bquestions?\b|\bprompts?\b/.test(t) &&
    /\bkey (?:passages?|quotes?|quotations?|moments?|lines?|sentences?)\b|\bimportant (?:passages?|quotes?|quotations?|lines?|moments?)\b|\bbest (?:quotes?|passages?|lines?)\b|\bquotes? (?:to|for) (?:teach|discuss|analy[sz]e)\b/.test(
      t,
    )
  ) {
    return {
      kind: 'key_passages',
      count: countBefore(t, 'passages?|quotes?|quotations?|moments?|lines?|sentences?', 5, 10),
    };
  }
  if (
    /\bdiscussion\b|\bdiscuss\b|\bquestions? (?:to|for) (?:discuss|talk|debate)|\bseminar questions?\b|\bessay (?:questions?|prompts?)\b|\bwriting prompts?\b/.test(
      t,
    )
  ) {
    return { kind: 'discussion', count: countBefore(t, 'questions?|prompts?', 3, 8) };
  }

  const material =
    /\b(?:make|create|generate|write|build|prepare|design|turn (?:it|this) into)\b[^.?!]*\b(quiz|test|lesson(?: plan)?|worksheet)\b/.exec(
      t,
    );
  if (material?.[1]) {
    const type = material[1].startsWith('lesson')
      ? 'Lesson'
      : material[1] === 'worksheet'
        ? 'Worksheet'
        : 'Quiz';
    return { kind: 'make_material', type };
  }

  if (
    /\bvocab(?:ulary)?\b|\bword list\b|\bglossary\b|\b(?:hard|difficult|key|new|tricky) words\b|\bwords? to (?:know|teach|learn)\b/.test(
      t,
    )
  ) {
    return { kind: 'vocabulary', count: countBefore(t, 'words?|terms?|vocab', 10, 20) };
  }
  if (
    /\bcharacters?\b|\bwho(?:'s| is| are)\b[^.?!]*\b(?:in|mentioned)\b|\bpeople in\b|\bcast\b|\bnames? in\b/.test(
      t,
    )
  ) {
    return { kind: 'characters' };
  }
  if (
    /\breading (?:level|age|grade)\b|\bgrade level\b|\breadability\b|\blexile\b|\bhow (?:hard|difficult|easy|long)\b|\btoo (?:hard|difficult)\b|\bsuitable for\b|\bright level\b/.test(
      t,
    )
  ) {
    return { kind: 'reading_level' };
  }
  if (
    /\bsummar(?:y|ise|ize|ies)\b|\bsum (?:it )?up\b|\bgist\b|\boverview\b|\bwhat happens\b|\bwhat is (?:it|this|the (?:chapter|text|passage)) about\b|\brecap\b|\bsynopsis\b/.test(
      t,
    )
  ) {
    return { kind: 'summary' };
  }
  if (
    /^\s*(?:hi|hello|hey|help|thanks|thank you|good (?:morning|afternoon|evening))\b[\s!.?]*$/.test(
      t,
    ) ||
    /\bwhat can you do\b|\bhow do(?:es)? (?:you|this|it) work\b/.test(t)
  ) {
    return { kind: 'help' };
  }
  const topic = topicOf(message);
  if (
    /\b(?:why|explain|theme|themes|symbol|symbolism|meaning|opinion|think|analy[sz]e|compare|contrast|interpret|essay|poem|translate|mark|grade my|feedback|rubric)\b/.test(
      t,
    )
  ) {
    return { kind: 'beyond', query: topic };
  }
  return topic ? { kind: 'search', query: topic } : { kind: 'help' };
}

import { gradeLevel, type MaterialDocument } from '@chapterwise/shared';
import type {
  AnswerSink,
  AssistantEngine,
  AssistantTools,
  AssistantTurn,
  Passage,
  TurnContext,
} from '../types.js';
import {
  findCharacters,
  splitLongSentence,
  summarySentences,
  targetSentenceWords,
} from './reading.js';
import { Source } from './source.js';
import { topicOf, understand } from './understand.js';

/** Markdown special characters in quoted text, escaped so a quote shows as written. */
export function escapeMarkdown(text: string): string {
  return text
    .replace(/\s+/g, ' ')
    .replace(/([\\[\]*`<>#|])/g, '\\$1')
    .trim();
}

const WORDS = [
  'zero',
  'one',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
];
const say = (n: number) => WORDS[n] ?? String(n);
const plural = (n: number, word: string) => `${say(n)} ${word}${n === 1 ? '' : 's'}`;

const CAN_DO = [
  'discussion questions, each resting on a passage',
  'a summary in the text’s own words',
  'key passages',
  'the characters and where they first appear',
  'a vocabulary list with meanings',
  'the reading level',
  'a passage adapted towards a grade (long sentences split, hard words explained)',
  'passages about a topic, and books about a subject',
  'a quiz, lesson or worksheet through the material generator',
];

const ABOUT_HINT =
  'Choose a book or chapter under **About**, paste a text there, or name it in your message (for example “discussion questions about Letter 1 of Frankenstein”).';

/**
 * The offline assistant. It understands a fixed set of teacher requests (see understand.ts),
 * answers them from the text itself (quoted sentences, each traced to its paragraph) and from the
 * material generator's checked output, and says plainly when a request is beyond it.
 */
export class LocalAssistantEngine implements AssistantEngine {
  readonly name = 'local' as const;

  async answer(
    turn: AssistantTurn,
    tools: AssistantTools,
    sink: AnswerSink,
    signal: AbortSignal,
  ): Promise<void> {
    const intent = understand(turn.message, turn.grade);
    let context = turn.context;
    if (intent.kind !== 'find_books' && intent.kind !== 'help') {
      const named = await tools.resolveMention(turn.message);
      if (named && (named.kind === 'chapter' || context.kind === 'any')) {
        context = named;
        sink.useContext(named);
      }
    }
    const w = new Writer(sink);

    if (intent.kind === 'help') return this.help(w, context);
    if (intent.kind === 'find_books') return this.findBooks(w, tools, intent.topic);
    if (context.kind === 'any') {
      if (intent.kind === 'search' || intent.kind === 'beyond') {
        if (intent.kind === 'beyond') this.beyond(w);
        return this.searchAll(w, tools, intent.query);
      }
      w.line(`I can do that once I know which text you mean. ${ABOUT_HINT}`);
      return;
    }
    const source = await this.sourceFor(context, tools, turn.message);
    if (!source || source.words < 20) {
      w.line(`I could not find enough of the text of ${context.label} to work from. ${ABOUT_HINT}`);
      return;
    }
    if (signal.aborted) return;
    const about = context.kind === 'book' ? `passages of ${context.label}` : context.label;

    switch (intent.kind) {
      case 'discussion':
        return this.discussion(w, tools, source, about, turn.grade, intent.count, signal);
      case 'summary':
        return this.summary(w, source, about);
      case 'key_passages':
        return this.keyPassages(w, tools, source, about, turn.grade, intent.count, signal);
      case 'characters':
        return this.characters(w, source, about);
      case 'vocabulary':
        return this.vocabulary(w, tools, source, about, turn.grade, intent.count, signal);
      case 'reading_level':
        return this.readingLevel(w, tools, source, context, about);
      case 'make_material':
        w.line(
          `I can make a **${intent.type}** from ${about} with the material generator: it writes the questions from the text and checks every answer against it. It uses one generation credit (none with a subscription). Press **Make a ${intent.type.toLowerCase()} from this** below the answer to start it; the link to the finished ${intent.type.toLowerCase()} appears here.`,
        );
        return;
      case 'adapt':
        return this.adapt(w, tools, source, about, intent.grade, signal);
      case 'beyond':
        this.beyond(w);
        return this.searchIn(w, tools, source, context, intent.query);
      case 'search':
        return this.searchIn(w, tools, source, context, intent.query);
    }
  }

  /** The text to work from: the chapter or pasted text, or a book's passages on the message's topic. */
  private async sourceFor(
    context: TurnContext,
    tools: AssistantTools,
    message: string,
  ): Promise<Source | null> {
    if (context.kind === 'chapter' && context.text && context.book && context.chapter) {
      return Source.ofText(context.text, {
        source: 'chapter',
        bookUrl: context.book.url,
        bookTitle: context.book.title,
        chapterUrl: context.chapter.url,
        chapterTitle: context.chapter.title,
      });
    }
    if (context.kind === 'text' && context.text) {
      return Source.ofText(context.text, { source: 'text' });
    }
    if (context.kind === 'book' && context.book) {
      const topic = topicOf(message);
      let passages = topic
        ? await tools.searchPassages(topic, { bookUrl: context.book.url }, 40)
        : [];
      if (passages.length < 8) {
        // No topic (or little on it): the book's opening passages.
        passages = [
          ...passages,
          ...(await tools.searchPassages('', { bookUrl: context.book.url }, 60)),
        ];
      }
      return passages.length ? Source.ofPassages(passages) : null;
    }
    return null;
  }

  private help(w: Writer, context: TurnContext): void {
    w.line(
      `I am the built-in teaching assistant. I work offline, from the books’ own text, so everything I quote can be checked. ${context.kind === 'any' ? '' : `We are looking at ${context.label}. `}I can give you:`,
    );
    w.list(CAN_DO);
    w.line(
      'I cannot hold a free conversation, explain themes in my own words or write new text; when your school connects a language model, the assistant can.',
    );
    if (context.kind === 'any') w.line(ABOUT_HINT);
  }

  private beyond(w: Writer): void {
    w.line(
      'The built-in assistant cannot interpret, explain or write new text: it works offline and only shows what the text says. Here is what the text holds on your question, to work from:',
    );
  }

  private async discussion(
    w: Writer,
    tools: AssistantTools,
    source: Source,
    about: string,
    grade: string,
    count: number,
    signal: AbortSignal,
  ): Promise<void> {
    w.line(
      `Here ${count === 1 ? 'is one discussion question' : `are ${say(count)} discussion questions`} about ${about}, each with the passage it rests on.`,
    );
    const document = await this.generate(tools, source, {
      type: 'Quiz',
      description: `${count} discussion questions only`,
      grade,
      signal,
    });
    const questions = document?.sections.flatMap((s) => s.questions) ?? [];
    if (questions.length === 0) {
      w.line(
        'The text did not support any discussion question I could check. Try a longer passage.',
      );
      return;
    }
    questions.forEach((q, i) => {
      const evidence = 'evidence' in q ? q.evidence : '';
      const cited = evidence ? source.locate(evidence) : null;
      const parts = [`${i + 1}. **${escapeMarkdown(q.prompt)}**`];
      if (cited) parts.push(`   > ${escapeMarkdown(evidence)} [${w.cite(cited)}]`);
      if ('answer' in q && typeof q.answer === 'string' && q.answer)
        parts.push(`   *What to look for:* ${escapeMarkdown(q.answer)}`);
      w.block(parts.join('\n\n'));
    });
    if (questions.length < count)
      w.line(
        `The text supported ${plural(questions.length, 'question')} I could check against it.`,
      );
  }

  private summary(w: Writer, source: Source, about: string): void {
    w.line(
      `${about.charAt(0).toUpperCase()}${about.slice(1)} in sentences of its own, from beginning to end (I pick the text’s sentences rather than paraphrase, so each can be checked):`,
    );
    const count = Math.max(3, Math.min(8, Math.round(source.words / 600)));
    const picked = summarySentences(source, count);
    if (picked.length === 0) {
      w.line('The text is too short to summarise.');
      return;
    }
    for (const s of picked) w.block(`- ${escapeMarkdown(s.text)} [${w.cite(source.passageOf(s))}]`);
  }

  private async keyPassages(
    w: Writer,
    tools: AssistantTools,
    source: Source,
    about: string,
    grade: string,
    count: number,
    signal: AbortSignal,
  ): Promise<void> {
    w.line(`Key passages of ${about}, in the order they come:`);
    const document = await this.generate(tools, source, {
      type: 'Lesson',
      description: `1 discussion question only, ${count} key passages`,
      grade,
      signal,
    });
    const fromLesson = (document?.lesson?.keyPassages ?? [])
      .map((quote) => ({ quote, at: source.locate(quote) }))
      .filter((p): p is { quote: string; at: Passage } => !!p.at);
    // The generator picks a few; the summary's sentences complete the list.
    const more = summarySentences(source, count + 2)
      .map((s) => ({ quote: s.text, at: source.passageOf(s) }))
      .filter(
        (s) => !fromLesson.some((p) => p.quote.includes(s.quote) || s.quote.includes(p.quote)),
      );
    const picked = [...fromLesson, ...more]
      .slice(0, count)
      .sort((a, b) => a.at.paragraph - b.at.paragraph);
    for (const p of picked) w.block(`> ${escapeMarkdown(p.quote)} [${w.cite(p.at)}]`);
  }

  private characters(w: Writer, source: Source, about: string): void {
    w.line(`The people named in ${about}, most mentioned first, with where each first appears:`);
    const people = findCharacters(source, 10);
    if (people.length === 0) {
      w.line('I found no named characters in it.');
      return;
    }
    for (const c of people) {
      w.block(
        `- **${escapeMarkdown(c.name)}** (${plural(c.mentions, 'mention')})\n  > ${escapeMarkdown(c.first.text)} [${w.cite(source.passageOf(c.first))}]`,
      );
    }
    w.line(
      'I find names by how the text uses them; I cannot describe the characters in my own words.',
    );
  }

  private async vocabulary(
    w: Writer,
    tools: AssistantTools,
    source: Source,
    about: string,
    grade: string,
    count: number,
    signal: AbortSignal,
  ): Promise<void> {
    w.line(`A vocabulary list for ${about}, with each word as the text uses it:`);
    const document = await this.generate(tools, source, {
      type: 'Worksheet',
      description: `1 short answer question only, ${count} vocabulary words`,
      grade,
      signal,
    });
    const items = document?.vocabulary ?? [];
    if (items.length === 0) {
      w.line('I found no words in the text to teach at this grade.');
      return;
    }
    for (const item of items) {
      const at = source.locate(item.context);
      w.block(
        `- **${escapeMarkdown(item.term)}** (${item.partOfSpeech}): ${escapeMarkdown(item.definition)}\n  > ${escapeMarkdown(item.context)}${at ? ` [${w.cite(at)}]` : ''}`,
      );
    }
    w.line('Meanings come from WordNet, in the sense that fits the sentence.');
  }

  private readingLevel(
    w: Writer,
    tools: AssistantTools,
    source: Source,
    context: TurnContext,
    about: string,
  ): void {
    const measure = tools.measure(source.text);
    const grade = context.chapter?.readingGrade ?? measure.grade;
    const band = Math.round(grade);
    w.line(
      `${about.charAt(0).toUpperCase()}${about.slice(1)}: **${measure.words.toLocaleString('en-US')} words**, about ${measure.minutes} minute${measure.minutes === 1 ? '' : 's'} of reading, Flesch–Kincaid grade **${grade.toFixed(1)}** (${band <= 0 ? 'kindergarten' : band >= 13 ? 'college level' : `about grade ${band}`}). The score counts words per sentence and syllables per word; it does not judge ideas or old-fashioned vocabulary.`,
    );
    const longest = [...source.sentences()].sort((a, b) => b.words - a.words).slice(0, 2);
    if (longest.length) {
      w.line('Its longest sentences, the hardest to read aloud:');
      for (const s of longest)
        w.block(`> ${escapeMarkdown(s.text)} [${w.cite(source.passageOf(s))}]`);
    }
  }

  private async adapt(
    w: Writer,
    tools: AssistantTools,
    source: Source,
    about: string,
    grade: string,
    signal: AbortSignal,
  ): Promise<void> {
    // The passage: the opening paragraphs of the text, about 150–300 words of prose.
    const chosen: typeof source.paragraphs = [];
    let words = 0;
    for (const p of source.paragraphs) {
      const n = p.text.split(/\s+/).length;
      if (n < 25 && chosen.length === 0) continue;
      chosen.push(p);
      words += n;
      if (words >= 150) break;
    }
    if (chosen.length === 0) {
      w.line('I found no passage of prose long enough to adapt.');
      return;
    }
    const passage = new Source(chosen);
    const target = targetSentenceWords(gradeLevel(grade));
    const before = tools.measure(passage.text);
    w.line(
      `The built-in assistant cannot rewrite the author’s words in simpler language. It can make a passage easier to read for **${grade}**: long sentences split at their natural joints (about ${Math.round(target)} words each), the author’s words kept, and hard words explained below. From ${about}:`,
    );
    const adapted = passage.paragraphs.map((p) =>
      passage
        .sentences()
        .filter((s) => passage.paragraphs[s.p] === p)
        .flatMap((s) => splitLongSentence(s.text, target))
        .join(' '),
    );
    const after = tools.measure(adapted.join('\n\n'));
    w.block(adapted.map((p) => escapeMarkdown(p)).join('\n\n'));
    w.line(
      `Reading level: grade ${before.grade.toFixed(1)} before, ${after.grade.toFixed(1)} after (Flesch–Kincaid). The original is paragraph${chosen.length > 1 ? 's' : ''} ${chosen.map((p) => p.at.paragraph).join(', ')} [${w.cite({ ...chosen[0]!.at, text: chosen[0]!.text })}].`,
    );
    const document = await this.generate(tools, passage, {
      type: 'Worksheet',
      description: '1 short answer question only, 6 vocabulary words',
      grade,
      signal,
    });
    const items = document?.vocabulary ?? [];
    if (items.length) {
      w.line('**Words to explain first:**');
      w.list(items.map((v) => `**${escapeMarkdown(v.term)}**: ${escapeMarkdown(v.definition)}`));
    }
  }

  private async findBooks(w: Writer, tools: AssistantTools, topic: string): Promise<void> {
    w.line(`Books in the catalogue about **${escapeMarkdown(topic)}**:`);
    const hits = await tools.findBooks(topic, 8);
    if (hits.length === 0) {
      w.line('I found none. Try another word, or browse the subjects at [Books](/books).');
      return;
    }
    for (const hit of hits) {
      const line = `- [${escapeMarkdown(hit.title)}](/book/${encodeURIComponent(hit.url)})${hit.author ? ` by ${escapeMarkdown(hit.author)}` : ''}${hit.chapterCount ? '' : ' (listed without its text)'}`;
      w.block(
        hit.passage
          ? `${line}\n  > ${escapeMarkdown(hit.passage.text)} [${w.cite(hit.passage)}]`
          : line,
      );
    }
  }

  private async searchAll(w: Writer, tools: AssistantTools, query: string): Promise<void> {
    const passages = query ? await tools.searchPassages(query, {}, 5) : [];
    if (passages.length === 0) {
      w.line(`I found nothing on that in the books’ text. ${ABOUT_HINT}`);
      return;
    }
    w.line('Passages in the catalogue’s books that match your words:');
    for (const p of passages) {
      w.block(
        `- *${escapeMarkdown(p.chapterTitle ?? '')}, ${escapeMarkdown(p.bookTitle ?? '')}*\n  > ${escapeMarkdown(firstSentences(p.text))} [${w.cite({ ...p, text: firstSentences(p.text) })}]`,
      );
    }
    w.line(`To work with one text, ${ABOUT_HINT.charAt(0).toLowerCase()}${ABOUT_HINT.slice(1)}`);
  }

  private async searchIn(
    w: Writer,
    tools: AssistantTools,
    source: Source,
    context: TurnContext,
    query: string,
  ): Promise<void> {
    let passages: Passage[] = [];
    if (query && context.book && context.kind !== 'text') {
      passages = await tools.searchPassages(
        query,
        {
          bookUrl: context.book.url,
          chapterUrl: context.chapter?.url,
        },
        5,
      );
    } else if (query) {
      const words = query.split(' ');
      passages = source.paragraphs
        .map((p) => ({ p, hits: words.filter((word) => p.normalised.includes(word)).length }))
        .filter((x) => x.hits > 0)
        .sort((a, b) => b.hits - a.hits)
        .slice(0, 5)
        .map((x) => ({ ...x.p.at, text: x.p.text }));
    }
    if (passages.length === 0) {
      w.line(
        `I did not understand that request, and found no passage of ${context.label} with those words. I can give you:`,
      );
      w.list(CAN_DO);
      return;
    }
    w.line(`Passages of ${context.label} with those words:`);
    for (const p of passages) {
      const quote = firstSentences(p.text);
      w.block(`> ${escapeMarkdown(quote)} [${w.cite({ ...p, text: quote })}]`);
    }
  }

  /** The generator's checked document for the source text, or null when the text is too short for it. */
  private async generate(
    tools: AssistantTools,
    source: Source,
    request: { type: string; description: string; grade: string; signal: AbortSignal },
  ): Promise<MaterialDocument | null> {
    try {
      return await tools.generate(
        {
          type: request.type,
          description: request.description,
          grade: request.grade,
          text: source.text,
        },
        request.signal,
      );
    } catch (error) {
      if (request.signal.aborted) throw error;
      return null;
    }
  }
}

/** Up to about 60 words of a paragraph, cut at a sentence end. */
function firstSentences(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  const words = flat.split(' ');
  if (words.length <= 60) return flat;
  const cut = words.slice(0, 60).join(' ');
  const end = Math.max(cut.lastIndexOf('. '), cut.lastIndexOf('! '), cut.lastIndexOf('? '));
  return end > 40 ? cut.slice(0, end + 1) : flat;
}

/** Writes Markdown blocks to the sink and numbers citations. */
class Writer {
  private first = true;
  constructor(private readonly sink: AnswerSink) {}

  block(markdown: string): void {
    this.sink.write(`${this.first ? '' : '\n\n'}${markdown}`);
    this.first = false;
  }

  line(text: string): void {
    this.block(text);
  }

  list(items: string[]): void {
    this.block(items.map((i) => `- ${i}`).join('\n'));
  }

  cite(passage: Passage): number {
    return this.sink.cite(passage);
  }
}

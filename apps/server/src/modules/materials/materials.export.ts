import {
  BorderStyle,
  Document,
  HeadingLevel,
  Packer,
  Paragraph,
  Table,
  TableCell,
  TableRow,
  TextRun,
  WidthType,
} from 'docx';
import {
  answerText,
  choiceLetter,
  EVIDENCE_NOT_FOUND_MESSAGE,
  evidenceMissing,
  evidenceOf,
  orderOf,
  renderMaterialText,
  type MaterialDocument,
  type Question,
} from '@chapterwise/shared';

export type ExportCopy = 'teacher' | 'student';

/** Raw text: the spec's output text (student copy: without lesson plan and answer key). */
export function exportText(document: MaterialDocument, copy: ExportCopy): string {
  return renderMaterialText(document, { copy });
}

const INDENT = { left: 480 };
const LINE = '_______________________________________________________________';

function quoted(text: string): string {
  return /["“”]/.test(text) ? text : `“${text}”`;
}

type ParagraphOptions = Exclude<ConstructorParameters<typeof Paragraph>[0], string>;

function para(text: string, options: Omit<ParagraphOptions, 'children' | 'text'> = {}): Paragraph {
  return new Paragraph({ children: [new TextRun(text)], spacing: { after: 80 }, ...options });
}

function questionParagraphs(
  question: Question,
  number: number,
  student: boolean,
): Array<Paragraph | Table> {
  const out: Array<Paragraph | Table> = [];
  const prompt =
    question.kind === 'true_false' ? `True or false: ${question.prompt}` : question.prompt;
  out.push(
    new Paragraph({
      children: [new TextRun({ text: `${number}. `, bold: true }), new TextRun(prompt)],
      spacing: { before: 160, after: 80 },
      keepNext: true,
    }),
  );
  switch (question.kind) {
    case 'multiple_choice':
      question.choices.forEach((choice, i) =>
        out.push(para(`${choiceLetter(i)}. ${choice}`, { indent: INDENT })),
      );
      break;
    case 'true_false':
      out.push(para('True / False', { indent: INDENT }));
      break;
    case 'short_answer':
      out.push(para(LINE, { indent: INDENT }));
      if (student) out.push(para(LINE, { indent: INDENT }));
      break;
    case 'discussion':
      if (student) for (let i = 0; i < 4; i++) out.push(para(LINE, { indent: INDENT }));
      break;
    case 'matching': {
      const order = orderOf(question);
      const rows = question.pairs.map(
        (pair, i) =>
          new TableRow({
            children: [
              new TableCell({
                width: { size: 40, type: WidthType.PERCENTAGE },
                children: [para(`____ ${i + 1}) ${pair.left}`)],
              }),
              new TableCell({
                width: { size: 60, type: WidthType.PERCENTAGE },
                children: [
                  para(`${choiceLetter(i)}. ${question.pairs[order[i] ?? i]?.right ?? ''}`),
                ],
              }),
            ],
          }),
      );
      out.push(
        new Table({
          width: { size: 100, type: WidthType.PERCENTAGE },
          rows,
          borders: {
            top: { style: BorderStyle.NONE, size: 0, color: 'FFFFFF' },
            bottom: { style: BorderStyle.NONE, size: 0, color: 'FFFFFF' },
            left: { style: BorderStyle.NONE, size: 0, color: 'FFFFFF' },
            right: { style: BorderStyle.NONE, size: 0, color: 'FFFFFF' },
            insideHorizontal: { style: BorderStyle.NONE, size: 0, color: 'FFFFFF' },
            insideVertical: { style: BorderStyle.NONE, size: 0, color: 'FFFFFF' },
          },
        }),
      );
      break;
    }
    case 'fill_blank':
      break;
  }
  return out;
}

/** The teacher copy's warning under a quote a teacher's edit left outside the reference text. */
function evidenceWarning(): Paragraph {
  return new Paragraph({
    children: [
      new TextRun({ text: 'Warning: ', bold: true, color: '9A3412' }),
      new TextRun({ text: EVIDENCE_NOT_FOUND_MESSAGE, color: '9A3412' }),
    ],
    indent: INDENT,
  });
}

function bullets(items: string[], prefix = '•'): Paragraph[] {
  return items.map((item) => para(`${prefix} ${item}`, { indent: INDENT }));
}

/**
 * A Word document: title, grade/subject/type, name and date lines on the student copy,
 * instructions, the lesson plan (teacher copy), vocabulary, numbered questions with lettered
 * choices by part, and the answer key with its evidence quotes on its own page (teacher copy).
 */
export async function exportDocx(document: MaterialDocument, copy: ExportCopy): Promise<Buffer> {
  const student = copy === 'student';
  const children: Array<Paragraph | Table> = [];
  children.push(new Paragraph({ text: document.title, heading: HeadingLevel.TITLE }));
  children.push(
    para(
      [
        document.grade && `Grade: ${document.grade}`,
        document.subject && `Subject: ${document.subject}`,
        `Type: ${document.type}`,
      ]
        .filter(Boolean)
        .join('   |   '),
    ),
  );
  if (student)
    children.push(
      para('Name: ______________________________     Date: ________________', {
        spacing: { before: 200, after: 200 },
      }),
    );
  if (document.instructions) {
    children.push(
      new Paragraph({
        children: [
          new TextRun({ text: 'Instructions: ', bold: true }),
          new TextRun(document.instructions),
        ],
        spacing: { before: 120, after: 160 },
      }),
    );
  }

  const lesson = document.lesson;
  if (lesson && !student) {
    children.push(
      new Paragraph({
        text: `Lesson plan (${lesson.durationMinutes} minutes)`,
        heading: HeadingLevel.HEADING_1,
      }),
    );
    children.push(new Paragraph({ text: 'Learning objectives', heading: HeadingLevel.HEADING_2 }));
    children.push(para('Students will be able to:'));
    children.push(...bullets(lesson.objectives));
    if (lesson.materialsNeeded.length) {
      children.push(new Paragraph({ text: 'Materials', heading: HeadingLevel.HEADING_2 }));
      children.push(...bullets(lesson.materialsNeeded));
    }
    if (lesson.keyPassages.length) {
      children.push(new Paragraph({ text: 'Key passages', heading: HeadingLevel.HEADING_2 }));
      children.push(...bullets(lesson.keyPassages.map(quoted)));
    }
    children.push(new Paragraph({ text: 'Activities', heading: HeadingLevel.HEADING_2 }));
    lesson.activities.forEach((activity, i) => {
      children.push(
        new Paragraph({
          children: [
            new TextRun({ text: `${i + 1}. ${activity.title}`, bold: true }),
            new TextRun(
              ` (${activity.minutes} min${activity.grouping ? `, ${activity.grouping}` : ''})`,
            ),
          ],
          spacing: { before: 120, after: 60 },
        }),
      );
      children.push(...bullets(activity.steps, '–'));
    });
    children.push(new Paragraph({ text: 'Differentiation', heading: HeadingLevel.HEADING_2 }));
    children.push(...bullets(lesson.differentiation.support.map((s) => `Support: ${s}`)));
    children.push(...bullets(lesson.differentiation.extension.map((s) => `Extension: ${s}`)));
    children.push(
      ...bullets(lesson.differentiation.languageLearners.map((s) => `Language learners: ${s}`)),
    );
    children.push(new Paragraph({ text: 'Assessment', heading: HeadingLevel.HEADING_2 }));
    children.push(...bullets(lesson.assessment));
  }

  if (document.vocabulary.length) {
    children.push(new Paragraph({ text: 'Vocabulary', heading: HeadingLevel.HEADING_1 }));
    document.vocabulary.forEach((item, i) => {
      children.push(
        new Paragraph({
          children: [
            new TextRun({ text: `${i + 1}. ${item.term}`, bold: true }),
            new TextRun(item.partOfSpeech ? ` (${item.partOfSpeech})` : ''),
            new TextRun(`: ${item.definition}`),
          ],
          spacing: { before: 100, after: 40 },
        }),
      );
      children.push(
        new Paragraph({
          children: [new TextRun({ text: quoted(item.context), italics: true })],
          indent: INDENT,
        }),
      );
      if (!student && evidenceMissing(item)) children.push(evidenceWarning());
    });
  }

  let number = 0;
  const numbered: Array<[Question, number]> = [];
  document.sections.forEach((section, s) => {
    if (!section.questions.length) return;
    children.push(
      new Paragraph({ text: `Part ${s + 1}: ${section.title}`, heading: HeadingLevel.HEADING_1 }),
    );
    if (section.instructions)
      children.push(
        new Paragraph({ children: [new TextRun({ text: section.instructions, italics: true })] }),
      );
    for (const question of section.questions) {
      number += 1;
      numbered.push([question, number]);
      children.push(...questionParagraphs(question, number, student));
    }
  });
  if (lesson) {
    children.push(new Paragraph({ text: 'Exit ticket', heading: HeadingLevel.HEADING_1 }));
    for (const question of lesson.exitTicket) {
      number += 1;
      numbered.push([question, number]);
      children.push(...questionParagraphs(question, number, student));
    }
  }

  if (!student && numbered.length) {
    children.push(
      new Paragraph({ text: 'Answer Key', heading: HeadingLevel.HEADING_1, pageBreakBefore: true }),
    );
    for (const [question, n] of numbered) {
      children.push(
        new Paragraph({
          children: [
            new TextRun({ text: `${n}. `, bold: true }),
            new TextRun(answerText(question)),
          ],
          spacing: { before: 120, after: 40 },
        }),
      );
      const lines =
        question.kind === 'true_false' && !question.answer && question.correction
          ? [`The text says: ${quoted(question.correction)}`]
          : evidenceOf(question).map((e) => `Evidence: ${quoted(e)}`);
      for (const line of lines) {
        children.push(
          new Paragraph({ children: [new TextRun({ text: line, italics: true })], indent: INDENT }),
        );
      }
      if (evidenceMissing(question)) children.push(evidenceWarning());
    }
  }

  const doc = new Document({
    creator: 'Chapterwise',
    title: document.title,
    description: `${document.type} for ${document.grade}`,
    styles: { default: { document: { run: { font: 'Calibri', size: 23 } } } },
    sections: [{ properties: {}, children }],
  });
  return Packer.toBuffer(doc);
}

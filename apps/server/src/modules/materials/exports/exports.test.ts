import { parse as parseCsv } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { strFromU8, unzipSync } from 'fflate';
import { parse as parseGift } from 'gift-pegjs';
import { describe, expect, it } from 'vitest';
import { choiceLetter, numberedQuestions, type MaterialDocument } from '@chapterwise/shared';
import { HOSTILE, hostileDocument } from '../../../test/material-fixtures.js';
import { oneLine, shorten, spreadsheetText } from './common.js';
import {
  BLOOKET_HEADER,
  GIMKIT_HEADER,
  KAHOOT_HEADER,
  KAHOOT_LIMITS,
  KAHOOT_TIMES,
  WAYGROUND_HEADER,
} from './formats/games.js';
import { EXPORTERS, exportFileName, exportMany, type ExportInput } from './index.js';

const document = hostileDocument();
const input: ExportInput = { document, name: document.title, copy: 'teacher' };
const all = numberedQuestions(document);
const choiceQuestions = all.filter((q) => q.kind === 'multiple_choice' || q.kind === 'true_false');

async function build(format: keyof typeof EXPORTERS, given: ExportInput = input) {
  const result = await EXPORTERS[format]!.build(given);
  return { ...result, text: typeof result.body === 'string' ? result.body : '' };
}

/** The choices and the correct index a game or LMS should carry for a question. */
function expectedChoices(q: (typeof all)[number]): { choices: string[]; correct: number } {
  if (q.kind === 'true_false') return { choices: ['True', 'False'], correct: q.answer ? 0 : 1 };
  if (q.kind === 'multiple_choice') return { choices: q.choices, correct: q.answerIndex };
  throw new Error('not a choice question');
}

/** Rows of the first sheet of an .xlsx, read back by ExcelJS: [row][column] as shown. */
async function readXlsx(body: Buffer | string) {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(body as unknown as ArrayBuffer);
  const sheet = workbook.worksheets[0]!;
  const rows: Array<Array<string | number | null>> = [];
  const formulas: string[] = [];
  sheet.eachRow({ includeEmpty: true }, (row, r) => {
    const cells: Array<string | number | null> = [];
    row.eachCell({ includeEmpty: true }, (cell, c) => {
      if (cell.type === ExcelJS.ValueType.Formula) formulas.push(cell.address);
      const value = cell.value;
      cells[c - 1] = typeof value === 'string' || typeof value === 'number' ? value : null;
    });
    rows[r - 1] = cells;
  });
  const files = unzipSync(new Uint8Array(body as Buffer));
  return { sheet, rows, formulas, files };
}

describe('file names', () => {
  it('come from the material name in safe characters, tagged by format and copy', () => {
    expect(exportFileName('Frankenstein, chapter 6', 'Test', 'docx', 'teacher')).toBe(
      'frankenstein-chapter-6-test.docx',
    );
    expect(exportFileName('Frankenstein, chapter 6', 'Test', 'docx', 'student')).toBe(
      'frankenstein-chapter-6-test-student.docx',
    );
    expect(exportFileName('Letter 1 Quiz', 'Quiz', 'kahoot', 'teacher')).toBe(
      'letter-1-quiz-kahoot.xlsx',
    );
    expect(exportFileName('../../etc/passwd "x" </xml>', 'Quiz', 'gift', 'student')).toBe(
      'etc-passwd-x-xml-quiz-moodle-gift.txt',
    );
    expect(exportFileName('Élise’s café', 'Quiz', 'blooket', 'teacher')).toBe(
      'elise-s-cafe-quiz-blooket.csv',
    );
    expect(exportFileName('😀', 'Quiz', 'quizlet', 'teacher')).toBe('material-quiz-quizlet.txt');
  });
});

describe('helpers', () => {
  it('shortens at a word and ends with an ellipsis, within the limit', () => {
    const long = 'word '.repeat(60).trim();
    const short = shorten(long, 75);
    expect(short.length).toBeLessThanOrEqual(75);
    expect(short.endsWith('word…')).toBe(true);
    expect(shorten('fits', 75)).toBe('fits');
  });
  it('neutralises formulas in CSV cells', () => {
    for (const text of [HOSTILE.formula, HOSTILE.plus, HOSTILE.minus, HOSTILE.at, '\tx'])
      expect(spreadsheetText(text)).toBe(`'${text}`);
    expect(spreadsheetText('plain')).toBe('plain');
  });
});

describe('Moodle GIFT', () => {
  it('reads back in an independent GIFT parser (gift-pegjs) as the same questions', async () => {
    const { text, notes } = await build('gift');
    const parsed = parseGift(text).filter((q) => q.type !== 'Category' && q.type !== 'Description');
    expect(parsed).toHaveLength(all.length);
    all.forEach((q, i) => {
      const g = parsed[i]!;
      expect(g.title).toBe(`Question ${i + 1}`);
      switch (q.kind) {
        case 'multiple_choice':
          if (g.type !== 'MC') throw new Error(`question ${i + 1} is ${g.type}`);
          expect(g.stem.format).toBe('plain');
          expect(g.stem.text).toBe(oneLine(q.prompt));
          expect(g.choices.map((c) => c.text.text)).toEqual(q.choices.map(oneLine));
          expect(g.choices.findIndex((c) => c.isCorrect)).toBe(q.answerIndex);
          expect(g.globalFeedback?.text).toContain(oneLine(q.evidence));
          break;
        case 'true_false':
          if (g.type !== 'TF') throw new Error(`question ${i + 1} is ${g.type}`);
          expect(g.stem.text).toBe(oneLine(q.prompt));
          expect(g.isTrue).toBe(q.answer);
          expect(g.globalFeedback?.text).toContain(oneLine(q.correction ?? q.evidence));
          break;
        case 'fill_blank':
          if (g.type !== 'Short') throw new Error(`question ${i + 1} is ${g.type}`);
          expect(g.choices.map((c) => c.text.text)).toEqual([q.answer]);
          expect(g.stem.text.replace(/\s*_+\s*/, ' _____ ')).toBe(oneLine(q.prompt));
          break;
        case 'short_answer':
        case 'discussion':
          if (g.type !== 'Essay') throw new Error(`question ${i + 1} is ${g.type}`);
          expect(g.stem.text).toBe(oneLine(q.prompt));
          expect(g.globalFeedback?.text).toContain(oneLine(q.answer));
          expect(g.globalFeedback?.text).toContain(oneLine(q.evidence));
          break;
        case 'matching':
          if (g.type !== 'Matching') throw new Error(`question ${i + 1} is ${g.type}`);
          expect(g.matchPairs.map((p) => [p.subquestion.text, p.subanswer])).toEqual(
            q.pairs.map((p) => [oneLine(p.left), oneLine(p.right)]),
          );
          break;
      }
    });
    // The teacher's "quote not found" mark is for the teacher: LMS feedback reaches students.
    expect(text).not.toContain('not found');
    expect(notes).toEqual(['The vocabulary list is not part of a GIFT quiz.']);
  });

  it('puts a folder in one file, one question-bank category per material', async () => {
    const other = hostileDocument({ title: 'Second' });
    const file = await exportMany(
      'gift',
      'My folder',
      [
        { name: 'First quiz', type: 'Test', input },
        { name: 'Second/quiz', type: 'Test', input: { ...input, document: other } },
      ],
      'teacher',
    );
    expect(file.fileName).toBe('my-folder-moodle-gift.txt');
    const parsed = parseGift(String(file.body));
    expect(parsed.filter((q) => q.type === 'Category').map((q) => q.title)).toEqual([
      '$course$/top/First quiz',
      '$course$/top/Second-quiz',
    ]);
    expect(parsed.filter((q) => q.type !== 'Category')).toHaveLength(all.length * 2);
  });
});

/** Moodle's Aiken reader (question/format/aiken/format.php), line for line in its rules. */
function readAiken(text: string) {
  const questions: Array<{ prompt: string; choices: string[]; correct: number }> = [];
  let current: { prompt: string; choices: string[]; correct: number } | null = null;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line.length < 2) continue;
    if (/^[A-Z][).][ \t]/.test(line)) {
      if (!current) throw new Error(`choice before a question: ${line}`);
      current.choices.push(line.slice(2).trim());
    } else if (/^ANSWER:/.test(line)) {
      if (!current || current.choices.length < 2) throw new Error('answer without choices');
      const letter = line
        .slice(line.indexOf(':') + 1)
        .trim()
        .charAt(0);
      current.correct = letter.charCodeAt(0) - 'A'.charCodeAt(0);
      if (current.correct < 0 || current.correct >= current.choices.length)
        throw new Error(`answer ${letter} is not a choice`);
      questions.push(current);
      current = null;
    } else if (current && current.choices.length === 0) {
      current.prompt += ` ${line}`;
    } else {
      if (current) throw new Error(`question text after choices: ${line}`);
      current = { prompt: line, choices: [], correct: -1 };
    }
  }
  if (current) throw new Error('a question without ANSWER');
  return questions;
}

describe('Aiken', () => {
  it('reads back with Moodle’s rules: multiple choice and true/false, the rest named as left out', async () => {
    const { text, notes } = await build('aiken');
    const parsed = readAiken(text);
    expect(parsed).toHaveLength(choiceQuestions.length);
    choiceQuestions.forEach((q, i) => {
      const expected = expectedChoices(q);
      expect(parsed[i]!.prompt).toContain(oneLine(q.prompt));
      expect(parsed[i]!.choices).toEqual(expected.choices.map(oneLine));
      expect(parsed[i]!.correct).toBe(expected.correct);
    });
    expect(notes).toEqual([
      'Question 6 (fill blank) left out: Aiken holds multiple choice questions only.',
      'Question 7 (short answer) left out: Aiken holds multiple choice questions only.',
      'Question 8 (matching) left out: Aiken holds multiple choice questions only.',
      'Question 9 (discussion) left out: Aiken holds multiple choice questions only.',
    ]);
  });

  it('keeps a question that starts like a choice from being read as one', async () => {
    const doc = hostileDocument();
    const q = doc.sections[0]!.questions[0]!;
    q.prompt = 'A. is this a choice?';
    const parsed = readAiken((await build('aiken', { ...input, document: doc })).text);
    expect(parsed[0]!.prompt).toBe('Q: A. is this a choice?');
    expect(parsed[0]!.choices).toHaveLength(4);
  });
});

describe('Quizlet', () => {
  it('is one card a line, a tab between term and definition, read back by a CSV parser', async () => {
    const { text, notes } = await build('quizlet');
    const cards = parseCsv(text, {
      delimiter: '\t',
      quote: false,
      relax_quotes: true,
    }) as string[][];
    expect(cards.every((c) => c.length === 2)).toBe(true);
    const expected: string[][] = [
      ...document.vocabulary.map((v) => [v.term, v.definition]),
      ...all.flatMap((q): string[][] => {
        switch (q.kind) {
          case 'multiple_choice':
            return [[q.prompt, q.choices[q.answerIndex]!]];
          case 'true_false':
            return [[`True or false: ${q.prompt}`, q.answer ? 'True' : 'False']];
          case 'fill_blank':
          case 'short_answer':
            return [[q.prompt, q.answer]];
          case 'matching':
            return q.pairs.map((p) => [p.left, p.right]);
          case 'discussion':
            return [];
        }
      }),
    ].map((pair) => pair.map(oneLine));
    expect(cards).toEqual(expected);
    expect(notes).toEqual([
      'Question 9 (discussion) left out: a discussion question has no short answer for a card.',
    ]);
  });
});

describe('Blackboard test upload', () => {
  it('is one question a line in Blackboard’s tab-delimited layout, every kind', async () => {
    const { text } = await build('blackboard');
    const rows = parseCsv(text, {
      delimiter: '\t',
      quote: false,
      relax_column_count: true,
    }) as string[][];
    const html = (s: string) =>
      oneLine(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
    expect(rows).toHaveLength(all.length);
    all.forEach((q, i) => {
      const row = rows[i]!;
      expect(row[1]).toBe(html(q.prompt));
      switch (q.kind) {
        case 'multiple_choice':
          expect(row[0]).toBe('MC');
          expect(row.slice(2)).toEqual(
            q.choices.flatMap((c, k) => [html(c), k === q.answerIndex ? 'correct' : 'incorrect']),
          );
          break;
        case 'true_false':
          expect(row).toEqual(['TF', html(q.prompt), q.answer ? 'true' : 'false']);
          break;
        case 'fill_blank':
          expect(row).toEqual(['FIB', html(q.prompt), html(q.answer)]);
          break;
        case 'short_answer':
          expect(row).toEqual(['SR', html(q.prompt), html(q.answer)]);
          break;
        case 'discussion':
          expect(row).toEqual(['ESS', html(q.prompt), html(q.answer)]);
          break;
        case 'matching':
          expect(row[0]).toBe('MAT');
          expect(row.slice(2)).toEqual(q.pairs.flatMap((p) => [html(p.left), html(p.right)]));
          break;
      }
    });
    expect(text).not.toContain('</xml>');
  });
});

/** Strips the CSV-injection apostrophe our exporter adds, to compare with the document. */
const unguard = (s: string) => (/^'[=+\-@\t\r]/.test(s) ? s.slice(1) : s);

describe('Kahoot', () => {
  it('fills Kahoot’s quiz template within its limits, read back by ExcelJS', async () => {
    const { body, notes } = await build('kahoot');
    const { rows, formulas, files } = await readXlsx(body);
    expect(rows[7]).toEqual(KAHOOT_HEADER.map((h) => h || null));
    const data = rows.slice(8);
    const kept = choiceQuestions.filter(
      (q) => !notes.some((n) => n.startsWith(`Question ${all.indexOf(q) + 1} left out`)),
    );
    expect(data).toHaveLength(kept.length);
    data.forEach((row, i) => {
      const q = kept[i]!;
      const expected = expectedChoices(q);
      expect(row[0]).toBe(i + 1);
      const question = String(row[1]);
      expect(question.length).toBeLessThanOrEqual(KAHOOT_LIMITS.question);
      const answers = row.slice(2, 6).filter((a) => a !== null && a !== undefined) as string[];
      expect(answers.length).toBeGreaterThanOrEqual(2);
      expect(answers.length).toBeLessThanOrEqual(4);
      for (const a of answers) expect(a.length).toBeLessThanOrEqual(KAHOOT_LIMITS.answer);
      expect(KAHOOT_TIMES).toContain(row[6]);
      const correct = Number(row[7]) - 1;
      const full = expected.choices[expected.correct]!;
      expect(full.startsWith(answers[correct]!.replace(/…$/, ''))).toBe(true);
      if (q.kind === 'true_false') expect(question).toContain(oneLine(q.prompt).slice(0, 40));
    });
    // Shortened and trimmed items are listed.
    expect(notes).toContain('Question 3: the question was shortened to 120 characters.');
    expect(notes).toContain('Question 3: answers were shortened to 75 characters.');
    expect(notes).toContain('Question 2: kept 4 of 6 answers (Kahoot takes 4).');
    expect(notes).toContain(
      'Question 7 (short answer) left out: Kahoot takes multiple choice and true/false questions only.',
    );
    // Formulas stay text: no formula cell, and the quote-prefix style on such cells.
    expect(formulas).toEqual([]);
    expect(data.flat()).toContain(HOSTILE.formula);
    expect(strFromU8(files['xl/styles.xml']!)).toContain('quotePrefix="1"');
    expect(strFromU8(files['xl/worksheets/sheet1.xml']!)).not.toContain('<f>');
  });

  it('leaves out a question whose answers become alike when shortened', async () => {
    const doc = hostileDocument();
    const q = doc.sections[0]!.questions[2]!;
    if (q.kind !== 'multiple_choice') throw new Error('fixture');
    const base = 'The same long beginning that runs past the seventy-five characters of Kahoot';
    q.choices = [`${base} one`, `${base} two`];
    const { body, notes } = await build('kahoot', { ...input, document: doc });
    expect(notes).toContain(
      'Question 3 left out: its answers are alike once shortened to 75 characters.',
    );
    const { rows } = await readXlsx(body);
    expect(rows.slice(8).map((r) => String(r[1]))).not.toContain(
      expect.stringContaining('deliberately'),
    );
  });
});

describe('Blooket, Gimkit and Wayground', () => {
  it('Blooket: its CSV template, read back by a CSV parser; formulas neutralised', async () => {
    const { text } = await build('blooket');
    expect(text).toMatch(/\r\n$/);
    expect(text.charCodeAt(0)).not.toBe(0xfeff);
    const rows = parseCsv(text, { relax_column_count: false }) as string[][];
    expect(rows[0]).toEqual(['Blooket\nImport Template', '', '', '', '', '', '', '']);
    expect(rows[1]).toEqual(BLOOKET_HEADER);
    const data = rows.slice(2);
    expect(data).toHaveLength(choiceQuestions.length);
    data.forEach((row, i) => {
      const q = choiceQuestions[i]!;
      const expected = expectedChoices(q);
      expect(row[0]).toBe(String(i + 1));
      const answers = row.slice(2, 6).filter(Boolean).map(unguard);
      const correct = Number(row[7]) - 1;
      expect(answers[correct]).toBe(oneLine(expected.choices[expected.correct]!));
      expect(Number(row[6])).toBeLessThanOrEqual(300);
      for (const cell of row) expect(cell).not.toMatch(/^[=+\-@]/);
    });
    expect(data.flat()).toContain(`'${HOSTILE.formula}`);
  });

  it('Gimkit: its CSV template with the correct answer first', async () => {
    const { text } = await build('gimkit');
    const rows = parseCsv(text) as string[][];
    expect(rows[0]).toEqual(['Gimkit Spreadsheet Import Template', '', '', '', '']);
    expect(rows[1]).toEqual(GIMKIT_HEADER);
    const data = rows.slice(2);
    expect(data).toHaveLength(choiceQuestions.length);
    data.forEach((row, i) => {
      const q = choiceQuestions[i]!;
      const expected = expectedChoices(q);
      expect(unguard(row[0]!)).toContain(oneLine(q.prompt));
      expect(unguard(row[1]!)).toBe(oneLine(expected.choices[expected.correct]!));
      const wrong = row.slice(2).filter(Boolean).map(unguard);
      expect(wrong.length).toBeGreaterThanOrEqual(1);
      for (const w of wrong) expect(expected.choices.map(oneLine)).toContain(w);
      for (const cell of row) expect(cell).not.toMatch(/^[=+\-@]/);
    });
  });

  it('Wayground: its spreadsheet template, read back by ExcelJS', async () => {
    const { body } = await build('wayground');
    const { rows, formulas } = await readXlsx(body);
    expect(rows[0]).toEqual(WAYGROUND_HEADER);
    const data = rows.slice(1);
    expect(data).toHaveLength(choiceQuestions.length);
    data.forEach((row, i) => {
      const q = choiceQuestions[i]!;
      const expected = expectedChoices(q);
      expect(row[1]).toBe('Multiple Choice');
      const options = row.slice(2, 7).filter((o) => o !== null && o !== undefined);
      expect(options[Number(row[7]) - 1]).toBe(oneLine(expected.choices[expected.correct]!));
      expect(String(row[10])).toContain('Evidence');
    });
    expect(formulas).toEqual([]);
  });
});

describe('every format', () => {
  it('never writes the quote-not-found note where students see it, and survives an empty quiz', async () => {
    const empty: MaterialDocument = { ...hostileDocument(), sections: [], lesson: undefined };
    for (const exporter of Object.values(EXPORTERS)) {
      if (exporter.copies) continue;
      const result = await exporter.build({ ...input, document: empty });
      expect(result.body.length).toBeGreaterThan(0);
    }
    expect(choiceLetter(0)).toBe('A');
  });
});

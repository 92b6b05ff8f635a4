import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import ExcelJS from 'exceljs';
import { parse as parseGift } from 'gift-pegjs';
import type { MaterialDocument } from '@chapterwise/shared';
import { expect, expectAccessible, test } from './fixtures';
import { createAccount, signIn } from './support';

/**
 * Exports as a teacher uses them: from a quiz card's Export menu, download it for Kahoot,
 * Moodle (GIFT) and as a PDF student copy, and open each file with an independent reader.
 */

const PASSAGE = `The sun had not yet risen when Anna left the farmhouse. She carried a lantern in one hand and a basket of bread in the other, because the path to the mill was long and the morning was cold. Her brother Tomas had promised to meet her at the old bridge, but when she reached it the bridge was empty.

Anna waited beside the river for a long time. The water was high after three days of rain, and it roared under the wooden planks. At last she saw a light moving among the trees. It was Tomas, and he was running. He told her that the miller had fallen ill in the night and that the mill wheel had stopped.

Together they hurried along the bank. When they reached the mill, the miller's daughter was standing at the door with a candle. She thanked them for the bread and asked Anna to sit with her father while Tomas went to fetch the doctor from the village. Anna stayed by the bed all morning. By noon the doctor had come, the miller was sleeping quietly, and the great wheel was turning again.`;

const flat = (s: string) => s.replace(/\s+/g, ' ').trim();

test('export a quiz from its card for Kahoot, Moodle and as a PDF, and open the files', async ({
  page,
  request,
  context,
}) => {
  const account = await createAccount(request);
  const auth = { authorization: `Bearer ${account.token}` };
  const made = await request.post('/api/v1/materials/generatematerial', {
    headers: auth,
    data: {
      name: 'The mill: quiz',
      subject: 'English',
      grade: '4th Grade (Year 5)',
      type: 'Quiz',
      referenceText: PASSAGE,
    },
  });
  expect(made.status(), await made.text()).toBe(201);
  const { materialId } = (await made.json()) as { materialId: string };
  await expect
    .poll(
      async () =>
        (
          await (
            await request.post('/api/v1/materials/checkgeneration', {
              headers: auth,
              data: { id: materialId },
            })
          ).json()
        ).status,
      { timeout: 30_000 },
    )
    .toBe('finished');
  const material = (
    await (
      await request.get(`/api/v1/materials/getmaterial?id=${materialId}`, { headers: auth })
    ).json()
  ).data;
  const document = material.output.document as MaterialDocument;
  const questions = [
    ...document.sections.flatMap((s) => s.questions),
    ...(document.lesson?.exitTicket ?? []),
  ];
  // The generator abstains rather than pad: this 250-word grade-4 story gives a short quiz (2 or
  // 3 questions: multiple choice and true/false), which is all the export formats need here.
  expect(questions.length).toBeGreaterThanOrEqual(2);

  await signIn(page, account);
  await page.goto('/material-generator');
  const card = page.locator('.material-card').first();
  await expect(card.getByRole('heading', { name: 'Part 1: Multiple choice' })).toBeVisible();

  const openMenu = async () => {
    await card.getByRole('button', { name: /^Export/ }).click();
    await expect(card.getByText('Learning platforms')).toBeVisible();
  };
  const save = async (name: string | RegExp) => {
    const downloading = page.waitForEvent('download');
    await card.getByRole('button', { name }).click();
    const download = await downloading;
    return { name: download.suggestedFilename(), bytes: readFileSync((await download.path())!) };
  };

  // Kahoot: its spreadsheet template, read back by ExcelJS.
  await openMenu();
  await expect(
    card.getByText(/Kahoot: Create → Kahoot → Add question → Import spreadsheet/),
  ).toBeVisible();
  await expectAccessible(page, 'export menu');
  const kahoot = await save('Kahoot');
  expect(kahoot.name).toBe('the-mill-quiz-kahoot.xlsx');
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(kahoot.bytes as unknown as ArrayBuffer);
  const sheet = workbook.worksheets[0]!;
  expect(sheet.getRow(8).getCell(2).value).toBe('Question - max 120 characters');
  const choiceQuestions = questions.filter(
    (q) => q.kind === 'multiple_choice' || q.kind === 'true_false',
  );
  for (let i = 0; i < choiceQuestions.length; i++) {
    const q = choiceQuestions[i]!;
    const row = sheet.getRow(9 + i);
    const prompt = String(row.getCell(2).value);
    expect(prompt.length).toBeLessThanOrEqual(120);
    expect(
      flat(q.prompt).startsWith(prompt.replace(/^True or false: /, '').replace(/…$/, '')),
    ).toBe(true);
    expect([5, 10, 20, 30, 60, 90, 120, 240]).toContain(row.getCell(7).value);
    const correct = Number(row.getCell(8).value);
    const answer = String(row.getCell(2 + correct).value);
    const expected =
      q.kind === 'true_false' ? (q.answer ? 'True' : 'False') : q.choices[q.answerIndex]!;
    expect(expected.startsWith(answer.replace(/…$/, ''))).toBe(true);
  }

  // Moodle (GIFT): read back by gift-pegjs, every question.
  await openMenu();
  const gift = await save('Moodle (GIFT)');
  expect(gift.name).toBe('the-mill-quiz-moodle-gift.txt');
  const parsed = parseGift(gift.bytes.toString('utf8')).filter((q) => q.type !== 'Category');
  expect(parsed).toHaveLength(questions.length);
  expect(parsed.map((q) => ('stem' in q ? flat(q.stem.text) : ''))[0]).toContain(
    flat(questions[0]!.prompt).slice(0, 20),
  );

  // PDF, student copy: pdftotext reads the questions back, and no answer key.
  await openMenu();
  const pdf = await save('Student copy (PDF)');
  expect(pdf.name).toBe('the-mill-quiz-student.pdf');
  const text = spawnSync('pdftotext', ['-enc', 'UTF-8', '-', '-'], {
    input: pdf.bytes,
    encoding: 'utf8',
  });
  expect(text.status, text.stderr).toBe(0);
  for (const q of questions) expect(flat(text.stdout)).toContain(flat(q.prompt));
  expect(text.stdout).not.toContain('Answer Key');
  expect(text.stdout).toMatch(/Page 1 of \d+/);

  // Quizlet: the cards go to the clipboard.
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await openMenu();
  await card.getByRole('button', { name: 'Copy for Quizlet' }).click();
  await expect(page.getByText('Copied for Quizlet')).toBeVisible();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied.split('\n')[0]).toContain('\t');
});

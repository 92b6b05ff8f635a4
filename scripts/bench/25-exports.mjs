// Exports: every format for a 30-question test (all question kinds, vocabulary, evidence),
// PDF included and made without a browser. Median of 20 runs after 3 warm-up runs per format;
// the first PDF of a process (fonts read and parsed) is shown on its own.
import path from 'node:path';

const KINDS = [
  'multiple_choice',
  'true_false',
  'fill_blank',
  'short_answer',
  'matching',
  'discussion',
];

function question(i) {
  const evidence = `The sentence of the text that supports the answer to question ${i + 1}, copied word for word.`;
  const prompt = `Question ${i + 1}: what does the narrator notice when the ship first reaches the ice, and why?`;
  switch (KINDS[i % KINDS.length]) {
    case 'multiple_choice':
      return {
        id: `q${i}`,
        kind: 'multiple_choice',
        prompt,
        choices: ['The silence', 'The cold wind', 'A sledge far away', 'The stars'],
        answerIndex: i % 4,
        evidence,
      };
    case 'true_false':
      return {
        id: `q${i}`,
        kind: 'true_false',
        prompt,
        answer: i % 2 === 0,
        evidence,
        correction: evidence,
      };
    case 'fill_blank':
      return {
        id: `q${i}`,
        kind: 'fill_blank',
        prompt: `The sailors saw a _____ on the ice (question ${i + 1}).`,
        answer: 'sledge',
        evidence,
      };
    case 'short_answer':
      return {
        id: `q${i}`,
        kind: 'short_answer',
        prompt,
        answer: 'Because the ice closed in around the ship.',
        evidence,
      };
    case 'matching':
      return {
        id: `q${i}`,
        kind: 'matching',
        prompt: 'Match each person with what they do.',
        pairs: [
          { left: 'Walton', right: 'writes the letters', evidence },
          { left: 'Victor', right: 'is found on the ice', evidence },
          { left: 'The crew', right: 'wants to turn back', evidence },
        ],
        order: [2, 0, 1],
      };
    default:
      return {
        id: `q${i}`,
        kind: 'discussion',
        prompt,
        answer: 'A strong answer weighs courage against recklessness.',
        evidence,
      };
  }
}

export default async function exportsBench(kit) {
  const dist = (p) => path.join(kit.root, 'apps/server/dist', p);
  const { MaterialDocumentSchema, EXPORT_FORMATS } = await import(
    path.join(kit.root, 'packages/shared/dist/index.js')
  );
  const { exportOne } = await import(dist('modules/materials/exports/index.js'));
  const { buildGoogleForm } = await import(
    dist('modules/materials/exports/formats/google-forms.js')
  );
  const questions = Array.from({ length: 30 }, (_, i) => question(i));
  const document = MaterialDocumentSchema.parse({
    title: 'Frankenstein, Letter 4 Test',
    type: 'Test',
    grade: '8th Grade (Year 9)',
    subject: 'English',
    instructions: 'Answer every question.',
    vocabulary: [{ term: 'ardent', definition: 'very eager', context: 'my ardent curiosity' }],
    sections: [{ title: 'Questions', questions }],
  });
  const material = {
    name: 'Frankenstein, Letter 4',
    type: 'Test',
    input: { document, name: 'Frankenstein, Letter 4', copy: 'teacher' },
  };

  let t0 = performance.now();
  await exportOne('pdf', material);
  kit.figure('PDF, first of the process (fonts loaded)', performance.now() - t0, 'ms');

  for (const format of EXPORT_FORMATS) {
    for (let i = 0; i < 3; i++) await exportOne(format.id, material);
    const times = [];
    let bytes = 0;
    for (let i = 0; i < 20; i++) {
      t0 = performance.now();
      const file = await exportOne(format.id, material);
      times.push(performance.now() - t0);
      bytes = Buffer.byteLength(file.body);
    }
    const { p50 } = kit.percentiles(times);
    kit.figure(`${format.label}, 30 questions (median of 20)`, p50, 'ms', '< 150 ms');
    kit.figure(
      `${format.label}: slowest of 20 / size`,
      `${Math.max(...times).toFixed(1)} ms / ${(bytes / 1024).toFixed(1)} KiB`,
      '',
    );
  }

  // Google Forms: the forms.create + batchUpdate requests (the HTTP calls are Google's time).
  for (let i = 0; i < 3; i++) buildGoogleForm(material.input);
  const times = [];
  let bytes = 0;
  for (let i = 0; i < 20; i++) {
    t0 = performance.now();
    const plan = buildGoogleForm(material.input);
    bytes = Buffer.byteLength(JSON.stringify({ requests: plan.requests }));
    times.push(performance.now() - t0);
  }
  kit.figure(
    'Google Forms requests, 30 questions (median of 20)',
    kit.percentiles(times).p50,
    'ms',
    '< 150 ms',
  );
  kit.figure('Google Forms batchUpdate body', `${(bytes / 1024).toFixed(1)} KiB`, '');
}

import { afterAll, describe, expect, it } from 'vitest';
import { chapter, longText } from '../../../test/chapters.js';
import { createInProcessLocalGenerator, LOCAL_MINIMUM_WORDS } from '../index.js';
import { GenerationError, type GenerationRequest } from '../types.js';
import { ThreadedLocalGenerator } from './threaded-generator.js';

const request = (overrides: Partial<GenerationRequest> = {}): GenerationRequest => ({
  name: 'Chapter quiz',
  subject: 'English',
  grade: '8th Grade (Year 9)',
  type: 'Quiz',
  referenceText: chapter(84).text,
  descriptionText: '',
  ...overrides,
});

/**
 * The longest the main thread's event loop went without running a 5 ms timer, while the work
 * started (on the next turn of the loop, once the timer runs) ran.
 */
async function longestStall(start: () => Promise<unknown>): Promise<number> {
  let last = performance.now();
  let longest = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
  }, 5);
  try {
    await new Promise((resolve) => setTimeout(resolve, 20));
    await start();
  } finally {
    clearInterval(timer);
  }
  return longest;
}

describe('the built-in generator in a worker thread', () => {
  const crashes: unknown[] = [];
  const generator = new ThreadedLocalGenerator(LOCAL_MINIMUM_WORDS, 1, (e) => crashes.push(e));
  afterAll(() => generator.close());

  it('writes the same material as on the main thread', async () => {
    const threaded = await generator.generate(request());
    const inProcess = await createInProcessLocalGenerator().generate(request());
    expect(threaded).toEqual(inProcess);
    expect(threaded.sections.flatMap((s) => s.questions)).toHaveLength(10);
  });

  it('keeps the main thread free while it writes a test from a 10,000-word chapter', async () => {
    await generator.generate(request()); // warm
    const long = request({ type: 'Test', referenceText: longText(10_000) });
    let sections = 0;
    const started = performance.now();
    const stall = await longestStall(async () => {
      sections = (await generator.generate(long)).sections.length;
    });
    const took = performance.now() - started;
    expect(sections).toBeGreaterThan(0);
    // Generating on the main thread would block the loop for most of the run; in the worker
    // thread the loop only waits for messages. Measured against the run's own length, not a fixed
    // figure, so that a busy machine slows both alike.
    expect(stall).toBeLessThan(took / 4);
  });

  it('stops a generation past its time limit, and the next one gets a fresh thread', async () => {
    const slow = generator.generate(
      request({ type: 'Lesson', referenceText: longText(20_000) }),
      AbortSignal.timeout(5),
    );
    await expect(slow).rejects.toThrow(GenerationError);
    await expect(slow).rejects.toThrow('took too long');
    const next = await generator.generate(request({ type: 'Worksheet' }));
    expect(next.type).toBe('Worksheet');
    expect(crashes).toEqual([]);
  });

  it('passes the generator’s own refusals through as they are', async () => {
    const refused = generator.generate(
      request({ referenceText: 'word '.repeat(80), descriptionText: '' }),
    );
    await expect(refused).rejects.toBeInstanceOf(GenerationError);
  });

  it('runs generations one after another in arrival order on one thread', async () => {
    const types = ['Quiz', 'Test', 'Worksheet', 'Lesson'];
    const done: string[] = [];
    await Promise.all(
      types.map((type) => generator.generate(request({ type })).then((d) => done.push(d.type))),
    );
    expect(done).toEqual(types);
  });
});

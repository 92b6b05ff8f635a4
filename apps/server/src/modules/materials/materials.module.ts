import type { FastifyInstance } from 'fastify';
import { ChapterMaterialsQuerySchema } from '@chapterwise/shared';
import { createMaterialGenerator, type MaterialGenerator } from '../../providers/llm/index.js';
import { warmUpPdf } from './exports/formats/pdf.js';
import { materialsRoutes } from './materials.routes.js';
import { GENERATION_QUEUE, MaterialsService } from './materials.service.js';

declare module 'fastify' {
  interface FastifyInstance {
    materials: MaterialsService;
  }
}

/** How often the sweep looks for generations left behind by a crash or a lost job. */
const SWEEP_INTERVAL_MS = 30_000;

/**
 * Wires the materials feature into the app: the generator chosen by the config, the service
 * (also `app.materials`, for scripts and tests), its job handler, the sweep that picks up
 * interrupted generations, and the routes under /api/v1.
 */
export async function registerMaterials(
  app: FastifyInstance,
  generator?: MaterialGenerator,
): Promise<void> {
  const config = app.config;
  const chosen =
    generator ??
    createMaterialGenerator(config.llm, undefined, (error) =>
      app.log.error({ err: error }, 'a generation thread stopped'),
    );
  app.addHook('onClose', async () => {
    await chosen.close?.();
  });
  // A running generation holds its material this long; a chat model may need two slow calls.
  const leaseSeconds =
    chosen.engine === 'local' ? 60 : Math.ceil((config.llm.timeoutMs * 4) / 1000) + 30;
  const service = new MaterialsService({
    db: app.db,
    jobs: app.jobs,
    generator: chosen,
    log: app.log,
    leaseSeconds,
    onChapterMaterialsChange: (bookUrl) => app.changes.publish(`book:${bookUrl}`),
  });
  app.decorate('materials', service);
  // Kept chapter cards go when their book's materials change, here or on another instance.
  app.changes.subscribe((topic) => service.forgetChapterMaterials(topic));
  app.jobs.define<{ materialId: string }>(GENERATION_QUEUE, async (data) => {
    await service.runGeneration(data.materialId);
  });

  if (config.jobsEnabled) {
    let timer: NodeJS.Timeout | undefined;
    // One instance at a time sweeps (an advisory lock on PostgreSQL).
    const sweep = () =>
      app.database
        .withLock('chapterwise:materials-sweep', () => service.recoverStalled().then(() => {}))
        .catch((error: unknown) => app.log.error({ err: error }, 'materials sweep failed'));
    app.addHook('onReady', async () => {
      // The first sweep runs as soon as the queue has started (its hook runs after this one).
      const first = (tries: number) => {
        if (app.jobs.isStarted || tries > 150) void sweep();
        else setTimeout(() => first(tries + 1), 200).unref();
      };
      first(0);
      timer = setInterval(() => void sweep(), SWEEP_INTERVAL_MS);
      timer.unref();
      if (config.env !== 'test') {
        setTimeout(() => {
          warmUpPdf().catch((error: unknown) =>
            app.log.warn({ err: error }, 'PDF export warm-up failed'),
          );
        }, 200).unref();
      }
      if (chosen.engine === 'local' && config.env !== 'test') {
        // Load the language models now rather than on the first teacher's generation.
        setTimeout(() => {
          if (chosen.warmUp) chosen.warmUp(WARM_UP);
          else void chosen.generate(WARM_UP).catch(() => undefined);
        }, 50).unref();
      }
    });
    app.addHook('onClose', async () => {
      if (timer) clearInterval(timer);
    });
  }
  // The chapter page's ready-made cards, read directly by server rendering (as the route
  // sends them: JSON of the service's answer).
  app.pageReads.add('/api/v1/materials/getavailablechaptermaterials', {
    query: ChapterMaterialsQuerySchema,
    answer: async (query) =>
      JSON.stringify(await service.chapterMaterials(query.bookUrl, query.chapterUrl)),
  });
  await app.register(materialsRoutes(service), { prefix: '/api/v1' });
}

const WARM_UP = {
  name: 'Warm-up',
  subject: 'English',
  grade: '5th Grade (Year 6)',
  type: 'Quiz',
  descriptionText: '',
  referenceText:
    'Dorothy lived in the middle of the great Kansas prairies, with Uncle Henry, who was a farmer, and Aunt Em, who was the farmer’s wife. Their house was small, for the lumber to build it had to be carried by wagon many miles. There were four walls, a floor and a roof, which made one room; and this room contained a rusty looking cookstove, a cupboard for the dishes, a table, three or four chairs, and the beds. Uncle Henry and Aunt Em had a big bed in one corner, and Dorothy a little bed in another corner. There was no garret at all, and no cellar, except a small hole dug in the ground, called a cyclone cellar, where the family could go in case one of those great whirlwinds arose, mighty enough to crush any building in its path.',
};

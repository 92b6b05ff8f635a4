import PgBoss from 'pg-boss';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/client.js';

type Job<T> = PgBoss.Job<T>;
type SendOptions = PgBoss.SendOptions;
type WorkOptions = PgBoss.WorkOptions;

export type JobHandler<T> = (data: T, job: Job<T>) => Promise<void>;

interface Definition {
  name: string;
  handler: JobHandler<never>;
  options: WorkOptions;
}

/**
 * The background job queue: pg-boss on PostgreSQL, or on PGlite through its `executeSql`
 * adapter. Modules define their handlers while the app is built; `start` creates the queues
 * and begins polling, `stop` lets running jobs finish.
 */
export class JobQueue {
  private boss: PgBoss | undefined;
  private readonly definitions: Definition[] = [];
  private readonly schedules: Array<{ name: string; cron: string }> = [];
  private readonly onStart: Array<() => Promise<unknown>> = [];
  private started = false;

  constructor(
    private readonly database: Database,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** Registers a handler for a queue; call before `start`. */
  define<T>(name: string, handler: JobHandler<T>, options: WorkOptions = {}): void {
    this.definitions.push({ name, handler: handler as JobHandler<never>, options });
  }

  /**
   * Runs a queue's handler on a cron schedule (UTC), once per tick across every instance
   * (pg-boss's schedules live in the database). Applied by `start` on working instances.
   */
  every(name: string, cron: string): void {
    this.schedules.push({ name, cron });
  }

  /** Runs `fn` once the queue has started on a working instance (for example, a first sweep). */
  whenStarted(fn: () => Promise<unknown>): void {
    this.onStart.push(fn);
  }

  get isStarted(): boolean {
    return this.started;
  }

  /**
   * Starts the queue. `work: false` (a web-only instance on PostgreSQL) only sends jobs: no
   * workers, no maintenance or schedules, which the worker instances run.
   */
  async start(options: { work?: boolean } = {}): Promise<void> {
    if (this.started) return;
    const work = options.work ?? true;
    const roles = work ? {} : { supervise: false, schedule: false };
    const boss =
      this.database.kind === 'postgres'
        ? new PgBoss({ connectionString: this.database.connectionString!, max: 4, ...roles })
        : new PgBoss({ db: { executeSql: this.database.executeSql }, ...roles });
    boss.on('error', (error) => this.log.error({ err: error }, 'job queue error'));
    await boss.start();
    for (const definition of this.definitions) {
      await createQueue(boss, definition.name);
      if (!work) continue;
      await boss.work<never>(
        definition.name,
        { pollingIntervalSeconds: 0.5, ...definition.options },
        async (jobs) => {
          for (const job of jobs) await definition.handler(job.data, job);
        },
      );
    }
    this.boss = boss;
    this.started = true;
    if (!work) return;
    for (const { name, cron } of this.schedules) await boss.schedule(name, cron, {}, { tz: 'UTC' });
    for (const fn of this.onStart) {
      await fn().catch((error: unknown) =>
        this.log.error({ err: error }, 'a job queue start task failed'),
      );
    }
  }

  /** Queues a job; returns its id. */
  async send<T extends object>(
    name: string,
    data: T,
    options: SendOptions = {},
  ): Promise<string | null> {
    if (!this.boss) throw new Error(`The job queue is not running; cannot queue "${name}".`);
    return this.boss.send(name, data, options);
  }

  async stop(): Promise<void> {
    if (!this.boss) return;
    const boss = this.boss;
    this.boss = undefined;
    this.started = false;
    await boss.stop({ graceful: true, timeout: 10_000, wait: true });
  }
}

/**
 * Creates a queue (pg-boss makes it idempotent). Instances starting together on one PostgreSQL
 * can deadlock creating different queues, since each creation attaches a partition to the
 * shared job table: the loser of a deadlock tries again after a short random pause.
 */
async function createQueue(boss: PgBoss, name: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await boss.createQueue(name);
      return;
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (attempt >= 8 || (code !== '40P01' && code !== '40001')) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50 + Math.random() * 200 * attempt));
    }
  }
}

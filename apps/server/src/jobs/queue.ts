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

/** How often a queue looks for jobs on PostgreSQL, where other instances send them. */
const POLL_SECONDS = 0.5;
/**
 * How often a queue looks for jobs on the embedded database, where only this process sends
 * them and `send` wakes the queue's workers itself: only retries after a failure wait for it.
 */
const EMBEDDED_POLL_SECONDS = 10;

/**
 * The background job queue: pg-boss on PostgreSQL, or on PGlite through its `executeSql`
 * adapter. Modules define their handlers while the app is built; `start` creates the queues
 * and begins polling, `stop` lets running jobs finish.
 *
 * On PGlite every query runs on the main thread, so polling four queues twice a second cost
 * the pages' renders (decision 022, "Cold renders"): there, a queue's workers poll every
 * `EMBEDDED_POLL_SECONDS`, are woken by `send` (at `startAfter` for a delayed job) and fetch
 * again at once after a batch.
 */
export class JobQueue {
  private boss: PgBoss | undefined;
  /** Worker ids by queue, to wake them (embedded database only). */
  private readonly workers = new Map<string, string[]>();
  private readonly wakeTimers = new Set<NodeJS.Timeout>();
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
    const embedded = this.database.kind !== 'postgres';
    for (const definition of this.definitions) {
      await createQueue(boss, definition.name);
      if (!work) continue;
      let id = '';
      id = await boss.work<never>(
        definition.name,
        {
          pollingIntervalSeconds: embedded ? EMBEDDED_POLL_SECONDS : POLL_SECONDS,
          ...definition.options,
        },
        async (jobs) => {
          // There may be more: look again without waiting for the next poll.
          if (embedded && jobs.length > 0) boss.notifyWorker(id);
          for (const job of jobs) await definition.handler(job.data, job);
        },
      );
      if (embedded)
        this.workers.set(definition.name, [...(this.workers.get(definition.name) ?? []), id]);
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
    const id = await this.boss.send(name, data, options);
    this.wake(name, options.startAfter);
    return id;
  }

  /** Wakes this process's workers of a queue, now or when a delayed job becomes due. */
  private wake(name: string, startAfter: SendOptions['startAfter']): void {
    const ids = this.workers.get(name);
    const boss = this.boss;
    if (!ids || !boss) return;
    const notify = () => {
      for (const id of ids) boss.notifyWorker(id);
    };
    const due =
      startAfter === undefined
        ? 0
        : typeof startAfter === 'number'
          ? startAfter * 1000
          : new Date(startAfter).getTime() - Date.now();
    if (!(due > 0)) return notify();
    const timer = setTimeout(() => {
      this.wakeTimers.delete(timer);
      notify();
    }, due + 50);
    timer.unref();
    this.wakeTimers.add(timer);
  }

  async stop(): Promise<void> {
    if (!this.boss) return;
    const boss = this.boss;
    this.boss = undefined;
    this.started = false;
    for (const timer of this.wakeTimers) clearTimeout(timer);
    this.wakeTimers.clear();
    this.workers.clear();
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

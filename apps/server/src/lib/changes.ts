import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import pg from 'pg';

/** The PostgreSQL channel that carries change topics between instances. */
export const CHANGES_CHANNEL = 'chapterwise_changes';

/**
 * What changed, as a topic every cache understands:
 * - `blog`: a post was created, edited, published, unpublished, deleted (or became visible);
 * - `catalogue`: an import changed the catalogue (every book list, every book);
 * - `book:<url>`: one book changed: its text or chapters were fetched, or its chapters'
 *   ready-made materials were added;
 * - `users`: a public profile changed;
 * - `*`: anything (after a lost connection, when changes may have been missed).
 */
export type ChangeTopic = 'blog' | 'catalogue' | 'users' | '*' | `book:${string}`;

export type ChangeListener = (topic: ChangeTopic) => void;

/**
 * Tells every instance that data shown from a cache changed (decision 023).
 *
 * `publish` calls this process's listeners at once, synchronously (so the next request here
 * already sees the change), then, with PostgreSQL, sends the topic with `pg_notify` to every
 * other instance, whose listeners run when it arrives (milliseconds). With the embedded
 * database there is one process: delivery is in-process only.
 *
 * Listening uses one dedicated connection; when it drops, the bus reconnects every second and
 * then delivers `*` (everything may have changed meanwhile).
 */
export class ChangeBus {
  private readonly listeners = new Set<ChangeListener>();
  private readonly instance = randomUUID();
  private client: pg.Client | undefined;
  private stopped = false;
  private retry: NodeJS.Timeout | undefined;
  private connected = false;

  constructor(
    private readonly options: { connectionString?: string | undefined; log?: FastifyBaseLogger },
  ) {}

  /** True when changes reach other instances (PostgreSQL and listening). */
  get shared(): boolean {
    return this.connected;
  }

  subscribe(listener: ChangeListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Delivers `topic` here now and to the other instances (best effort, logged on failure). */
  publish(topic: ChangeTopic): void {
    this.deliver(topic);
    const client = this.client;
    if (!client || !this.connected) return;
    const sent = client
      .query('SELECT pg_notify($1, $2)', [CHANGES_CHANNEL, `${this.instance} ${topic}`])
      .then(
        () => {},
        (error: unknown) =>
          this.options.log?.warn({ err: error, topic }, 'change not sent to other instances'),
      )
      .finally(() => this.sending.delete(sent));
    this.sending.add(sent);
  }

  /** Notifications on their way: `stop` lets them go out (a CLI publishes, then exits). */
  private readonly sending = new Set<Promise<void>>();

  /** Delivers `topic` in this process only (a change each instance notices by itself). */
  publishLocal(topic: ChangeTopic): void {
    this.deliver(topic);
  }

  async start(): Promise<void> {
    if (!this.options.connectionString || this.stopped) return;
    await this.connect();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.sending.size) {
      await Promise.race([
        Promise.all(this.sending),
        new Promise((resolve) => setTimeout(resolve, 2000).unref()),
      ]);
    }
    if (this.retry) clearTimeout(this.retry);
    const client = this.client;
    this.client = undefined;
    this.connected = false;
    if (client) await client.end().catch(() => {});
  }

  private deliver(topic: ChangeTopic): void {
    for (const listener of this.listeners) {
      try {
        listener(topic);
      } catch (error) {
        this.options.log?.error({ err: error, topic }, 'change listener failed');
      }
    }
  }

  private async connect(): Promise<void> {
    const client = new pg.Client({ connectionString: this.options.connectionString });
    const lost = () => {
      if (this.client !== client) return;
      this.client = undefined;
      this.connected = false;
      client.end().catch(() => {});
      this.scheduleReconnect();
    };
    client.on('error', (error) => {
      this.options.log?.warn({ err: error }, 'change listener connection lost');
      lost();
    });
    client.on('end', lost);
    client.on('notification', (message) => {
      if (message.channel !== CHANGES_CHANNEL || !message.payload) return;
      const space = message.payload.indexOf(' ');
      if (message.payload.slice(0, space) === this.instance) return;
      this.deliver(message.payload.slice(space + 1) as ChangeTopic);
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANGES_CHANNEL}`);
    } catch (error) {
      client.end().catch(() => {});
      this.options.log?.warn({ err: error }, 'change listener could not connect; retrying');
      this.scheduleReconnect();
      return;
    }
    if (this.stopped) {
      await client.end().catch(() => {});
      return;
    }
    const reconnected = this.client === undefined && this.retry !== undefined;
    this.client = client;
    this.connected = true;
    // Changes published while we were not listening are lost: start afresh.
    if (reconnected) this.deliver('*');
  }

  private scheduleReconnect(): void {
    if (this.stopped) return;
    if (this.retry) clearTimeout(this.retry);
    this.retry = setTimeout(() => {
      void this.connect();
    }, 1000);
    this.retry.unref();
  }
}

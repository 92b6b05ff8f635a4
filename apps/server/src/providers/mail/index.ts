import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.js';
import type { Mailer, MailMessage } from './mail.js';
import { OutboxMailer } from './outbox.js';
import { SmtpMailer } from './smtp.js';

export type { Mailer, MailMessage, SentMail } from './mail.js';
export { renderEmail } from './template.js';

/** Chooses the mail adapter once, from config: SMTP when `SMTP_URL` is set, else the outbox. */
export function createMailer(config: Config, log: FastifyBaseLogger): Mailer {
  if (config.mail.smtpUrl) return new SmtpMailer(config.mail.smtpUrl, config.mail.from, log);
  return new OutboxMailer(path.join(config.dataDir, 'outbox'), config.mail.from, log);
}

/**
 * Sends mail without holding up the answer (a reset request must answer at the same speed
 * whether or not the address exists). Failures are logged, never shown to the requester.
 * `idle()` waits for messages still being sent: shutdown and tests use it.
 */
export class MailQueue {
  private readonly pending = new Set<Promise<unknown>>();

  constructor(
    readonly mailer: Mailer,
    private readonly log: FastifyBaseLogger,
  ) {}

  sendLater(message: MailMessage): void {
    const sending = this.mailer
      .send(message)
      .catch((error: unknown) =>
        this.log.error({ err: error, subject: message.subject }, 'could not send mail'),
      )
      .finally(() => this.pending.delete(sending));
    this.pending.add(sending);
  }

  async idle(): Promise<void> {
    while (this.pending.size) await Promise.allSettled([...this.pending]);
  }

  async close(): Promise<void> {
    await this.idle();
    await this.mailer.close();
  }
}

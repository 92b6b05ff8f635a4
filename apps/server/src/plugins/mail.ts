import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { MailQueue, type Mailer } from '../providers/mail/index.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Sends mail in the background through the configured provider (outbox or SMTP). */
    mail: MailQueue;
  }
}

/** Makes the mail provider available to modules; on close, waits for mail still being sent. */
export const mailPlugin = fp(
  async (app: FastifyInstance, options: { mailer: Mailer }) => {
    const queue = new MailQueue(options.mailer, app.log);
    app.decorate('mail', queue);
    app.addHook('onClose', () => queue.close());
  },
  { name: 'mail' },
);

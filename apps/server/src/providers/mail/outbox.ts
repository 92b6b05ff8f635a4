import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import nodemailer from 'nodemailer';
import type { Mailer, MailMessage, SentMail } from './mail.js';

/**
 * The offline default: each message is composed exactly as SMTP would send it (MIME, both
 * bodies) and written as an `.eml` file under `DATA_DIR/outbox/`, which any mail client
 * opens. The log line names the file, so a developer can follow a reset link at once.
 */
export class OutboxMailer implements Mailer {
  readonly kind = 'outbox' as const;
  private readonly transport = nodemailer.createTransport({
    streamTransport: true,
    buffer: true,
    newline: 'windows',
  });

  constructor(
    private readonly dir: string,
    private readonly from: string,
    private readonly log: FastifyBaseLogger,
  ) {}

  async send(message: MailMessage): Promise<SentMail> {
    const info = await this.transport.sendMail({ from: this.from, ...message });
    await mkdir(this.dir, { recursive: true });
    // Sortable by time; the random part keeps two messages in the same millisecond apart.
    const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(4).toString('hex')}.eml`;
    const file = path.join(this.dir, name);
    await writeFile(file, info.message as Buffer, { mode: 0o600 });
    this.log.info({ to: message.to, subject: message.subject, file }, 'mail written to outbox');
    return { messageId: info.messageId, file };
  }

  async close(): Promise<void> {
    this.transport.close();
  }
}

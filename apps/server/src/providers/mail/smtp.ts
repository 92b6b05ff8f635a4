import type { FastifyBaseLogger } from 'fastify';
import nodemailer from 'nodemailer';
import type { Mailer, MailMessage, SentMail } from './mail.js';

/** Sends through the SMTP server named by `SMTP_URL` (smtp:// with STARTTLS, or smtps://). */
export class SmtpMailer implements Mailer {
  readonly kind = 'smtp' as const;
  private readonly transport: ReturnType<typeof nodemailer.createTransport>;

  constructor(
    smtpUrl: string,
    private readonly from: string,
    private readonly log: FastifyBaseLogger,
  ) {
    this.transport = nodemailer.createTransport(smtpUrl);
  }

  async send(message: MailMessage): Promise<SentMail> {
    const info = await this.transport.sendMail({ from: this.from, ...message });
    this.log.info(
      { to: message.to, subject: message.subject, messageId: info.messageId },
      'mail sent',
    );
    return { messageId: info.messageId };
  }

  async close(): Promise<void> {
    this.transport.close();
  }
}

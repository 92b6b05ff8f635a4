/** One email: always both a plain-text and an HTML body. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Extra headers, e.g. List-Unsubscribe. */
  headers?: Record<string, string>;
}

export interface SentMail {
  messageId: string;
  /** Where the outbox adapter wrote the message (absent for SMTP). */
  file?: string;
}

/** The mail provider interface: the outbox (default) and SMTP adapters implement it. */
export interface Mailer {
  readonly kind: 'outbox' | 'smtp';
  send(message: MailMessage): Promise<SentMail>;
  close(): Promise<void>;
}

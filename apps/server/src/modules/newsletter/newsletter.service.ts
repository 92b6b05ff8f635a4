import { createHmac, timingSafeEqual } from 'node:crypto';
import type { NewsletterStatusAnswer } from '@chapterwise/shared';
import type { Db } from '../../db/client.js';
import { badRequest, notFound } from '../../lib/errors.js';
import type { MailQueue } from '../../providers/mail/index.js';
import { subscribedEmail } from './newsletter.emails.js';
import * as repo from './newsletter.repository.js';

export interface NewsletterDeps {
  db: Db;
  mail: MailQueue;
  publicUrl: string;
  /** Signs unsubscribe links (the app's JWT secret). */
  secret: string;
}

const INVALID_LINK =
  'This unsubscribe link is not valid. Please use the link from your latest email.';

/** "teacher@school.org" → "t*****@school.org": enough to recognise, not to harvest. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at < 1) return '***';
  return `${email[0]}${'*'.repeat(Math.min(Math.max(at - 1, 3), 8))}${email.slice(at)}`;
}

/**
 * The footer newsletter: sign-ups with a confirmation email, and unsubscribe links that
 * need no login. A link's token is `<subscriber id>.<HMAC>`, so it cannot be guessed and
 * needs no storage; every future newsletter can compute it again.
 */
export class NewsletterService {
  constructor(private readonly deps: NewsletterDeps) {}

  private sign(id: string): string {
    return createHmac('sha256', this.deps.secret)
      .update(`newsletter-unsubscribe:${id}`)
      .digest('base64url');
  }

  unsubscribeToken(id: string): string {
    return `${id}.${this.sign(id)}`;
  }

  /** The subscriber id of a genuine token, or a 400. */
  private verify(token: string): string {
    const [id, mac, extra] = token.split('.');
    if (!id || !mac || extra !== undefined) throw badRequest(INVALID_LINK);
    const expected = Buffer.from(this.sign(id));
    const given = Buffer.from(mac);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      throw badRequest(INVALID_LINK);
    }
    return id;
  }

  /** Subscribes the address; a confirmation goes out only when the subscription starts. */
  async subscribe(email: string): Promise<void> {
    const { subscriber, started } = await repo.subscribe(this.deps.db, email);
    if (!started) return;
    const token = encodeURIComponent(this.unsubscribeToken(subscriber.id));
    const base = this.deps.publicUrl;
    this.deps.mail.sendLater(
      subscribedEmail(subscriber.email, {
        unsubscribePage: `${base}/newsletter/unsubscribe?token=${token}`,
        oneClick: `${base}/api/v1/newsletter/unsubscribe?token=${token}`,
        books: `${base}/books`,
      }),
    );
  }

  async status(token: string): Promise<NewsletterStatusAnswer> {
    const subscriber = await repo.findSubscriber(this.deps.db, this.verify(token));
    if (!subscriber) throw notFound('This address is not on the newsletter list any more.');
    return { email: maskEmail(subscriber.email), subscribed: !subscriber.unsubscribedAt };
  }

  /** Unsubscribes; doing it twice is fine. */
  async unsubscribe(token: string): Promise<NewsletterStatusAnswer> {
    const id = this.verify(token);
    const subscriber = await repo.findSubscriber(this.deps.db, id);
    if (!subscriber) throw notFound('This address is not on the newsletter list any more.');
    await repo.unsubscribe(this.deps.db, id);
    return { email: maskEmail(subscriber.email), subscribed: false };
  }
}

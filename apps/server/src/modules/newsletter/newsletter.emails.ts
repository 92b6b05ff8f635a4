import { PRODUCT_NAME } from '@chapterwise/shared';
import { renderEmail, type MailMessage } from '../../providers/mail/index.js';

/** The confirmation sent on sign-up, with a working unsubscribe link (also as a header). */
export function subscribedEmail(
  to: string,
  links: { unsubscribePage: string; oneClick: string; books: string },
): MailMessage {
  return {
    to,
    subject: `You're subscribed to the ${PRODUCT_NAME} newsletter`,
    headers: {
      // RFC 2369 / RFC 8058: mail clients show their own "Unsubscribe" button.
      'List-Unsubscribe': `<${links.oneClick}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    },
    ...renderEmail({
      heading: 'Thanks for subscribing!',
      paragraphs: [
        `You will get the ${PRODUCT_NAME} newsletter at this address: new book guides, teaching ideas and product news, about once a month.`,
        'While you wait for the first one, browse the classics chapter by chapter and turn any of them into a quiz or a lesson.',
      ],
      action: { label: 'Browse the books', url: links.books },
      footer: [
        `Did not sign up, or changed your mind? Unsubscribe with one click: ${links.unsubscribePage}`,
      ],
    }),
  };
}

import { PASSWORD_RESET_TTL_MINUTES, PRODUCT_NAME } from '@chapterwise/shared';
import { renderEmail, type MailMessage } from '../../providers/mail/index.js';

/** The password reset email: the single-use link, how long it works, what to do if unasked. */
export function passwordResetEmail(
  to: { email: string; firstName: string },
  url: string,
): MailMessage {
  return {
    to: to.email,
    subject: `Reset your ${PRODUCT_NAME} password`,
    ...renderEmail({
      heading: `Hello ${to.firstName || 'there'},`,
      paragraphs: [
        `Someone (we hope you) asked to reset the password of your ${PRODUCT_NAME} account.`,
        `Choose a new password with the link below. It works once, for ${PASSWORD_RESET_TTL_MINUTES} minutes.`,
      ],
      action: { label: 'Choose a new password', url },
      footer: [
        'If you did not ask for this, you can ignore this email: your password stays as it is.',
      ],
    }),
  };
}

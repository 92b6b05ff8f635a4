import './zod-setup.js';
import { z } from 'zod';
import { EmailSchema } from './users.js';

/** Footer newsletter form (spec §3). `POST /users/subscribe/` takes a list holding one. */
export const NewsletterFormSchema = z.object({ email: EmailSchema });
export type NewsletterForm = z.input<typeof NewsletterFormSchema>;

/** `[{ email }]`: the spec's body for `POST /users/subscribe/` (one address per request). */
export const SubscribeInputSchema = z
  .array(NewsletterFormSchema)
  .min(1, 'Please enter your email address.')
  .max(1, 'Subscribe one address at a time.');

export const SubscribeAnswerSchema = z.object({ wasSuccessful: z.literal(true) });

/** The unsubscribe link's token (signed, so no database lookup can be guessed). */
export const UnsubscribeInputSchema = z.object({
  token: z
    .string()
    .min(1, 'The unsubscribe link is incomplete.')
    .max(300, 'The unsubscribe link is not valid.'),
});

/** What the unsubscribe page shows: the address (partly hidden) and whether it is subscribed. */
export const NewsletterStatusAnswerSchema = z.object({
  email: z.string(),
  subscribed: z.boolean(),
});
export type NewsletterStatusAnswer = z.infer<typeof NewsletterStatusAnswerSchema>;

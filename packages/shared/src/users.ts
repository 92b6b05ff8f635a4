import { z } from 'zod';

/** The signed-in user's own account, as `/users/me` and `/users/login` answer it. */
export const OwnUserSchema = z.object({
  _id: z.string(),
  username: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  bio: z.string(),
  createdAt: z.string(),
  websiteUrl: z.string(),
  instagramUrl: z.string(),
  twitterUrl: z.string(),
  facebookUrl: z.string(),
  avatar: z.string(),
  address: z.string(),
  city: z.string(),
  state: z.string(),
  postal: z.string(),
  country: z.string(),
  generationCredits: z.number().int(),
  isSubscribed: z.boolean(),
  isAdmin: z.boolean(),
});
export type OwnUser = z.infer<typeof OwnUserSchema>;

/** What anyone may see of a user on their public profile. Never the email. */
export const PublicUserSchema = OwnUserSchema.pick({
  username: true,
  firstName: true,
  lastName: true,
  bio: true,
  createdAt: true,
  avatar: true,
  websiteUrl: true,
  instagramUrl: true,
  twitterUrl: true,
  facebookUrl: true,
});
export type PublicUser = z.infer<typeof PublicUserSchema>;

/** `{ token, user }` from login and `/users/me`. */
export const SessionAnswerSchema = z.object({ token: z.string(), user: OwnUserSchema });
export type SessionAnswer = z.infer<typeof SessionAnswerSchema>;

/**
 * A user may start a generation only with credits above 0 or an active subscription
 * (spec §5: otherwise the user is "disabled").
 */
export function canGenerate(user: Pick<OwnUser, 'generationCredits' | 'isSubscribed'>): boolean {
  return user.isSubscribed || user.generationCredits > 0;
}

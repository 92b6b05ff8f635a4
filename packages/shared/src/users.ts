import './zod-setup.js';
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
  /** Bought in packs (billing); read-only for clients like the two fields above. */
  imageGenerationCredits: z.number().int(),
  modelTrainingCredits: z.number().int(),
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

// ---------------------------------------------------------------------------------------------
// Limits and the input schemas. The web forms and the API routes use these same schemas.

export const USERNAME_MIN = 3;
export const USERNAME_MAX = 30;
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 256;
export const NAME_MAX = 60;
export const BIO_MAX = 1000;
export const URL_MAX = 300;
export const EMAIL_MAX = 254;
/** Avatars: jpeg, png or webp up to 5 MB, checked by content on the server. */
export const AVATAR_MAX_BYTES = 5 * 1024 * 1024;
export const AVATAR_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;
/** The square size avatars are re-encoded to. */
export const AVATAR_SIZE_PX = 256;
/** How long a password reset link works. */
export const PASSWORD_RESET_TTL_MINUTES = 60;

/** An email address: trimmed, at most 254 characters. */
export const EmailSchema = z
  .string({ error: 'Please enter your email address.' })
  .trim()
  .min(1, 'Please enter your email address.')
  .max(EMAIL_MAX, `An email address has at most ${EMAIL_MAX} characters.`)
  .pipe(z.email('Please enter a valid email address.'));

/** A new password: 8 to 256 characters (spaces allowed: passphrases are welcome). */
export const NewPasswordSchema = z
  .string({ error: 'Please enter a password.' })
  .min(PASSWORD_MIN, `Passwords need at least ${PASSWORD_MIN} characters.`)
  .max(PASSWORD_MAX, `Passwords can have at most ${PASSWORD_MAX} characters.`);

/** 3–30 letters, digits, `_` or `-`; unique without regard to case. */
export const UsernameSchema = z
  .string({ error: 'Please choose a username.' })
  .trim()
  .min(USERNAME_MIN, `Usernames need at least ${USERNAME_MIN} characters.`)
  .max(USERNAME_MAX, `Usernames can have at most ${USERNAME_MAX} characters.`)
  .regex(/^[A-Za-z0-9_-]+$/, 'Usernames may use only letters, digits, "_" and "-".');

const name = (label: string, required: boolean) => {
  const base = z.string().trim().max(NAME_MAX, `${label} can have at most ${NAME_MAX} characters.`);
  return required ? base.min(1, `Please enter your ${label.toLowerCase()}.`) : base;
};

const text = (label: string, max: number) =>
  z.string().trim().max(max, `${label} can have at most ${max} characters.`);

/** http(s), a host name with a dot, optional port, then anything without spaces. */
const WEB_ADDRESS = /^https?:\/\/[a-z0-9-]+(\.[a-z0-9-]+)+(:\d{1,5})?([/?#]\S*)?$/i;

/**
 * A profile link: empty, or an http(s) address. A bare "example.com" gets "https://" in
 * front; any other scheme (javascript:, data:) is refused.
 */
export const ProfileUrlSchema = (label: string) =>
  z
    .string()
    .trim()
    .max(URL_MAX, `${label} can have at most ${URL_MAX} characters.`)
    .transform((value) => (value && !/^https?:\/\//i.test(value) ? `https://${value}` : value))
    .refine(
      (value) => !value || WEB_ADDRESS.test(value),
      `${label} must be a web address such as https://example.org.`,
    );

/** Registration form (spec §3). Address fields are optional; country defaults to US. */
export const RegisterInputSchema = z.object({
  username: UsernameSchema,
  firstName: name('First name', true),
  lastName: name('Last name', true),
  email: EmailSchema,
  password: NewPasswordSchema,
  /** Collected by the form; when sent it must match. */
  passwordConfirmation: z.string().max(PASSWORD_MAX).optional(),
  address: text('Address', 200).optional(),
  city: text('City', 100).optional(),
  state: text('State', 100).optional(),
  postal: text('Postal code', 20).optional(),
  country: text('Country', 60).optional(),
});
export type RegisterInput = z.input<typeof RegisterInputSchema>;

/** `POST /users/register` → 201 `{ user }`. */
export const RegisterAnswerSchema = z.object({ user: OwnUserSchema });

/** Login form (spec §3) plus 'Remember me' (30 days instead of 1). */
export const LoginInputSchema = z.object({
  email: z
    .string({ error: 'Please enter your email address.' })
    .trim()
    .min(1, 'Please enter your email address.')
    .max(EMAIL_MAX),
  password: z
    .string({ error: 'Please enter your password.' })
    .min(1, 'Please enter your password.')
    .max(PASSWORD_MAX, 'Incorrect email or password.'),
  rememberMe: z.boolean().optional(),
});
export type LoginInput = z.input<typeof LoginInputSchema>;

/**
 * `PATCH /users/{id}`: the editable profile fields. Read-only fields (`_id`, `username`,
 * `email`, `generationCredits`, `isSubscribed`, `imageGenerationCredits`, `modelTrainingCredits`,
 * `createdAt`) are not part of it and are ignored when sent. `avatar`: a `data:` URL uploads a new picture, `''` removes it, and the
 * current address (or anything else) leaves it as it is.
 */
export const UpdateProfileInputSchema = z.object({
  firstName: name('First name', true).optional(),
  lastName: name('Last name', false).optional(),
  bio: text('Bio', BIO_MAX).optional(),
  websiteUrl: ProfileUrlSchema('Website URL').optional(),
  instagramUrl: ProfileUrlSchema('Instagram URL').optional(),
  twitterUrl: ProfileUrlSchema('Twitter URL').optional(),
  facebookUrl: ProfileUrlSchema('Facebook URL').optional(),
  avatar: z.string().optional(),
  address: text('Address', 200).optional(),
  city: text('City', 100).optional(),
  state: text('State', 100).optional(),
  postal: text('Postal code', 20).optional(),
  country: text('Country', 60).optional(),
});
export type UpdateProfileInput = z.input<typeof UpdateProfileInputSchema>;

/** `PATCH /users/{id}` → `{ user }`. */
export const UserAnswerSchema = z.object({ user: OwnUserSchema });

/** Password tab (spec §3). */
export const ChangePasswordInputSchema = z.object({
  oldPassword: z
    .string({ error: 'Please enter your current password.' })
    .min(1, 'Please enter your current password.')
    .max(PASSWORD_MAX),
  newPassword: NewPasswordSchema,
  newPasswordConfirm: z.string({ error: 'Please confirm the new password.' }).max(PASSWORD_MAX),
});
export type ChangePasswordInput = z.input<typeof ChangePasswordInputSchema>;

/**
 * `{ wasSuccessful, message }`. After a password change the old tokens stop working, so the
 * answer carries a fresh `token` for this device.
 */
export const ResultAnswerSchema = z.object({
  wasSuccessful: z.boolean(),
  message: z.string(),
  token: z.string().optional(),
});
export type ResultAnswer = z.infer<typeof ResultAnswerSchema>;

/** Forgot password: the email to send the link to. */
export const ForgotPasswordInputSchema = z.object({ email: EmailSchema });
export type ForgotPasswordInput = z.input<typeof ForgotPasswordInputSchema>;

/** Reset password: the token from the emailed link and the new password twice. */
export const ResetPasswordInputSchema = z.object({
  token: z
    .string({ error: 'The reset link is incomplete.' })
    .min(1, 'The reset link is incomplete.')
    .max(200, 'The reset link is not valid.'),
  password: NewPasswordSchema,
  passwordConfirmation: z.string({ error: 'Please confirm the new password.' }).max(PASSWORD_MAX),
});
export type ResetPasswordInput = z.input<typeof ResetPasswordInputSchema>;

/** `GET /users/getuserinfobyusername/{username}` → `{ data: { user } }`. */
export const PublicProfileAnswerSchema = z.object({ data: z.object({ user: PublicUserSchema }) });
export type PublicProfileAnswer = z.infer<typeof PublicProfileAnswerSchema>;

/** The messages the password flows answer with (shown as they are on the screens). */
export const ACCOUNT_MESSAGES = {
  loginFailed: 'Incorrect email or password.',
  passwordsDiffer: 'The two passwords do not match.',
  passwordChanged: 'Your password has been changed.',
  wrongOldPassword: 'Your current password is not correct.',
  samePassword: 'The new password must be different from the current one.',
  resetRequested:
    'If an account uses that email address, we have sent it a link to choose a new password. The link works for 1 hour.',
  resetDone: 'Your password has been reset. You can now log in with your new password.',
  resetInvalid:
    'This reset link is not valid any more: it has expired or has already been used. Please ask for a new one.',
  profileUpdated: 'Profile updated successfully',
  profileFailed: 'An error has occured, try again later',
  loggedOut: 'You have been logged out.',
} as const;

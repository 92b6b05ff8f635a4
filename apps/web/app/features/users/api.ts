import type {
  ChangePasswordInput,
  ForgotPasswordInput,
  LoginInput,
  OwnUser,
  PublicProfileAnswer,
  RegisterInput,
  ResetPasswordInput,
  ResultAnswer,
  SessionAnswer,
  UpdateProfileInput,
} from '@chapterwise/shared';
import { apiRequest } from '../../lib/api';

/** The account calls of spec §7 (shapes in api-shapes.md). One function per endpoint. */

export const registerAccount = (input: RegisterInput) =>
  apiRequest<{ user: OwnUser }>('/users/register', { method: 'POST', body: input, auth: false });

export const logIn = (input: LoginInput) =>
  apiRequest<SessionAnswer>('/users/login', { method: 'POST', body: input, auth: false });

export const updateProfile = (id: string, input: UpdateProfileInput) =>
  apiRequest<{ user: OwnUser }>(`/users/${encodeURIComponent(id)}`, {
    method: 'PATCH',
    body: input,
  });

export const changePassword = (input: ChangePasswordInput) =>
  apiRequest<ResultAnswer>('/users/changepassword', { method: 'POST', body: input });

export const requestPasswordReset = (input: ForgotPasswordInput) =>
  apiRequest<ResultAnswer>('/users/sendpasswordresetemail/', {
    method: 'POST',
    body: input,
    auth: false,
  });

export const resetPassword = (input: ResetPasswordInput) =>
  apiRequest<ResultAnswer>('/users/resetpassword/', { method: 'POST', body: input, auth: false });

/** For the profile page's loader: pass the loader context's `apiFetch`. */
export const getPublicProfile = (username: string, fetch?: typeof globalThis.fetch) =>
  apiRequest<PublicProfileAnswer>(`/users/getuserinfobyusername/${encodeURIComponent(username)}`, {
    auth: false,
    ...(fetch ? { fetch } : {}),
  });

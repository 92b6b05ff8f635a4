import { ACCOUNT_MESSAGES, AVATAR_TYPES, type OwnUser } from '@chapterwise/shared';
import { useId, useRef, useState } from 'react';
import { errorMessage } from '../../../lib/api';
import { useSession } from '../../../lib/session';
import { useToast } from '../../../lib/toast';
import { updateProfile } from '../api';
import { Avatar } from './avatar';

const TEXT_FIELDS = [
  { name: 'firstName', label: 'First name', autoComplete: 'given-name' },
  { name: 'lastName', label: 'Last name', autoComplete: 'family-name' },
] as const;

const LINK_FIELDS = [
  { name: 'websiteUrl', label: 'Website', placeholder: 'https://your-class-site.org' },
  { name: 'facebookUrl', label: 'Facebook', placeholder: 'https://facebook.com/you' },
  { name: 'twitterUrl', label: 'Twitter', placeholder: 'https://twitter.com/you' },
  { name: 'instagramUrl', label: 'Instagram', placeholder: 'https://instagram.com/you' },
] as const;

type Editable = Pick<
  OwnUser,
  'firstName' | 'lastName' | 'bio' | 'websiteUrl' | 'facebookUrl' | 'twitterUrl' | 'instagramUrl'
>;

const pick = (user: OwnUser): Editable => ({
  firstName: user.firstName,
  lastName: user.lastName,
  bio: user.bio,
  websiteUrl: user.websiteUrl,
  facebookUrl: user.facebookUrl,
  twitterUrl: user.twitterUrl,
  instagramUrl: user.instagramUrl,
});

function readAsDataUrl(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(new Error('The file could not be read.'));
    reader.readAsDataURL(file);
  });
}

/**
 * Edit Info (spec §2 Account): names, bio, four links and the avatar (the first chosen
 * file); username and email are shown read-only. The server decides what is valid:
 * success toasts 'Profile updated successfully', failure 'An error has occured, try again
 * later' with the server's reason under the form.
 */
export function EditInfoForm({ user }: { user: OwnUser }) {
  const id = useId();
  const session = useSession();
  const toast = useToast();
  const fileInput = useRef<HTMLInputElement>(null);
  const [values, setValues] = useState<Editable>(() => pick(user));
  const [avatar, setAvatar] = useState<{ upload: string | null; preview: string }>({
    upload: null,
    preview: user.avatar,
  });
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const set =
    (name: keyof Editable) => (event: React.ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) =>
      setValues((all) => ({ ...all, [name]: event.target.value }));

  async function handleFiles(event: React.ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    if (!file) return;
    try {
      const dataUrl = await readAsDataUrl(file);
      setAvatar({ upload: dataUrl, preview: dataUrl });
    } catch (caught) {
      setError(errorMessage(caught));
    }
  }

  function handleRemoveAvatar() {
    setAvatar({ upload: '', preview: '' });
    if (fileInput.current) fileInput.current.value = '';
  }

  async function handleSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const answer = await updateProfile(user._id, {
        ...values,
        ...(avatar.upload !== null ? { avatar: avatar.upload } : {}),
      });
      session.setUser(answer.user);
      setValues(pick(answer.user));
      setAvatar({ upload: null, preview: answer.user.avatar });
      if (fileInput.current) fileInput.current.value = '';
      toast({ tone: 'success', message: ACCOUNT_MESSAGES.profileUpdated });
    } catch (caught) {
      setError(errorMessage(caught));
      toast({ tone: 'error', message: ACCOUNT_MESSAGES.profileFailed });
    } finally {
      setBusy(false);
    }
  }

  const displayName = `${values.firstName} ${values.lastName}`.trim() || user.username;
  return (
    <form className="account-form" onSubmit={handleSubmit} noValidate>
      <fieldset className="avatar-picker">
        <legend className="label">Profile picture</legend>
        <Avatar src={avatar.preview} name={displayName} size="lg" />
        <div className="avatar-actions">
          <label htmlFor={`${id}-avatar`} className="button button-ghost">
            Choose a picture
          </label>
          <input
            ref={fileInput}
            id={`${id}-avatar`}
            className="visually-hidden-file"
            type="file"
            name="avatar"
            accept={AVATAR_TYPES.join(',')}
            aria-describedby={`${id}-avatar-hint`}
            onChange={handleFiles}
          />
          {avatar.preview ? (
            <button type="button" className="button button-ghost" onClick={handleRemoveAvatar}>
              Remove
            </button>
          ) : null}
          <span id={`${id}-avatar-hint`} className="field-hint">
            JPEG, PNG or WebP up to 5 MB. It is cropped to a square.
            {avatar.upload ? ' Save to use the new picture.' : ''}
          </span>
        </div>
      </fieldset>

      <div className="form-grid">
        {TEXT_FIELDS.map((field) => (
          <div className="field" key={field.name}>
            <label htmlFor={`${id}-${field.name}`}>{field.label}</label>
            <input
              id={`${id}-${field.name}`}
              name={field.name}
              type="text"
              autoComplete={field.autoComplete}
              value={values[field.name]}
              onChange={set(field.name)}
            />
          </div>
        ))}
        <div className="field">
          <label htmlFor={`${id}-username`}>Username</label>
          <input
            id={`${id}-username`}
            type="text"
            value={user.username}
            readOnly
            aria-describedby={`${id}-ro`}
          />
        </div>
        <div className="field">
          <label htmlFor={`${id}-email`}>Email</label>
          <input
            id={`${id}-email`}
            type="email"
            value={user.email}
            readOnly
            aria-describedby={`${id}-ro`}
          />
        </div>
      </div>
      <p id={`${id}-ro`} className="field-hint read-only-note">
        Your username and email cannot be changed here. Your email is never shown on your public
        profile.
      </p>

      <div className="field">
        <label htmlFor={`${id}-bio`}>Bio</label>
        <textarea
          id={`${id}-bio`}
          name="bio"
          rows={4}
          placeholder="What and where you teach, what your students love reading…"
          value={values.bio}
          onChange={set('bio')}
        />
      </div>

      <div className="form-grid">
        {LINK_FIELDS.map((field) => (
          <div className="field" key={field.name}>
            <label htmlFor={`${id}-${field.name}`}>{field.label}</label>
            <input
              id={`${id}-${field.name}`}
              name={field.name}
              type="url"
              inputMode="url"
              autoComplete="url"
              placeholder={field.placeholder}
              value={values[field.name]}
              onChange={set(field.name)}
            />
          </div>
        ))}
      </div>

      <div role="alert">{error ? <p className="form-error">{error}</p> : null}</div>
      <button type="submit" className="button button-primary" disabled={busy}>
        {busy ? <span className="spinner" aria-hidden="true" /> : null}
        {busy ? 'Saving…' : 'Update Profile'}
      </button>
    </form>
  );
}

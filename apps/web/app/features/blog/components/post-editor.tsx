import {
  BLOG_CATEGORY_NAMES,
  BLOG_IMAGE_TYPES,
  BLOG_LIMITS,
  BlogPostInputSchema,
  blogPostHref,
  blogPostState,
  slugify,
  uniqueTags,
  type BlogAdminPostDetail,
  type BlogPostInput,
  type OwnUser,
} from '@chapterwise/shared';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { Link, useBeforeUnload, useBlocker, useNavigate } from 'react-router';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { errorMessage } from '../../../lib/api';
import { readFileAsDataUrl } from '../../../lib/files';
import { useToast } from '../../../lib/toast';
import {
  blogAdminKeys,
  createBlogPost,
  deleteBlogPost,
  previewMarkdown,
  saveBlogPost,
} from '../api';
import { POST_DELETE_TEXT, STATE_LABELS } from './admin-post-list';

interface Values {
  title: string;
  url: string;
  /** Whether the address was typed by hand (else it follows the title by the slug rule). */
  urlEdited: boolean;
  summary: string;
  markdown: string;
  /** `datetime-local` value in the browser's time zone, or ''. */
  publishDate: string;
  categories: string[];
  tags: string;
  featured: boolean;
  thumbnailImage: string;
  authorFirstName: string;
  authorLastName: string;
  authorBio: string;
  authorProfilePicture: string;
}

type FieldErrors = Partial<Record<keyof Values, string>>;

/** ISO → the `datetime-local` value of the same moment in this browser's time zone. */
export function toLocalInput(iso: string): string {
  if (!iso) return '';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return new Date(date.getTime() - date.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
}

/** A `datetime-local` value (this browser's time zone) → ISO in UTC, or null. */
export function fromLocalInput(value: string): string | null {
  if (!value) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

function valuesOf(post: BlogAdminPostDetail | undefined, user: OwnUser): Values {
  if (!post) {
    return {
      title: '',
      url: '',
      urlEdited: false,
      summary: '',
      markdown: '',
      publishDate: '',
      categories: [],
      tags: '',
      featured: false,
      thumbnailImage: '',
      authorFirstName: user.firstName,
      authorLastName: user.lastName,
      authorBio: user.bio,
      authorProfilePicture: user.avatar,
    };
  }
  return {
    title: post.title,
    url: post.url,
    urlEdited: post.url !== slugify(post.title),
    summary: post.summary,
    markdown: post.markdown,
    publishDate: toLocalInput(post.publishDate),
    categories: post.categories,
    tags: post.tags.join(', '),
    featured: post.featured,
    thumbnailImage: post.thumbnailImage,
    authorFirstName: post.authorFirstName,
    authorLastName: post.authorLastName,
    authorBio: post.authorBio,
    authorProfilePicture: post.authorProfilePicture,
  };
}

function inputOf(values: Values, status: 'draft' | 'published'): BlogPostInput {
  return {
    title: values.title,
    url: values.url || slugify(values.title),
    summary: values.summary,
    markdown: values.markdown,
    status,
    publishDate: fromLocalInput(values.publishDate),
    categories: values.categories as BlogPostInput['categories'],
    tags: uniqueTags(values.tags.split(',')),
    featured: values.featured,
    thumbnailImage: values.thumbnailImage,
    authorFirstName: values.authorFirstName,
    authorLastName: values.authorLastName,
    authorBio: values.authorBio,
    authorProfilePicture: values.authorProfilePicture,
  };
}

/** The live preview: the server renders and sanitises exactly as it will for readers. */
function usePreview(markdown: string) {
  const [preview, setPreview] = useState<{ html: string; minutes: number; error: string | null }>({
    html: '',
    minutes: 0,
    error: null,
  });
  useEffect(() => {
    if (!markdown.trim()) {
      setPreview({ html: '', minutes: 0, error: null });
      return;
    }
    const controller = new AbortController();
    const timer = window.setTimeout(() => {
      previewMarkdown(markdown, controller.signal).then(
        (answer) => setPreview({ html: answer.html, minutes: answer.readingMinutes, error: null }),
        (error: unknown) => {
          if ((error as Error).name !== 'AbortError') {
            setPreview((p) => ({ ...p, error: errorMessage(error) }));
          }
        },
      );
    }, 350);
    return () => {
      window.clearTimeout(timer);
      controller.abort();
    };
  }, [markdown]);
  return preview;
}

/**
 * The post editor (admins): title, address (from the title by the slug rule until edited),
 * summary, Markdown body with a live preview, publish date and time (ahead = scheduled),
 * categories, tags, recommended, thumbnail upload and the author (from the admin's profile).
 * Save as draft, publish or schedule, unpublish, delete. The shared schema checks the form
 * before it is sent; the server checks it again and has the last word.
 */
export function PostEditor({ post, user }: { post?: BlogAdminPostDetail; user: OwnUser }) {
  const id = useId();
  const navigate = useNavigate();
  const toast = useToast();
  const queryClient = useQueryClient();
  const [saved, setSaved] = useState<BlogAdminPostDetail | undefined>(post);
  const [values, setValues] = useState<Values>(() => valuesOf(post, user));
  const [baseline, setBaseline] = useState(() => JSON.stringify(valuesOf(post, user)));
  const [errors, setErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState<null | 'draft' | 'published' | 'delete'>(null);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const thumbnailInput = useRef<HTMLInputElement>(null);
  const pictureInput = useRef<HTMLInputElement>(null);
  const preview = usePreview(values.markdown);

  const dirty = JSON.stringify(values) !== baseline;
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      dirty && busy === null && currentLocation.pathname !== nextLocation.pathname,
  );
  useBeforeUnload((event) => {
    if (dirty) event.preventDefault();
  });

  const state = saved ? blogPostState(saved.status, saved.publishDate || null) : 'draft';
  const publishIso = fromLocalInput(values.publishDate);
  const scheduled = publishIso !== null && new Date(publishIso).getTime() > Date.now();
  const address = values.url || slugify(values.title);
  const ids = useMemo(
    () =>
      Object.fromEntries(
        [
          'title',
          'url',
          'summary',
          'markdown',
          'publishDate',
          'tags',
          'thumbnailImage',
          'authorFirstName',
          'authorLastName',
          'authorBio',
          'authorProfilePicture',
          'categories',
        ].map((name) => [name, `${id}-${name}`]),
      ) as Record<keyof Values, string>,
    [id],
  );

  const set =
    <K extends keyof Values>(name: K) =>
    (value: Values[K]) =>
      setValues((all) => {
        const next = { ...all, [name]: value };
        if (name === 'title' && !all.urlEdited) next.url = slugify(String(value));
        return next;
      });

  function describedBy(name: keyof Values, hint?: string) {
    return (
      [hint, errors[name] ? `${ids[name]}-error` : undefined].filter(Boolean).join(' ') || undefined
    );
  }

  const fieldError = (name: keyof Values) =>
    errors[name] ? (
      <p id={`${ids[name]}-error`} className="field-error">
        {errors[name]}
      </p>
    ) : null;

  async function handleFile(
    event: React.ChangeEvent<HTMLInputElement>,
    field: 'thumbnailImage' | 'authorProfilePicture',
  ) {
    const file = event.target.files?.[0];
    if (!file) return;
    if (file.size > BLOG_LIMITS.imageBytes) {
      setErrors((e) => ({
        ...e,
        [field]: 'The picture is larger than 5 MB. Please choose a smaller one.',
      }));
      event.target.value = '';
      return;
    }
    try {
      const dataUrl = await readFileAsDataUrl(file);
      setErrors((e) => ({ ...e, [field]: undefined }));
      set(field)(dataUrl);
    } catch (caught) {
      setErrors((e) => ({ ...e, [field]: errorMessage(caught) }));
    }
  }

  async function submit(status: 'draft' | 'published') {
    setFormError(null);
    const input = inputOf(values, status);
    const checked = BlogPostInputSchema.safeParse(input);
    if (!checked.success) {
      const next: FieldErrors = {};
      for (const issue of checked.error.issues) {
        const field = String(issue.path[0] ?? '') as keyof Values;
        if (field && !next[field]) next[field] = issue.message;
      }
      setErrors(next);
      setFormError('Please correct the fields marked below.');
      const first = Object.keys(next)[0] as keyof Values | undefined;
      if (first) document.getElementById(ids[first])?.focus();
      return;
    }
    setErrors({});
    setBusy(status);
    try {
      const result = saved ? await saveBlogPost(saved._id, input) : await createBlogPost(input);
      const nextValues = valuesOf(result, user);
      setSaved(result);
      setValues(nextValues);
      setBaseline(JSON.stringify(nextValues));
      queryClient.setQueryData(blogAdminKeys.one(result._id), result);
      await queryClient.invalidateQueries({ queryKey: [...blogAdminKeys.all, 'list'] });
      toast({
        tone: 'success',
        message:
          result.state === 'published'
            ? 'The post is published.'
            : result.state === 'scheduled'
              ? `The post is scheduled.`
              : 'The draft is saved.',
      });
      if (!saved) {
        // Leave "new" for the post's own address, so a reload edits this post.
        await navigate(`/admin/blog/${result._id}`, { replace: true });
      }
    } catch (caught) {
      setFormError(errorMessage(caught));
    } finally {
      setBusy(null);
    }
  }

  async function handleDelete() {
    if (!saved) return;
    setBusy('delete');
    try {
      await deleteBlogPost(saved._id);
      await queryClient.invalidateQueries({ queryKey: blogAdminKeys.all });
      setBaseline(JSON.stringify(values));
      setConfirmDelete(false);
      toast({
        tone: 'success',
        title: POST_DELETE_TEXT.toastTitle,
        message: POST_DELETE_TEXT.toastMessage,
        durationMs: 4000,
      });
      await navigate('/admin/blog');
    } catch (caught) {
      setConfirmDelete(false);
      setFormError(errorMessage(caught));
    } finally {
      setBusy(null);
    }
  }

  const published = state !== 'draft';
  return (
    <form
      className="post-editor"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void submit(published ? 'published' : 'draft');
      }}
    >
      <div className="editor-bar">
        <div className="editor-status">
          <span className={`state state-${state}`}>{STATE_LABELS[state]}</span>
          {dirty ? <span className="muted">Unsaved changes</span> : null}
          {saved && state === 'published' ? (
            <Link to={blogPostHref(saved.url)}>View post</Link>
          ) : null}
        </div>
        <div className="button-row">
          {published ? (
            <>
              <button type="submit" className="button button-primary" disabled={busy !== null}>
                {busy === 'published' ? <span className="spinner" aria-hidden="true" /> : null}
                {scheduled && state === 'published' ? 'Schedule' : 'Save changes'}
              </button>
              <button
                type="button"
                className="button button-ghost"
                disabled={busy !== null}
                onClick={() => void submit('draft')}
              >
                Unpublish
              </button>
            </>
          ) : (
            <>
              <button
                type="button"
                className="button button-ghost"
                disabled={busy !== null}
                onClick={() => void submit('draft')}
              >
                {busy === 'draft' ? <span className="spinner" aria-hidden="true" /> : null}
                Save draft
              </button>
              <button
                type="button"
                className="button button-primary"
                disabled={busy !== null}
                onClick={() => void submit('published')}
              >
                {busy === 'published' ? <span className="spinner" aria-hidden="true" /> : null}
                {scheduled ? 'Schedule' : 'Publish'}
              </button>
            </>
          )}
          {saved ? (
            <button
              type="button"
              className="button button-ghost button-danger-text"
              disabled={busy !== null}
              onClick={() => setConfirmDelete(true)}
            >
              Delete
            </button>
          ) : null}
        </div>
      </div>
      {formError ? (
        <div className="alert alert-error" role="alert">
          {formError}
        </div>
      ) : null}

      <fieldset className="card editor-section">
        <legend>Post</legend>
        <div className="field">
          <label htmlFor={ids.title}>Title</label>
          <input
            id={ids.title}
            type="text"
            value={values.title}
            maxLength={BLOG_LIMITS.title}
            aria-invalid={errors.title ? true : undefined}
            aria-describedby={describedBy('title')}
            onChange={(e) => set('title')(e.target.value)}
          />
          {fieldError('title')}
        </div>
        <div className="field">
          <label htmlFor={ids.url}>Address</label>
          <div className="url-field">
            <span className="muted" aria-hidden="true">
              /blog/
            </span>
            <input
              id={ids.url}
              type="text"
              value={values.url}
              maxLength={BLOG_LIMITS.url}
              aria-invalid={errors.url ? true : undefined}
              aria-describedby={describedBy('url', `${ids.url}-hint`)}
              onChange={(e) =>
                setValues((all) => ({ ...all, url: e.target.value, urlEdited: true }))
              }
              onBlur={() =>
                setValues((all) => ({
                  ...all,
                  url: slugify(all.url) || slugify(all.title),
                  urlEdited: Boolean(all.url) && slugify(all.url) !== slugify(all.title),
                }))
              }
            />
          </div>
          <p id={`${ids.url}-hint`} className="field-hint">
            Made from the title (lowercase, hyphens). The post will be at{' '}
            <code>{blogPostHref(address || 'your-title')}</code>.
            {published ? ' Changing it breaks links to the post.' : ''}
          </p>
          {fieldError('url')}
        </div>
        <div className="field">
          <label htmlFor={ids.summary}>Summary (optional)</label>
          <textarea
            id={ids.summary}
            rows={2}
            value={values.summary}
            maxLength={BLOG_LIMITS.summary}
            aria-describedby={describedBy('summary', `${ids.summary}-hint`)}
            onChange={(e) => set('summary')(e.target.value)}
          />
          <p id={`${ids.summary}-hint`} className="field-hint">
            Shown on cards, in search results and link previews. Empty: the opening of the body.{' '}
            {values.summary.length}/{BLOG_LIMITS.summary}
          </p>
          {fieldError('summary')}
        </div>
      </fieldset>

      <fieldset className="card editor-section">
        <legend>Body</legend>
        <div className="editor-body">
          <div className="field">
            <label htmlFor={ids.markdown}>Markdown</label>
            <textarea
              id={ids.markdown}
              className="markdown-input"
              rows={22}
              value={values.markdown}
              aria-invalid={errors.markdown ? true : undefined}
              aria-describedby={describedBy('markdown', `${ids.markdown}-hint`)}
              onChange={(e) => set('markdown')(e.target.value)}
            />
            <p id={`${ids.markdown}-hint`} className="field-hint">
              ## for a section heading, **bold**, *italic*, [a link](/books), - for a list, &gt; for
              a quotation, | for a table. Scripts, styles and embedded frames are removed.
            </p>
            {fieldError('markdown')}
          </div>
          <section className="editor-preview" aria-labelledby={`${id}-preview`} aria-live="polite">
            <h2 id={`${id}-preview`} className="label">
              Preview{preview.minutes ? ` · ${preview.minutes} min read` : ''}
            </h2>
            {preview.error ? <p className="text-error">{preview.error}</p> : null}
            <div className="preview-frame">
              {values.thumbnailImage ? (
                <img className="post-hero" src={values.thumbnailImage} alt="" />
              ) : null}
              <p className="preview-title">{values.title || 'Untitled post'}</p>
              {preview.html ? (
                <div className="post-body" dangerouslySetInnerHTML={{ __html: preview.html }} />
              ) : (
                <p className="muted">The body appears here as readers will see it.</p>
              )}
            </div>
          </section>
        </div>
      </fieldset>

      <fieldset className="card editor-section">
        <legend>Publishing</legend>
        <div className="form-grid">
          <div className="field">
            <label htmlFor={ids.publishDate}>Publish date and time</label>
            <input
              id={ids.publishDate}
              type="datetime-local"
              value={values.publishDate}
              aria-invalid={errors.publishDate ? true : undefined}
              aria-describedby={describedBy('publishDate', `${ids.publishDate}-hint`)}
              onChange={(e) => set('publishDate')(e.target.value)}
            />
            <p id={`${ids.publishDate}-hint`} className="field-hint">
              Your time zone. Empty: now, when you publish. A time ahead schedules the post: it
              appears by itself then.
            </p>
            {fieldError('publishDate')}
          </div>
          <div className="field">
            <label htmlFor={ids.tags}>Tags</label>
            <input
              id={ids.tags}
              type="text"
              value={values.tags}
              aria-invalid={errors.tags ? true : undefined}
              aria-describedby={describedBy('tags', `${ids.tags}-hint`)}
              onChange={(e) => set('tags')(e.target.value)}
            />
            <p id={`${ids.tags}-hint`} className="field-hint">
              Separated by commas, at most {BLOG_LIMITS.tags}. For example: Gothic, Frankenstein
            </p>
            {fieldError('tags')}
          </div>
        </div>
        <fieldset
          className="checkbox-group"
          aria-describedby={errors.categories ? `${ids.categories}-error` : undefined}
        >
          <legend className="label" id={ids.categories} tabIndex={-1}>
            Categories
          </legend>
          {BLOG_CATEGORY_NAMES.map((name) => (
            <label key={name} className="checkbox">
              <input
                type="checkbox"
                checked={values.categories.includes(name)}
                onChange={(e) =>
                  set('categories')(
                    e.target.checked
                      ? BLOG_CATEGORY_NAMES.filter(
                          (n) => n === name || values.categories.includes(n),
                        )
                      : values.categories.filter((n) => n !== name),
                  )
                }
              />
              {name}
            </label>
          ))}
          {fieldError('categories')}
        </fieldset>
        <label className="checkbox">
          <input
            type="checkbox"
            checked={values.featured}
            onChange={(e) => set('featured')(e.target.checked)}
          />
          Recommend it in the blog's sidebar
        </label>
      </fieldset>

      <fieldset className="card editor-section">
        <legend>Thumbnail</legend>
        <div className="thumbnail-field">
          {values.thumbnailImage ? (
            <img
              className="thumbnail-preview"
              src={values.thumbnailImage}
              alt="Thumbnail preview"
            />
          ) : (
            <span className="thumbnail-preview thumbnail-empty">No thumbnail</span>
          )}
          <div className="field">
            <label htmlFor={ids.thumbnailImage}>Upload a picture</label>
            <input
              ref={thumbnailInput}
              id={ids.thumbnailImage}
              type="file"
              accept={BLOG_IMAGE_TYPES.join(',')}
              aria-describedby={describedBy('thumbnailImage', `${ids.thumbnailImage}-hint`)}
              onChange={(e) => void handleFile(e, 'thumbnailImage')}
            />
            <p id={`${ids.thumbnailImage}-hint`} className="field-hint">
              JPEG, PNG or WebP up to 5 MB. It is cropped to 1200 × 630, the shape link previews
              use.
            </p>
            {fieldError('thumbnailImage')}
            {values.thumbnailImage ? (
              <button
                type="button"
                className="button button-ghost button-sm"
                onClick={() => {
                  set('thumbnailImage')('');
                  if (thumbnailInput.current) thumbnailInput.current.value = '';
                }}
              >
                Remove the thumbnail
              </button>
            ) : null}
          </div>
        </div>
      </fieldset>

      <fieldset className="card editor-section">
        <legend>Author</legend>
        <div className="form-grid">
          <div className="field">
            <label htmlFor={ids.authorFirstName}>First name</label>
            <input
              id={ids.authorFirstName}
              type="text"
              value={values.authorFirstName}
              maxLength={BLOG_LIMITS.authorName}
              aria-invalid={errors.authorFirstName ? true : undefined}
              aria-describedby={describedBy('authorFirstName')}
              onChange={(e) => set('authorFirstName')(e.target.value)}
            />
            {fieldError('authorFirstName')}
          </div>
          <div className="field">
            <label htmlFor={ids.authorLastName}>Last name</label>
            <input
              id={ids.authorLastName}
              type="text"
              value={values.authorLastName}
              maxLength={BLOG_LIMITS.authorName}
              onChange={(e) => set('authorLastName')(e.target.value)}
            />
          </div>
        </div>
        <div className="field">
          <label htmlFor={ids.authorBio}>Bio</label>
          <textarea
            id={ids.authorBio}
            rows={3}
            value={values.authorBio}
            maxLength={BLOG_LIMITS.authorBio}
            onChange={(e) => set('authorBio')(e.target.value)}
          />
        </div>
        <div className="author-picture-field">
          {values.authorProfilePicture ? (
            <img
              className="avatar"
              src={values.authorProfilePicture}
              alt="Author picture"
              width={64}
              height={64}
            />
          ) : (
            <span className="avatar avatar-initial author-picture-empty" aria-hidden="true">
              {(values.authorFirstName[0] ?? '?').toUpperCase()}
            </span>
          )}
          <div className="field">
            <label htmlFor={ids.authorProfilePicture}>Author picture</label>
            <input
              ref={pictureInput}
              id={ids.authorProfilePicture}
              type="file"
              accept={BLOG_IMAGE_TYPES.join(',')}
              aria-describedby={describedBy('authorProfilePicture')}
              onChange={(e) => void handleFile(e, 'authorProfilePicture')}
            />
            {fieldError('authorProfilePicture')}
            <div className="button-row">
              {user.avatar && values.authorProfilePicture !== user.avatar ? (
                <button
                  type="button"
                  className="button button-ghost button-sm"
                  onClick={() => set('authorProfilePicture')(user.avatar)}
                >
                  Use my profile picture
                </button>
              ) : null}
              {values.authorProfilePicture ? (
                <button
                  type="button"
                  className="button button-ghost button-sm"
                  onClick={() => {
                    set('authorProfilePicture')('');
                    if (pictureInput.current) pictureInput.current.value = '';
                  }}
                >
                  Remove the picture
                </button>
              ) : null}
            </div>
          </div>
        </div>
      </fieldset>

      <ConfirmDialog
        open={confirmDelete}
        title={POST_DELETE_TEXT.title}
        message={POST_DELETE_TEXT.message}
        busy={busy === 'delete'}
        onCancel={() => setConfirmDelete(false)}
        onConfirm={() => void handleDelete()}
      />
      <ConfirmDialog
        open={blocker.state === 'blocked'}
        title="Leave without saving?"
        message="Your changes to this post are not saved yet."
        confirmLabel="Leave"
        cancelLabel="Stay"
        onCancel={() => blocker.reset?.()}
        onConfirm={() => blocker.proceed?.()}
      />
    </form>
  );
}

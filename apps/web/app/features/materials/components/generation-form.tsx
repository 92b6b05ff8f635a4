import { canGenerate, GRADES, MATERIAL_LIMITS, type MaterialSet } from '@chapterwise/shared';
import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { ErrorBox } from '../../../components/ui/error-box';
import { useSession } from '../../../lib/session';
import { useMaterialTypes } from '../api';
import { useGeneration } from '../use-generation';
import { SubscriptionNotice } from './subscription-notice';

export interface GenerationPrefill {
  name?: string;
  subject?: string;
  referenceText?: string;
  bookUrl?: string;
  chapterUrl?: string;
}

export interface GenerationFormProps {
  /** The folder chosen at first (the folder page passes its own). */
  defaultSetId?: string | null;
  /** The user's folders for the folder chooser; without them the chooser is hidden. */
  sets?: MaterialSet[];
  /** Name, subject and text from a chapter, filled in once they arrive. */
  prefill?: GenerationPrefill;
  /** Where the file import goes (the imports feature fills it in; nothing by default). */
  importSlot?: (append: (text: string) => void, disabled: boolean) => ReactNode;
}

const SUBJECT_SUGGESTIONS = [
  'English',
  'English Language Arts',
  'Literature',
  'Reading',
  'History',
  'Social Studies',
  'Science',
  'Biology',
  'Philosophy',
  'Drama',
  'Writing',
];

/**
 * The 'Create Material' form (spec §2, §4, §5): name, subject, grade, type, reference text and
 * description. Enter submits (Ctrl+Enter inside the text boxes); while generating the button
 * reads 'Generating' and the form is locked; the log says 'Finished' when done; errors show in
 * a red box. A user without credits or subscription sees the form locked and the notice.
 */
export function GenerationForm({
  defaultSetId = null,
  sets,
  prefill,
  importSlot,
}: GenerationFormProps) {
  const { user, setUser, refresh } = useSession();
  const types = useMaterialTypes();
  const [name, setName] = useState('');
  const [subject, setSubject] = useState('');
  const [grade, setGrade] = useState('');
  const [type, setType] = useState('');
  const [referenceText, setReferenceText] = useState('');
  const [descriptionText, setDescriptionText] = useState('');
  const [setId, setSetId] = useState<string>(defaultSetId ?? '');
  const formRef = useRef<HTMLFormElement>(null);
  const ids = {
    name: useId(),
    subject: useId(),
    grade: useId(),
    type: useId(),
    ref: useId(),
    desc: useId(),
    set: useId(),
    subjects: useId(),
    refHint: useId(),
    descHint: useId(),
  };

  const generation = useGeneration({
    // The server took a credit on start and gives it back when a generation fails; mirror it.
    onStarted: () => {
      if (user && !user.isSubscribed)
        setUser({ ...user, generationCredits: Math.max(0, user.generationCredits - 1) });
    },
    // A material with too few of the questions asked for is not charged for (decision 025):
    // the server's balance says whether this one was.
    onFinished: () => {
      if (user && !user.isSubscribed) void refresh();
    },
    onFailed: () => {
      if (user && !user.isSubscribed)
        setUser({ ...user, generationCredits: user.generationCredits + 1 });
    },
  });

  // A chapter's name, subject and text fill the form once they arrive (the teacher's edits win).
  const applied = useRef<GenerationPrefill | undefined>(undefined);
  useEffect(() => {
    if (!prefill || applied.current === prefill) return;
    applied.current = prefill;
    if (prefill.name) setName((v) => v || prefill.name!);
    if (prefill.subject) setSubject((v) => v || prefill.subject!);
    if (prefill.referenceText) setReferenceText((v) => v || prefill.referenceText!);
  }, [prefill]);

  useEffect(() => {
    setSetId(defaultSetId ?? '');
  }, [defaultSetId]);

  const generating = generation.phase === 'generating';
  const disabledUser = user ? !canGenerate(user) : false;
  const locked = generating || disabledUser;
  const tooLong = referenceText.length > MATERIAL_LIMITS.referenceTextChars;

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    if (locked || !name.trim() || !subject.trim() || !grade || !type || tooLong) return;
    void generation.start({
      name: name.trim(),
      subject: subject.trim(),
      grade: grade as (typeof GRADES)[number],
      type,
      referenceText,
      descriptionText,
      setId: setId || null,
      ...(prefill?.bookUrl ? { bookUrl: prefill.bookUrl } : {}),
      ...(prefill?.chapterUrl ? { chapterUrl: prefill.chapterUrl } : {}),
    });
  };

  const append = (text: string) =>
    setReferenceText((current) =>
      current.trim() ? `${current.trimEnd()}\n\n${text.trim()}` : text.trim(),
    );

  return (
    <form
      ref={formRef}
      className="card generation-form"
      aria-labelledby={`${ids.name}-title`}
      onSubmit={submit}
      onKeyDown={(event) => {
        // Enter submits from the one-line fields; Ctrl/Cmd+Enter also from the text boxes.
        if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
          event.preventDefault();
          formRef.current?.requestSubmit();
        }
      }}
    >
      <h2 id={`${ids.name}-title`}>Create Material</h2>
      {user && !user.isSubscribed ? (
        <p className="credits-line muted">
          Generations left: <strong>{user.generationCredits}</strong>
        </p>
      ) : null}
      {disabledUser || generation.needsSubscription ? <SubscriptionNotice /> : null}
      <fieldset disabled={locked} className="generation-fields">
        <legend className="visually-hidden">Material details</legend>
        <div className="form-grid">
          <div className="field">
            <label htmlFor={ids.name}>Name</label>
            <input
              id={ids.name}
              type="text"
              required
              maxLength={MATERIAL_LIMITS.name}
              value={name}
              onChange={(e) => setName(e.target.value)}
              placeholder="Frankenstein, chapter 5 quiz"
              autoComplete="off"
            />
          </div>
          <div className="field">
            <label htmlFor={ids.subject}>Subject</label>
            <input
              id={ids.subject}
              type="text"
              required
              maxLength={MATERIAL_LIMITS.subject}
              value={subject}
              onChange={(e) => setSubject(e.target.value)}
              list={ids.subjects}
              placeholder="English"
              autoComplete="off"
            />
            <datalist id={ids.subjects}>
              {SUBJECT_SUGGESTIONS.map((s) => (
                <option key={s} value={s} />
              ))}
            </datalist>
          </div>
          <div className="field">
            <label htmlFor={ids.grade}>Grade</label>
            <select
              id={ids.grade}
              required
              value={grade}
              onChange={(e) => setGrade(e.target.value)}
            >
              <option value="">Select a grade</option>
              {GRADES.map((g) => (
                <option key={g} value={g}>
                  {g}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor={ids.type}>Type</label>
            <select id={ids.type} required value={type} onChange={(e) => setType(e.target.value)}>
              <option value="">Select a type</option>
              {(types.data ?? []).map((t) => (
                <option key={t} value={t}>
                  {t}
                </option>
              ))}
            </select>
          </div>
          {sets ? (
            <div className="field">
              <label htmlFor={ids.set}>Folder</label>
              <select id={ids.set} value={setId} onChange={(e) => setSetId(e.target.value)}>
                <option value="">No folder</option>
                {sets.map((s) => (
                  <option key={s._id} value={s._id}>
                    {s.name}
                  </option>
                ))}
              </select>
            </div>
          ) : null}
        </div>
        <div className="field">
          <label htmlFor={ids.ref}>Reference text</label>
          <textarea
            id={ids.ref}
            rows={10}
            value={referenceText}
            onChange={(e) => setReferenceText(e.target.value)}
            aria-describedby={ids.refHint}
            aria-invalid={tooLong || undefined}
            placeholder="Paste a chapter, an article or your own notes."
          />
          <p id={ids.refHint} className={`field-hint${tooLong ? ' text-error' : ''}`}>
            Recommended: every question and answer is checked against this text.{' '}
            {referenceText.length.toLocaleString('en-US')} /{' '}
            {MATERIAL_LIMITS.referenceTextChars.toLocaleString('en-US')} characters
            {tooLong ? ' — too long: use one chapter or a shorter passage.' : '.'}
          </p>
          {importSlot ? <div className="import-slot">{importSlot(append, locked)}</div> : null}
        </div>
        <div className="field">
          <label htmlFor={ids.desc}>Description</label>
          <textarea
            id={ids.desc}
            rows={3}
            maxLength={MATERIAL_LIMITS.descriptionText}
            value={descriptionText}
            onChange={(e) => setDescriptionText(e.target.value)}
            aria-describedby={ids.descHint}
            placeholder='For example: "10 questions, true/false only" or "a 60-minute lesson with 8 vocabulary words"'
          />
          <p id={ids.descHint} className="field-hint">
            Optional. Say how many questions and of which kinds, the lesson length, or what to focus
            on.
          </p>
        </div>
      </fieldset>
      <div className="generation-submit">
        <button
          type="submit"
          className="button button-primary button-lg"
          disabled={locked || tooLong}
        >
          {generating ? <span className="spinner" aria-hidden="true" /> : null}
          {generating ? 'Generating' : 'Generate Material'}
        </button>
        <p className="generation-log" role="status" aria-live="polite">
          {generation.log}
        </p>
      </div>
      <ErrorBox message={generation.needsSubscription ? null : generation.error} />
    </form>
  );
}

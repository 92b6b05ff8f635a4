import {
  checkMaterialEdit,
  evidenceMissing,
  locateEditMessage,
  lessonMinutes,
  numberedQuestions,
  QUESTION_KIND_LABELS,
  QUESTION_KINDS,
  UpdateMaterialBodySchema,
  type EditIssue,
  type EditTarget,
  type Material,
  type Question,
  type QuestionKind,
  type VocabularyItem,
} from '@chapterwise/shared';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { Link, useBlocker, useNavigate } from 'react-router';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { ApiClientError, errorMessage } from '../../../lib/api';
import { useToast } from '../../../lib/toast';
import { useUpdateMaterial } from '../api';
import {
  addQuestion,
  blankQuestion,
  listOf,
  moveQuestion,
  newQuestionId,
  numberQuestions,
  prepareForSave,
  removeQuestion,
  restoreQuestion,
  type EditorDraft,
  type QuestionPlace,
} from '../editor-draft';
import { EvidenceWarning } from './material-view';
import { ExportMenu } from './export-menu';
import { QuestionEditor, TextField } from './question-editor';

const MAX_EXIT_TICKET = 5;
const MAX_VOCABULARY = 30;
const MAX_OBJECTIVES = 8;

/** The first problem of a draft by the shared rules (the name, then the document), or null. */
export function checkDraft(draft: EditorDraft): EditIssue | null {
  const name = UpdateMaterialBodySchema.shape.name.safeParse(draft.name);
  if (!name.success) {
    return {
      target: { kind: 'material' },
      message: draft.name.trim()
        ? 'The name must be at most 200 characters.'
        : 'The name is required.',
    };
  }
  const check = checkMaterialEdit(prepareForSave(draft).document);
  return check.ok ? null : check.issue;
}

function countFlagged(material: Material): number {
  const document = material.output?.document;
  if (!document) return 0;
  return (
    numberedQuestions(document).filter(evidenceMissing).length +
    document.vocabulary.filter(evidenceMissing).length
  );
}

interface Deleted {
  question: Question;
  place: QuestionPlace;
  number: number;
}

export interface MaterialEditorProps {
  /** A finished material of the teacher's own (the route checks). */
  material: Material;
  /** Where Save and Cancel go back to: the page the teacher came from. */
  returnTo: string;
}

/**
 * The material editor (`/material/{id}/edit`): name, title and instructions; each question's
 * prompt, choices (the correct one picked with a radio), answer, evidence and explanation;
 * moving, deleting (with undo) and adding questions of any kind; vocabulary; the lesson's
 * objectives, activities and exit ticket. Save (or Ctrl/Cmd+S) checks the draft with the
 * shared rules first and shows a problem next to the question it names, as it does the
 * server's 400. Leaving with unsaved changes asks first.
 */
export function MaterialEditor({ material, returnTo }: MaterialEditorProps) {
  const stored = material.output!.document;
  const initial = useMemo<EditorDraft>(
    () => ({ name: material.name, document: structuredClone(stored) }),
    [material.name, stored],
  );
  const initialJson = useMemo(() => JSON.stringify(initial), [initial]);
  const [draft, setDraft] = useState<EditorDraft>(initial);
  const dirty = useMemo(() => JSON.stringify(draft) !== initialJson, [draft, initialJson]);
  const [problem, setProblem] = useState<{ issue: EditIssue; fromServer: boolean } | null>(null);
  const [deleted, setDeleted] = useState<Deleted | null>(null);
  const [focusQuestion, setFocusQuestion] = useState<string | null>(null);
  const [addKind, setAddKind] = useState<QuestionKind>('multiple_choice');
  const [exitKind, setExitKind] = useState<QuestionKind>('multiple_choice');
  const save = useUpdateMaterial();
  const navigate = useNavigate();
  const toast = useToast();
  const id = useId();
  const leaving = useRef(false);
  const focusProblem = useRef(false);
  const counter = useRef(1);

  const storedById = useMemo(
    () => new Map(numberedQuestions(stored).map((q) => [q.id, q])),
    [stored],
  );
  const numbered = useMemo(() => numberQuestions(draft.document), [draft.document]);
  const document = draft.document;

  // Once Save has found a problem, the shown one follows the draft as the teacher fixes it;
  // a server answer stays until the next Save unless the draft has a problem of its own.
  const liveIssue = useMemo(() => (problem ? checkDraft(draft) : null), [problem, draft]);
  const shown = problem ? (liveIssue ?? (problem.fromServer ? problem.issue : null)) : null;

  const anchorOf = (target: EditTarget) =>
    target.kind === 'material' ? `${id}-problem` : `${id}-problem-${target.kind}-${target.number}`;
  const placed = (target: EditTarget): boolean => {
    switch (target.kind) {
      case 'material':
        return false;
      case 'question':
        return target.number <= numbered.length;
      case 'vocabulary':
        return target.number <= document.vocabulary.length;
      case 'activity':
        return target.number <= (document.lesson?.activities.length ?? 0);
      case 'objective':
        return target.number <= (document.lesson?.objectives.length ?? 0);
      case 'part':
        return target.number <= document.sections.length;
    }
  };
  const problemAt = (target: EditTarget): string | null =>
    shown &&
    shown.target.kind === target.kind &&
    (target.kind === 'material' ||
      (shown.target.kind !== 'material' && shown.target.number === target.number))
      ? shown.message
      : null;
  const topProblem = shown && !placed(shown.target) ? shown.message : null;

  useEffect(() => {
    if (!focusProblem.current || !shown) return;
    focusProblem.current = false;
    const element = globalThis.document.getElementById(
      placed(shown.target) ? anchorOf(shown.target) : `${id}-problem`,
    );
    element?.scrollIntoView?.({ block: 'center' });
    element?.focus();
  });

  useEffect(() => {
    if (!focusQuestion) return;
    const field = globalThis.document.querySelector<HTMLElement>(
      `[data-qid="${CSS.escape(focusQuestion)}"] textarea`,
    );
    field?.scrollIntoView?.({ block: 'center' });
    field?.focus();
    setFocusQuestion(null);
  }, [focusQuestion]);

  const change = (apply: (draft: EditorDraft) => void) =>
    setDraft((current) => {
      const next = structuredClone(current);
      apply(next);
      return next;
    });
  const changeQuestion = (place: QuestionPlace, apply: (question: Question) => void) =>
    change((d) => {
      const question = listOf(d.document, place)[place.index];
      if (question) apply(question);
    });

  async function handleSave() {
    if (save.isPending) return;
    const issue = checkDraft(draft);
    if (issue) {
      focusProblem.current = true;
      setProblem({ issue, fromServer: false });
      return;
    }
    const prepared = prepareForSave(draft);
    try {
      const saved = await save.mutateAsync({
        id: material._id,
        name: prepared.name,
        document: prepared.document,
      });
      leaving.current = true;
      setProblem(null);
      const flagged = countFlagged(saved);
      toast({
        title: 'Material saved',
        message:
          flagged === 0
            ? 'Your changes are saved, and every quote was found in the reference text.'
            : `Your changes are saved. ${flagged === 1 ? 'One quote was' : `${flagged} quotes were`} not found in the reference text; ${flagged === 1 ? 'it is' : 'they are'} marked on the material.`,
        tone: 'success',
        durationMs: 5000,
      });
      navigate(returnTo);
    } catch (error) {
      const message = errorMessage(error);
      const target =
        error instanceof ApiClientError && error.status === 400
          ? locateEditMessage(message)
          : ({ kind: 'material' } as const);
      focusProblem.current = true;
      setProblem({ issue: { message, target }, fromServer: true });
    }
  }

  // Ctrl+S / Cmd+S saves, as in any editor.
  const saveRef = useRef(handleSave);
  useEffect(() => {
    saveRef.current = handleSave;
  });
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if ((event.ctrlKey || event.metaKey) && !event.altKey && event.key.toLowerCase() === 's') {
        event.preventDefault();
        void saveRef.current();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  // Unsaved changes: the browser asks before a reload or closing the tab, we ask before a link.
  useEffect(() => {
    if (!dirty) return;
    const onUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', onUnload);
    return () => window.removeEventListener('beforeunload', onUnload);
  }, [dirty]);
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      dirty &&
      !leaving.current &&
      (currentLocation.pathname !== nextLocation.pathname ||
        currentLocation.search !== nextLocation.search),
  );

  function handleDelete(entry: (typeof numbered)[number]) {
    change((d) => {
      removeQuestion(d.document, entry.place);
    });
    setDeleted({ question: entry.question, place: entry.place, number: entry.number });
  }

  function handleUndo() {
    if (!deleted) return;
    const { question, place } = deleted;
    change((d) => restoreQuestion(d.document, place, question));
    setDeleted(null);
    setFocusQuestion(question.id);
  }

  function handleAdd(kind: QuestionKind, to: 'sections' | 'exit') {
    const questionId = newQuestionId(draft.document, counter);
    change((d) => {
      addQuestion(d.document, blankQuestion(kind, questionId), to);
    });
    setFocusQuestion(questionId);
  }

  const renderQuestion = (entry: (typeof numbered)[number], headingLevel: 3 | 4) => {
    const list = listOf(document, entry.place);
    const target = { kind: 'question' as const, number: entry.number };
    return (
      <li key={entry.question.id} data-qid={entry.question.id}>
        <QuestionEditor
          question={entry.question}
          number={entry.number}
          headingLevel={headingLevel}
          stored={storedById.get(entry.question.id)}
          error={problemAt(target)}
          errorId={anchorOf(target)}
          canMoveUp={entry.place.index > 0}
          canMoveDown={entry.place.index < list.length - 1}
          onChange={(apply) => changeQuestion(entry.place, apply)}
          onMove={(delta) =>
            change((d) => {
              moveQuestion(d.document, entry.place, delta);
            })
          }
          onDelete={() => handleDelete(entry)}
        />
      </li>
    );
  };

  const lesson = document.lesson;
  const flaggedNow =
    numbered.filter((q) => evidenceMissing(q.question)).length +
    document.vocabulary.filter(evidenceMissing).length;

  return (
    <form
      className="material-editor"
      aria-labelledby={`${id}-title`}
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void handleSave();
      }}
    >
      <header className="page-head editor-head">
        <nav aria-label="Breadcrumb" className="breadcrumb">
          <Link to={returnTo}>Your materials</Link> <span aria-hidden="true">/</span>{' '}
          <span aria-current="page">Edit</span>
        </nav>
        <div className="editor-title-row">
          <h1 id={`${id}-title`}>Edit material</h1>
          <ExportMenu materialId={material._id} name={material.name} />
        </div>
        <p className="lead">
          Change the wording, the answers and the quotes. When you save, every quote is looked up
          again in the material’s reference text; one that is not there is kept, with a warning, so
          you can decide.
        </p>
      </header>

      {topProblem ? (
        <p className="alert alert-error" role="alert" tabIndex={-1} id={`${id}-problem`}>
          {topProblem}
        </p>
      ) : null}
      {flaggedNow > 0 ? (
        <p className="material-warning">
          {flaggedNow === 1 ? 'One quote' : `${flaggedNow} quotes`} of this material{' '}
          {flaggedNow === 1 ? 'was' : 'were'} not found in the reference text when it was last
          saved. {flaggedNow === 1 ? 'It is' : 'They are'} marked below.
        </p>
      ) : null}

      <section className="card editor-card" aria-labelledby={`${id}-details`}>
        <h2 id={`${id}-details`}>Details</h2>
        <div className="editor-grid">
          <TextField
            label="Name"
            value={draft.name}
            onChange={(value) => change((d) => void (d.name = value))}
            hint="Shown on the material’s card."
          />
          <TextField
            label="Title"
            value={document.title}
            onChange={(value) => change((d) => void (d.document.title = value))}
            hint="The heading of the printed material."
          />
        </div>
        <TextField
          label="Instructions"
          multiline
          value={document.instructions}
          onChange={(value) => change((d) => void (d.document.instructions = value))}
        />
        <p className="field-hint">
          Type, grade and subject stay as the material was made: {document.type}
          {document.grade ? `, ${document.grade}` : ''}
          {document.subject ? `, ${document.subject}` : ''}.
        </p>
        {material.referenceText.trim() ? (
          <details className="editor-reference">
            <summary>Show the reference text (to copy quotes from)</summary>
            <div
              className="editor-reference-text"
              tabIndex={0}
              role="region"
              aria-label="Reference text"
            >
              {material.referenceText}
            </div>
          </details>
        ) : (
          <p className="alert alert-info">
            This material was made without a reference text, so its answers cannot be checked
            against one: it stays unverified after your edits.
          </p>
        )}
      </section>

      {lesson ? (
        <section className="card editor-card" aria-labelledby={`${id}-lesson`}>
          <h2 id={`${id}-lesson`}>Lesson plan ({lessonMinutes(lesson)} minutes)</h2>
          <h3>Objectives</h3>
          <p className="field-hint">Students will be able to…</p>
          <ol className="editor-list">
            {lesson.objectives.map((objective, i) => {
              const target = { kind: 'objective' as const, number: i + 1 };
              const error = problemAt(target);
              return (
                <li key={i} className="editor-row">
                  {error ? (
                    <p className="field-error" id={anchorOf(target)} role="alert" tabIndex={-1}>
                      {error}
                    </p>
                  ) : null}
                  <div className="editor-row-fields">
                    <TextField
                      label={`Objective ${i + 1}`}
                      multiline
                      rows={1}
                      value={objective}
                      onChange={(value) =>
                        change((d) => void (d.document.lesson!.objectives[i] = value))
                      }
                    />
                    <button
                      type="button"
                      className="button button-ghost button-sm"
                      aria-label={`Remove objective ${i + 1}`}
                      disabled={lesson.objectives.length <= 1}
                      onClick={() => change((d) => void d.document.lesson!.objectives.splice(i, 1))}
                    >
                      Remove
                    </button>
                  </div>
                </li>
              );
            })}
          </ol>
          <button
            type="button"
            className="button button-ghost button-sm"
            disabled={lesson.objectives.length >= MAX_OBJECTIVES}
            onClick={() => change((d) => void d.document.lesson!.objectives.push(''))}
          >
            Add an objective
          </button>

          <h3>Activities</h3>
          <ol className="editor-list">
            {lesson.activities.map((activity, i) => {
              const target = { kind: 'activity' as const, number: i + 1 };
              const error = problemAt(target);
              return (
                <li key={i}>
                  <fieldset className="qe" aria-labelledby={`${id}-activity-${i}`}>
                    <div className="qe-head">
                      <h4 id={`${id}-activity-${i}`} className="qe-heading">
                        Activity {i + 1}
                      </h4>
                    </div>
                    {error ? (
                      <p className="field-error" id={anchorOf(target)} role="alert" tabIndex={-1}>
                        {error}
                      </p>
                    ) : null}
                    <div className="editor-grid editor-grid-activity">
                      <TextField
                        label="Title"
                        value={activity.title}
                        onChange={(value) =>
                          change((d) => void (d.document.lesson!.activities[i]!.title = value))
                        }
                      />
                      <MinutesField
                        value={activity.minutes}
                        onChange={(minutes) =>
                          change((d) => void (d.document.lesson!.activities[i]!.minutes = minutes))
                        }
                      />
                      <TextField
                        label="Grouping (optional)"
                        value={activity.grouping ?? ''}
                        onChange={(value) =>
                          change((d) => void (d.document.lesson!.activities[i]!.grouping = value))
                        }
                      />
                    </div>
                    <TextField
                      label="Steps"
                      multiline
                      rows={Math.min(8, Math.max(3, activity.steps.length + 1))}
                      value={activity.steps.join('\n')}
                      hint="One step per line."
                      onChange={(value) =>
                        change(
                          (d) => void (d.document.lesson!.activities[i]!.steps = value.split('\n')),
                        )
                      }
                    />
                  </fieldset>
                </li>
              );
            })}
          </ol>
          <p className="field-hint">
            The lesson’s length is its activities’ minutes added up. Key passages, differentiation,
            materials and assessment are kept as they are.
          </p>
        </section>
      ) : null}

      {stored.vocabulary.length > 0 || document.vocabulary.length > 0 ? (
        <section className="card editor-card" aria-labelledby={`${id}-vocabulary`}>
          <h2 id={`${id}-vocabulary`}>Vocabulary</h2>
          <ol className="editor-list">
            {document.vocabulary.map((item, i) => (
              <li key={i}>
                <VocabularyEditor
                  item={item}
                  number={i + 1}
                  stored={stored.vocabulary[i]}
                  error={problemAt({ kind: 'vocabulary', number: i + 1 })}
                  errorId={anchorOf({ kind: 'vocabulary', number: i + 1 })}
                  onChange={(apply) => change((d) => apply(d.document.vocabulary[i]!))}
                  onRemove={() => change((d) => void d.document.vocabulary.splice(i, 1))}
                />
              </li>
            ))}
          </ol>
          <button
            type="button"
            className="button button-ghost button-sm"
            disabled={document.vocabulary.length >= MAX_VOCABULARY}
            onClick={() =>
              change(
                (d) => void d.document.vocabulary.push({ term: '', definition: '', context: '' }),
              )
            }
          >
            Add a word
          </button>
        </section>
      ) : null}

      {document.sections.map((section, s) => {
        const target = { kind: 'part' as const, number: s + 1 };
        const error = problemAt(target);
        const headingId = `${id}-part-${s}`;
        const questions = numbered.filter(
          (q) => q.place.list === 'section' && q.place.section === s,
        );
        return (
          <section key={s} className="card editor-card" aria-labelledby={headingId}>
            <h2 id={headingId}>
              Part {s + 1}: {section.title || 'Untitled'}
            </h2>
            {error ? (
              <p className="field-error" id={anchorOf(target)} role="alert" tabIndex={-1}>
                {error}
              </p>
            ) : null}
            <div className="editor-grid">
              <TextField
                label="Part title"
                value={section.title}
                onChange={(value) => change((d) => void (d.document.sections[s]!.title = value))}
              />
              <TextField
                label="Part instructions (optional)"
                multiline
                rows={1}
                value={section.instructions}
                onChange={(value) =>
                  change((d) => void (d.document.sections[s]!.instructions = value))
                }
              />
            </div>
            {questions.length ? (
              <ol className="editor-questions">{questions.map((q) => renderQuestion(q, 3))}</ol>
            ) : (
              <p className="muted">No questions are left in this part; it goes when you save.</p>
            )}
          </section>
        );
      })}

      {lesson ? (
        <section className="card editor-card" aria-labelledby={`${id}-exit`}>
          <h2 id={`${id}-exit`}>Exit ticket</h2>
          <ol className="editor-questions">
            {numbered.filter((q) => q.place.list === 'exit').map((q) => renderQuestion(q, 3))}
          </ol>
          <AddQuestion
            label="Add an exit-ticket question"
            kindLabel="Kind of exit-ticket question"
            kind={exitKind}
            onKind={setExitKind}
            disabled={lesson.exitTicket.length >= MAX_EXIT_TICKET}
            onAdd={() => handleAdd(exitKind, 'exit')}
          />
        </section>
      ) : null}

      <section className="card editor-card" aria-labelledby={`${id}-add`}>
        <h2 id={`${id}-add`}>Add a question</h2>
        <AddQuestion
          label="Add question"
          kind={addKind}
          onKind={setAddKind}
          onAdd={() => handleAdd(addKind, 'sections')}
        />
        <p className="field-hint">
          It goes at the end of the part with questions of its kind, or in a new part.
        </p>
      </section>

      <div className="editor-bar" role="region" aria-label="Save or cancel">
        <div className="editor-bar-status" aria-live="polite">
          {deleted ? (
            <>
              Question {deleted.number} deleted.{' '}
              <button type="button" className="button button-ghost button-sm" onClick={handleUndo}>
                Undo
              </button>
            </>
          ) : dirty ? (
            'Unsaved changes'
          ) : (
            'No changes yet'
          )}
        </div>
        <div className="button-row">
          <button type="button" className="button button-ghost" onClick={() => navigate(returnTo)}>
            Cancel
          </button>
          <button
            type="submit"
            className="button button-primary"
            disabled={save.isPending}
            aria-keyshortcuts="Control+S Meta+S"
          >
            {save.isPending ? <span className="spinner" aria-hidden="true" /> : null}
            Save changes
          </button>
        </div>
      </div>

      <ConfirmDialog
        open={blocker.state === 'blocked'}
        title="Leave without saving?"
        message="Your changes to this material have not been saved. If you leave now they are lost."
        confirmLabel="Leave without saving"
        cancelLabel="Keep editing"
        onConfirm={() => blocker.proceed?.()}
        onCancel={() => blocker.reset?.()}
      />
    </form>
  );
}

function MinutesField({ value, onChange }: { value: number; onChange: (minutes: number) => void }) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>Minutes</label>
      <input
        id={id}
        type="number"
        inputMode="numeric"
        min={1}
        max={240}
        step={1}
        value={Number.isFinite(value) && value > 0 ? String(value) : ''}
        onChange={(event) => {
          const minutes = Number(event.target.value);
          onChange(event.target.value === '' || !Number.isFinite(minutes) ? 0 : minutes);
        }}
      />
    </div>
  );
}

function AddQuestion({
  label,
  kindLabel = 'Kind of question',
  kind,
  onKind,
  onAdd,
  disabled = false,
}: {
  label: string;
  kindLabel?: string;
  kind: QuestionKind;
  onKind: (kind: QuestionKind) => void;
  onAdd: () => void;
  disabled?: boolean;
}) {
  const id = useId();
  return (
    <div className="editor-add">
      <div className="field">
        <label htmlFor={id}>{kindLabel}</label>
        <select
          id={id}
          value={kind}
          onChange={(event) => onKind(event.target.value as QuestionKind)}
        >
          {QUESTION_KINDS.map((k) => (
            <option key={k} value={k}>
              {QUESTION_KIND_LABELS[k]}
            </option>
          ))}
        </select>
      </div>
      <button type="button" className="button button-ghost" disabled={disabled} onClick={onAdd}>
        {label}
      </button>
    </div>
  );
}

function VocabularyEditor({
  item,
  number,
  stored,
  error,
  errorId,
  onChange,
  onRemove,
}: {
  item: VocabularyItem;
  number: number;
  stored: VocabularyItem | undefined;
  error: string | null;
  errorId: string;
  onChange: (apply: (item: VocabularyItem) => void) => void;
  onRemove: () => void;
}) {
  const id = useId();
  const flagged = evidenceMissing(item) && stored?.context === item.context;
  return (
    <fieldset className="qe" aria-labelledby={`${id}-heading`}>
      <div className="qe-head">
        <h3 id={`${id}-heading`} className="qe-heading">
          Word {number}
        </h3>
        <div className="qe-tools">
          <button
            type="button"
            className="button button-ghost button-sm"
            aria-label={`Remove word ${number}`}
            onClick={onRemove}
          >
            Remove
          </button>
        </div>
      </div>
      {error ? (
        <p className="field-error" id={errorId} role="alert" tabIndex={-1}>
          {error}
        </p>
      ) : null}
      <div className="editor-grid">
        <TextField
          label="Word"
          value={item.term}
          onChange={(value) => onChange((v) => void (v.term = value))}
        />
        <TextField
          label="Part of speech (optional)"
          value={item.partOfSpeech ?? ''}
          onChange={(value) => onChange((v) => void (v.partOfSpeech = value))}
        />
      </div>
      <TextField
        label="Definition"
        multiline
        value={item.definition}
        onChange={(value) => onChange((v) => void (v.definition = value))}
      />
      <TextField
        label="Example from the text"
        multiline
        value={item.context}
        onChange={(value) => onChange((v) => void (v.context = value))}
        hint="The sentence of the text where the word is used."
        {...(flagged ? { describedBy: `${id}-warning` } : {})}
      />
      {flagged ? <EvidenceWarning id={`${id}-warning`} /> : null}
    </fieldset>
  );
}

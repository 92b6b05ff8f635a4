import {
  choiceLetter,
  evidenceMissing,
  evidenceOf,
  QUESTION_KIND_LABELS,
  type Question,
} from '@chapterwise/shared';
import { useId, type ReactNode } from 'react';
import { removeChoice } from '../editor-draft';
import { EvidenceWarning } from './material-view';

const MAX_CHOICES = 6;
const MIN_CHOICES = 2;
const MAX_PAIRS = 12;
const MIN_PAIRS = 2;

/** Rows enough for a text at about 60 characters a line, up to 8 (Chromium sizes to fit anyway). */
function fittingRows(value: string): number {
  const lines = value
    .split('\n')
    .reduce((sum, line) => sum + Math.max(1, Math.ceil(line.length / 60)), 0);
  return Math.min(8, lines);
}

interface TextFieldProps {
  label: ReactNode;
  value: string;
  onChange: (value: string) => void;
  multiline?: boolean;
  rows?: number;
  hint?: ReactNode;
  describedBy?: string;
  className?: string;
}

/** A labelled input or textarea; the hint is read with the field. */
export function TextField({
  label,
  value,
  onChange,
  multiline = false,
  rows = 2,
  hint,
  describedBy,
  className,
}: TextFieldProps) {
  const id = useId();
  const hintId = hint ? `${id}-hint` : undefined;
  const described = [hintId, describedBy].filter(Boolean).join(' ') || undefined;
  return (
    <div className={`field${className ? ` ${className}` : ''}`}>
      <label htmlFor={id}>{label}</label>
      {multiline ? (
        <textarea
          id={id}
          rows={Math.max(rows, fittingRows(value))}
          value={value}
          aria-describedby={described}
          onChange={(event) => onChange(event.target.value)}
        />
      ) : (
        <input
          id={id}
          type="text"
          value={value}
          aria-describedby={described}
          onChange={(event) => onChange(event.target.value)}
        />
      )}
      {hint ? (
        <span className="field-hint" id={hintId}>
          {hint}
        </span>
      ) : null}
    </div>
  );
}

function ArrowIcon({ up }: { up: boolean }) {
  return (
    <svg viewBox="0 0 20 20" width="16" height="16" aria-hidden="true" focusable="false">
      <path
        d={up ? 'M10 16V4m-5 5 5-5 5 5' : 'M10 4v12m-5-5 5 5 5-5'}
        fill="none"
        stroke="currentColor"
        strokeWidth="1.8"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}

function CrossIcon() {
  return (
    <svg viewBox="0 0 20 20" width="14" height="14" aria-hidden="true" focusable="false">
      <path
        d="m5 5 10 10M15 5 5 15"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.8"
        strokeLinecap="round"
      />
    </svg>
  );
}

export interface QuestionEditorProps {
  question: Question;
  /** The printed number ("Question 3"). */
  number: number;
  /** The level of the question's heading under its part's. */
  headingLevel?: 3 | 4;
  /** The question as stored, to tell whether its evidence changed since the last save. */
  stored?: Question | undefined;
  /** The check's (or the server's) message about this question. */
  error?: string | null | undefined;
  /** The id of the error message, which Save focuses when this question has a problem. */
  errorId: string;
  canMoveUp: boolean;
  canMoveDown: boolean;
  onChange: (change: (question: Question) => void) => void;
  onMove: (delta: -1 | 1) => void;
  onDelete: () => void;
}

/**
 * One question in the editor: its prompt, what its kind needs (choices with the correct one
 * picked by a radio, true or false, the answer, pairs to match), its evidence quote and
 * explanation, and buttons to move it within its part or delete it.
 */
export function QuestionEditor({
  question,
  number,
  headingLevel = 3,
  stored,
  error,
  errorId,
  canMoveUp,
  canMoveDown,
  onChange,
  onMove,
  onDelete,
}: QuestionEditorProps) {
  const id = useId();
  const headingId = `${id}-heading`;
  const Heading = headingLevel === 3 ? 'h3' : 'h4';
  const quotes = evidenceOf(question).join('\n');
  const quoteChanged = !stored || evidenceOf(stored).join('\n') !== quotes;
  const warnId = `${id}-warning`;
  const flagged = evidenceMissing(question) && !quoteChanged;
  const evidenceHint = quoteChanged
    ? 'Copy it from the reference text. It is checked against the text when you save.'
    : 'A quote copied from the reference text.';

  return (
    <fieldset
      className={`qe${error ? ' qe-invalid' : ''}`}
      aria-labelledby={headingId}
      aria-describedby={error ? errorId : undefined}
    >
      <div className="qe-head">
        <Heading id={headingId} className="qe-heading">
          Question {number} <span className="badge">{QUESTION_KIND_LABELS[question.kind]}</span>
        </Heading>
        <div className="qe-tools">
          <button
            type="button"
            className="icon-button icon-button-sm"
            aria-label={`Move question ${number} up`}
            disabled={!canMoveUp}
            onClick={() => onMove(-1)}
          >
            <ArrowIcon up />
          </button>
          <button
            type="button"
            className="icon-button icon-button-sm"
            aria-label={`Move question ${number} down`}
            disabled={!canMoveDown}
            onClick={() => onMove(1)}
          >
            <ArrowIcon up={false} />
          </button>
          <button
            type="button"
            className="button button-ghost button-sm qe-delete"
            aria-label={`Delete question ${number}`}
            onClick={onDelete}
          >
            Delete
          </button>
        </div>
      </div>
      {error ? (
        <p className="field-error" id={errorId} role="alert" tabIndex={-1}>
          {error}
        </p>
      ) : null}

      <TextField
        label={question.kind === 'true_false' ? 'Statement' : 'Question'}
        multiline
        value={question.prompt}
        onChange={(value) =>
          onChange((q) => {
            q.prompt = value;
          })
        }
        {...(question.kind === 'fill_blank'
          ? { hint: 'Write ___ (three underscores or more) where the blank goes.' }
          : {})}
      />

      <KindFields question={question} number={number} onChange={onChange} />

      {question.kind !== 'matching' ? (
        <TextField
          label="Evidence"
          multiline
          value={question.evidence}
          onChange={(value) =>
            onChange((q) => {
              if (q.kind !== 'matching') q.evidence = value;
            })
          }
          hint={evidenceHint}
          {...(flagged ? { describedBy: warnId } : {})}
          className="qe-evidence"
        />
      ) : null}
      {flagged ? <EvidenceWarning id={warnId} /> : null}

      <TextField
        label="Explanation (optional)"
        multiline
        value={question.explanation ?? ''}
        onChange={(value) =>
          onChange((q) => {
            q.explanation = value;
          })
        }
      />
    </fieldset>
  );
}

function KindFields({
  question,
  number,
  onChange,
}: {
  question: Question;
  number: number;
  onChange: QuestionEditorProps['onChange'];
}) {
  const id = useId();
  switch (question.kind) {
    case 'multiple_choice':
      return (
        <fieldset className="qe-group">
          <legend className="label">Choices: pick the correct one</legend>
          <ol className="qe-choices">
            {question.choices.map((choice, i) => {
              const letter = choiceLetter(i);
              return (
                <li key={i} className="qe-choice">
                  <input
                    type="radio"
                    name={`${id}-correct`}
                    checked={question.answerIndex === i}
                    aria-label={`Choice ${letter} is correct`}
                    onChange={() =>
                      onChange((q) => {
                        if (q.kind === 'multiple_choice') q.answerIndex = i;
                      })
                    }
                  />
                  <span className="qe-letter" aria-hidden="true">
                    {letter}.
                  </span>
                  <input
                    type="text"
                    aria-label={`Choice ${letter}`}
                    value={choice}
                    onChange={(event) =>
                      onChange((q) => {
                        if (q.kind === 'multiple_choice') q.choices[i] = event.target.value;
                      })
                    }
                  />
                  <button
                    type="button"
                    className="icon-button icon-button-sm"
                    aria-label={`Remove choice ${letter}`}
                    disabled={question.choices.length <= MIN_CHOICES}
                    onClick={() => onChange((q) => removeChoice(q, i))}
                  >
                    <CrossIcon />
                  </button>
                </li>
              );
            })}
          </ol>
          <button
            type="button"
            className="button button-ghost button-sm"
            disabled={question.choices.length >= MAX_CHOICES}
            onClick={() =>
              onChange((q) => {
                if (q.kind === 'multiple_choice') q.choices.push('');
              })
            }
          >
            Add a choice
          </button>
        </fieldset>
      );
    case 'true_false':
      return (
        <>
          <fieldset className="qe-group">
            <legend className="label">Answer</legend>
            <div className="qe-tf">
              {[true, false].map((value) => (
                <label key={String(value)} className="checkbox">
                  <input
                    type="radio"
                    name={`${id}-tf`}
                    checked={question.answer === value}
                    onChange={() =>
                      onChange((q) => {
                        if (q.kind === 'true_false') q.answer = value;
                      })
                    }
                  />
                  {value ? 'True' : 'False'}
                </label>
              ))}
            </div>
          </fieldset>
          {question.answer === false ? (
            <TextField
              label="What the text says instead (optional)"
              value={question.correction ?? ''}
              onChange={(value) =>
                onChange((q) => {
                  if (q.kind === 'true_false') q.correction = value;
                })
              }
            />
          ) : null}
        </>
      );
    case 'fill_blank':
      return (
        <TextField
          label="Answer (the missing word)"
          value={question.answer}
          onChange={(value) =>
            onChange((q) => {
              if (q.kind === 'fill_blank') q.answer = value;
            })
          }
        />
      );
    case 'short_answer':
    case 'discussion':
      return (
        <TextField
          label={
            question.kind === 'short_answer' ? 'Model answer' : 'What a strong answer includes'
          }
          multiline
          value={question.answer}
          onChange={(value) =>
            onChange((q) => {
              if (q.kind === 'short_answer' || q.kind === 'discussion') q.answer = value;
            })
          }
        />
      );
    case 'matching':
      return (
        <fieldset className="qe-group">
          <legend className="label">Pairs to match</legend>
          <ol className="qe-pairs">
            {question.pairs.map((pair, i) => (
              <li key={i} className="qe-pair">
                <div className="qe-pair-fields">
                  <TextField
                    label={`Item ${i + 1}`}
                    value={pair.left}
                    onChange={(value) =>
                      onChange((q) => {
                        if (q.kind === 'matching') q.pairs[i]!.left = value;
                      })
                    }
                  />
                  <TextField
                    label={`Match for item ${i + 1}`}
                    value={pair.right}
                    onChange={(value) =>
                      onChange((q) => {
                        if (q.kind === 'matching') q.pairs[i]!.right = value;
                      })
                    }
                  />
                  <TextField
                    label={`Evidence for item ${i + 1}`}
                    multiline
                    value={pair.evidence}
                    onChange={(value) =>
                      onChange((q) => {
                        if (q.kind === 'matching') q.pairs[i]!.evidence = value;
                      })
                    }
                    className="qe-pair-evidence"
                  />
                </div>
                <button
                  type="button"
                  className="button button-ghost button-sm"
                  aria-label={`Remove pair ${i + 1} of question ${number}`}
                  disabled={question.pairs.length <= MIN_PAIRS}
                  onClick={() =>
                    onChange((q) => {
                      if (q.kind === 'matching') q.pairs.splice(i, 1);
                    })
                  }
                >
                  Remove pair
                </button>
              </li>
            ))}
          </ol>
          <button
            type="button"
            className="button button-ghost button-sm"
            disabled={question.pairs.length >= MAX_PAIRS}
            onClick={() =>
              onChange((q) => {
                if (q.kind === 'matching') q.pairs.push({ left: '', right: '', evidence: '' });
              })
            }
          >
            Add a pair
          </button>
        </fieldset>
      );
  }
}

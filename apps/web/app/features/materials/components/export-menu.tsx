import { EXPORT_FORMATS, type ExportFormatInfo } from '@chapterwise/shared';
import { useEffect, useId, useRef, useState } from 'react';
import { Link } from 'react-router';
import { errorMessage } from '../../../lib/api';
import { useSession } from '../../../lib/session';
import { useToast } from '../../../lib/toast';
import {
  downloadExport,
  fetchQuizletText,
  sendToGoogleForms,
  useDisconnectGoogle,
  useGoogleStatus,
  type ExportTarget,
} from '../api';
import { googleFormsCreatedToast } from './google-forms-toast';

const GROUPS: Array<{ id: ExportFormatInfo['group']; title: string }> = [
  { id: 'print', title: 'Print and share' },
  { id: 'lms', title: 'Learning platforms' },
  { id: 'games', title: 'Games and flashcards' },
];

/** The spec's names for the first two (spec §4), the tools' own names for the rest. */
function labelOf(format: ExportFormatInfo): string {
  if (format.id === 'docx') return 'Export as Word Document';
  if (format.id === 'txt') return 'Export as Raw Text';
  if (format.id === 'pdf') return 'Export as PDF';
  return format.label;
}

export interface ExportMenuProps {
  /** The material's name (or the folder's), for the button's accessible name. */
  name: string;
  /** One material… */
  materialId?: string;
  /** …or a whole folder: one file where the format holds several quizzes, else a zip. */
  setId?: string;
}

/**
 * The Export menu of a material (card, editor, chapter page) or a folder: every format named
 * as teachers know it, with a one-line hint on how to import it; Word and PDF in a teacher copy
 * (answer key) or a student copy; a Copy button for Quizlet's import box; the print views for a
 * material. What a format shortened or left out is shown after the download.
 */
export function ExportMenu({ name, materialId, setId }: ExportMenuProps) {
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const ref = useRef<HTMLDivElement>(null);
  const id = useId();
  const toast = useToast();
  const { user } = useSession();
  // Google Forms takes one material at a time, for a signed-in teacher, when the server has it.
  const google = useGoogleStatus(open && Boolean(materialId && user));
  const disconnect = useDisconnectGoogle();
  const target: ExportTarget | null = materialId ? { materialId } : setId ? { setId } : null;

  useEffect(() => {
    if (!open) return;
    const onPointer = (event: PointerEvent) => {
      if (ref.current && !ref.current.contains(event.target as Node)) setOpen(false);
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setOpen(false);
    };
    document.addEventListener('pointerdown', onPointer);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('pointerdown', onPointer);
      document.removeEventListener('keydown', onKey);
    };
  }, [open]);

  if (!target) return null;

  const run = async (work: () => Promise<void>) => {
    setOpen(false);
    setBusy(true);
    try {
      await work();
    } catch (error) {
      toast({
        title: 'Export failed',
        message: errorMessage(error),
        tone: 'error',
        durationMs: 5000,
      });
    } finally {
      setBusy(false);
    }
  };

  const download = (format: ExportFormatInfo, copy: 'teacher' | 'student' = 'teacher') =>
    run(async () => {
      const { notes } = await downloadExport(target, format.id, copy);
      if (notes.length) {
        const shown = notes.slice(0, 4).join(' ');
        const more = notes.length > 4 ? ` (and ${notes.length - 4} more)` : '';
        toast({
          title: `${format.label}: some items were shortened or left out`,
          message: `${shown}${more}`,
          tone: 'info',
          durationMs: 12000,
        });
      }
    });

  const copyForQuizlet = () =>
    run(async () => {
      const text = await fetchQuizletText(target);
      await navigator.clipboard.writeText(text);
      const cards = text.split('\n').filter(Boolean).length;
      toast({
        title: 'Copied for Quizlet',
        message: `${cards} ${cards === 1 ? 'card' : 'cards'}: paste them in Quizlet’s Import box.`,
        tone: 'success',
        durationMs: 5000,
      });
    });

  const sendToGoogle = () =>
    run(async () => {
      const returnTo = `${window.location.pathname}${window.location.search}`;
      const answer = await sendToGoogleForms(materialId!, returnTo);
      if (answer.status === 'authorize') {
        toast({
          message: 'Opening Google: allow Chapterwise to create the form in your Google Drive.',
          tone: 'info',
        });
        window.location.assign(answer.authorizeUrl);
        return;
      }
      toast(googleFormsCreatedToast(answer.formId, answer.questionCount, answer.notes));
    });

  const handleDisconnect = () =>
    run(async () => {
      await disconnect.mutateAsync();
      toast({ message: 'Your Google account is no longer connected.', tone: 'success' });
    });

  const googleStatus = google.data;

  return (
    <div className="export-menu" ref={ref}>
      <button
        type="button"
        className="button button-ghost button-sm chevron"
        aria-expanded={open}
        aria-controls={open ? id : undefined}
        aria-label={`Export ${name}`}
        onClick={() => setOpen(!open)}
        disabled={busy}
      >
        {busy ? <span className="spinner" aria-hidden="true" /> : null}
        Export
      </button>
      {/* Made when opened: a page of cards does not carry a dozen formats' hints each. */}
      {open ? (
        <div className="dropdown export-dropdown" id={id}>
          {setId ? (
            <p className="export-intro">
              The whole folder: one file where the format holds several quizzes, otherwise a .zip
              with one file per material.
            </p>
          ) : null}
          {GROUPS.map((group) => (
            <section key={group.id} className="export-group" aria-label={group.title}>
              <h3 className="export-group-title">{group.title}</h3>
              {EXPORT_FORMATS.filter((f) => f.group === group.id).map((format) => (
                <div key={format.id} className="export-item">
                  <div className="export-actions">
                    <button
                      type="button"
                      className="export-main"
                      onClick={() => void download(format)}
                    >
                      {labelOf(format)}
                      {format.copies ? <span className="export-copy"> (teacher copy)</span> : null}
                    </button>
                    {format.copies ? (
                      <button
                        type="button"
                        className="export-secondary"
                        aria-label={`Student copy (${format.label})`}
                        onClick={() => void download(format, 'student')}
                      >
                        Student copy
                      </button>
                    ) : null}
                    {format.id === 'quizlet' ? (
                      <button
                        type="button"
                        className="export-secondary"
                        onClick={() => void copyForQuizlet()}
                      >
                        Copy for Quizlet
                      </button>
                    ) : null}
                  </div>
                  <p className="export-hint">{format.hint}</p>
                </div>
              ))}
            </section>
          ))}
          {materialId && googleStatus?.configured ? (
            <section className="export-group" aria-label="Google Forms">
              <h3 className="export-group-title">Google Forms</h3>
              <div className="export-item">
                <div className="export-actions">
                  <button type="button" className="export-main" onClick={() => void sendToGoogle()}>
                    Send to Google Forms
                  </button>
                </div>
                <p className="export-hint">
                  Makes a quiz in your Google Forms: multiple choice, true/false, fill in the blank
                  and matching with answer keys; short answers and discussion as questions you
                  grade. Review it, then press Publish in Forms.
                </p>
                {googleStatus.connected ? (
                  <p className="export-hint export-google-account">
                    Connected{googleStatus.email ? ` as ${googleStatus.email}` : ''} ·{' '}
                    <button
                      type="button"
                      className="export-inline-button"
                      onClick={() => void handleDisconnect()}
                    >
                      Disconnect
                    </button>
                  </p>
                ) : (
                  <p className="export-hint export-google-account">
                    The first time, Google asks you to allow Chapterwise to create forms.
                  </p>
                )}
              </div>
            </section>
          ) : null}
          {materialId ? (
            <section className="export-group" aria-label="Print">
              <h3 className="export-group-title">Print</h3>
              <Link
                to={`/material/${materialId}/print?copy=student`}
                onClick={() => setOpen(false)}
              >
                Print student copy
              </Link>
              <Link
                to={`/material/${materialId}/print?copy=teacher`}
                onClick={() => setOpen(false)}
              >
                Print teacher copy
              </Link>
            </section>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}

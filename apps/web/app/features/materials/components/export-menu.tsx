import { useEffect, useId, useRef, useState } from 'react';
import { Link } from 'react-router';
import { errorMessage } from '../../../lib/api';
import { useToast } from '../../../lib/toast';
import { downloadExport } from '../api';

/** The Export dropdown of a material card: Word, raw text, and the two print copies. */
export function ExportMenu({ materialId, name }: { materialId: string; name: string }) {
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const ref = useRef<HTMLDivElement>(null);
  const id = useId();
  const toast = useToast();

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

  const download = async (format: 'docx' | 'txt') => {
    setOpen(false);
    setBusy(true);
    try {
      await downloadExport(materialId, format);
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

  return (
    <div className="export-menu" ref={ref}>
      <button
        type="button"
        className="button button-ghost button-sm"
        aria-expanded={open}
        aria-controls={id}
        aria-label={`Export ${name}`}
        onClick={() => setOpen(!open)}
        disabled={busy}
      >
        {busy ? <span className="spinner" aria-hidden="true" /> : null}
        Export
        <svg viewBox="0 0 12 12" width="12" height="12" aria-hidden="true">
          <path d="M2.5 4.5 6 8l3.5-3.5" fill="none" stroke="currentColor" strokeWidth="1.6" />
        </svg>
      </button>
      <div className="dropdown export-dropdown" id={id} hidden={!open}>
        {open ? (
          <>
            <button type="button" onClick={() => void download('docx')}>
              Export as Word Document
            </button>
            <button type="button" onClick={() => void download('txt')}>
              Export as Raw Text
            </button>
            <Link to={`/material/${materialId}/print?copy=student`} onClick={() => setOpen(false)}>
              Print student copy
            </Link>
            <Link to={`/material/${materialId}/print?copy=teacher`} onClick={() => setOpen(false)}>
              Print teacher copy
            </Link>
          </>
        ) : null}
      </div>
    </div>
  );
}

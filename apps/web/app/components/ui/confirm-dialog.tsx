import { useEffect, useId, useRef, useState } from 'react';

export interface ConfirmDialogProps {
  open: boolean;
  title: string;
  message: string;
  confirmLabel?: string;
  cancelLabel?: string;
  /** When set, the confirm button enables only once this exact phrase is typed (strict delete). */
  requirePhrase?: string;
  busy?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

/**
 * A modal confirmation on the native <dialog> (focus trap, Escape and inert background come
 * from the browser). Used by every delete flow: folder, material, post.
 */
export function ConfirmDialog(props: ConfirmDialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const inputId = useId();
  const [typed, setTyped] = useState('');

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (props.open && !dialog.open) {
      setTyped('');
      dialog.showModal();
    } else if (!props.open && dialog.open) {
      dialog.close();
    }
  }, [props.open]);

  const phraseOk = !props.requirePhrase || typed === props.requirePhrase;
  return (
    <dialog
      ref={ref}
      className="modal"
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        props.onCancel();
      }}
    >
      <h2 id={titleId}>{props.title}</h2>
      <p>{props.message}</p>
      {props.requirePhrase ? (
        <div className="field">
          <label htmlFor={inputId}>
            Type <strong>{props.requirePhrase}</strong> to confirm
          </label>
          <input
            id={inputId}
            type="text"
            autoComplete="off"
            value={typed}
            onChange={(event) => setTyped(event.target.value)}
          />
        </div>
      ) : null}
      <div className="modal-actions">
        <button type="button" className="button button-ghost" onClick={props.onCancel}>
          {props.cancelLabel ?? 'Cancel'}
        </button>
        <button
          type="button"
          className="button button-danger"
          disabled={!phraseOk || props.busy}
          onClick={props.onConfirm}
        >
          {props.busy ? <span className="spinner" aria-hidden="true" /> : null}
          {props.confirmLabel ?? 'Delete'}
        </button>
      </div>
    </dialog>
  );
}

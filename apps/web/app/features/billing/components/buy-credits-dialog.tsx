import type { OwnUser } from '@chapterwise/shared';
import { useEffect, useId, useRef } from 'react';
import { CreditPacks } from './plans';

/**
 * The dashboard's Buy Credits modal (spec §2): the two packs, each with its Checkout. A native
 * <dialog>: focus stays inside, Escape and the Close button close it.
 */
export function BuyCreditsDialog({
  open,
  onClose,
  user,
}: {
  open: boolean;
  onClose: () => void;
  user: OwnUser | null;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    else if (!open && dialog.open) dialog.close();
  }, [open]);

  return (
    <dialog
      ref={ref}
      className="modal buy-credits-modal"
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
    >
      <div className="modal-head">
        <h2 id={titleId}>Buy Credits</h2>
        <button type="button" className="icon-button" aria-label="Close" onClick={onClose}>
          <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true">
            <path d="M6 6l12 12M18 6L6 18" stroke="currentColor" strokeWidth="2" />
          </svg>
        </button>
      </div>
      <p className="muted">
        Credits for the AI image features, paid once. Material generations come with your plan.
      </p>
      {user ? (
        <p className="credit-balance">
          You have <strong>{user.imageGenerationCredits}</strong> image generation credit
          {user.imageGenerationCredits === 1 ? '' : 's'} and{' '}
          <strong>{user.modelTrainingCredits}</strong> model training credit
          {user.modelTrainingCredits === 1 ? '' : 's'}.
        </p>
      ) : null}
      <CreditPacks user={user} />
    </dialog>
  );
}

/** The dashboard's button that opens the Buy Credits modal. */
export function BuyCreditsButton({ onOpen }: { onOpen: () => void }) {
  return (
    <button type="button" className="button button-ghost" onClick={onOpen}>
      Buy Credits
    </button>
  );
}

import { DELETE_FOLDER_PHRASE, MATERIAL_MESSAGES, type MaterialSet } from '@chapterwise/shared';
import { useId, useState } from 'react';
import { Link } from 'react-router';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { ErrorBox } from '../../../components/ui/error-box';
import { Loading } from '../../../components/ui/loading';
import { errorMessage } from '../../../lib/api';
import { useToast } from '../../../lib/toast';
import { useDeleteSet, useMaterialSets } from '../api';
import { TrashIcon } from './material-list';

/**
 * The dashboard's Folders sidebar (spec §2): the explanation, Add Folder, the empty state, and
 * a card per folder with Open and a trash button; deleting asks for the exact phrase
 * 'permanently delete' (the strict variant).
 */
export function FolderSidebar() {
  const sets = useMaterialSets();
  const remove = useDeleteSet();
  const toast = useToast();
  const [pending, setPending] = useState<MaterialSet | null>(null);
  const headingId = useId();

  const confirm = () => {
    if (!pending) return;
    remove.mutate(pending._id, {
      onSuccess: () => {
        toast({
          title: 'Folder Deleted',
          message: `“${pending.name}” was deleted. Its materials are kept.`,
          tone: 'success',
          durationMs: 4000,
        });
        setPending(null);
      },
      onError: (error) => {
        toast({ message: errorMessage(error), tone: 'error', durationMs: 5000 });
        setPending(null);
      },
    });
  };

  return (
    <aside className="folders card" aria-labelledby={headingId}>
      <h2 id={headingId}>Folders</h2>
      <p className="muted">{MATERIAL_MESSAGES.foldersIntro}</p>
      <Link className="button button-primary folders-add" to="/create-set">
        Add Folder
      </Link>
      {sets.isPending ? <Loading label="Loading folders…" /> : null}
      {sets.isError ? <ErrorBox message={errorMessage(sets.error)} /> : null}
      {sets.data && sets.data.data.length === 0 ? (
        <p className="empty-state">{MATERIAL_MESSAGES.noFolders}</p>
      ) : null}
      {sets.data && sets.data.data.length > 0 ? (
        <ul className="folder-list">
          {sets.data.data.map((set) => (
            <li key={set._id} className="folder-card">
              <div className="folder-name">
                <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true">
                  <path
                    d="M3 7a2 2 0 0 1 2-2h4l2 2h8a2 2 0 0 1 2 2v8a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2z"
                    fill="none"
                    stroke="currentColor"
                    strokeWidth="1.8"
                  />
                </svg>
                <span>
                  <strong>{set.name}</strong>
                  <span className="muted folder-count">
                    {set.materialCount} {set.materialCount === 1 ? 'material' : 'materials'}
                  </span>
                </span>
              </div>
              <div className="folder-actions">
                <Link
                  className="button button-ghost button-sm"
                  to={`/set/${set._id}`}
                  aria-label={`Open ${set.name}`}
                >
                  Open
                </Link>
                <button
                  type="button"
                  className="icon-button icon-button-danger"
                  aria-label={`Delete folder ${set.name}`}
                  onClick={() => setPending(set)}
                >
                  <TrashIcon />
                </button>
              </div>
            </li>
          ))}
        </ul>
      ) : null}
      <ConfirmDialog
        open={pending !== null}
        title={MATERIAL_MESSAGES.deleteFolderTitle}
        message={MATERIAL_MESSAGES.deleteFolder}
        requirePhrase={DELETE_FOLDER_PHRASE}
        busy={remove.isPending}
        onConfirm={confirm}
        onCancel={() => setPending(null)}
      />
    </aside>
  );
}

import {
  evidenceMissing,
  formatShortDate,
  MATERIAL_DELETED_TOAST_MS,
  MATERIAL_MESSAGES,
  type MaterialListCard,
  type MaterialSet,
  numberedQuestions,
} from '@chapterwise/shared';
import { useId, useState } from 'react';
import { Link, useLocation } from 'react-router';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { ErrorBox } from '../../../components/ui/error-box';
import { Loading } from '../../../components/ui/loading';
import { errorMessage } from '../../../lib/api';
import { useToast } from '../../../lib/toast';
import { useDeleteMaterial, useMaterials, useMoveMaterial } from '../api';
import { ExportMenu } from './export-menu';
import { MaterialView } from './material-view';

function TrashIcon() {
  return (
    <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true">
      <path
        d="M4 7h16M10 11v6M14 11v6M6 7l1 12a2 2 0 0 0 2 2h6a2 2 0 0 0 2-2l1-12M9 7V4h6v3"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.8"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}

export { TrashIcon };

function PencilIcon() {
  return (
    <svg viewBox="0 0 24 24" width="16" height="16" aria-hidden="true" focusable="false">
      <path
        d="M4 20h4L19 9a2.8 2.8 0 0 0-4-4L4 16v4Zm9.5-13.5 4 4"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.8"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}

/** How many questions and vocabulary examples of a document carry the "not found" warning. */
function countMissingEvidence(
  document: NonNullable<MaterialListCard['output']>['document'],
): number {
  return (
    numberedQuestions(document).filter(evidenceMissing).length +
    document.vocabulary.filter(evidenceMissing).length
  );
}

function MoveSelect({ material, sets }: { material: MaterialListCard; sets: MaterialSet[] }) {
  const move = useMoveMaterial();
  const toast = useToast();
  const id = useId();
  return (
    <div className="move-select">
      <label htmlFor={id}>Folder</label>
      <select
        id={id}
        value={material.setId ?? ''}
        disabled={move.isPending}
        onChange={(event) => {
          const setId = event.target.value || null;
          move.mutate(
            { id: material._id, setId },
            {
              onSuccess: () => {
                const to = sets.find((s) => s._id === setId)?.name;
                toast({
                  message: to ? `Moved to ${to}.` : 'Removed from its folder.',
                  tone: 'success',
                  durationMs: 4000,
                });
              },
              onError: (error) =>
                toast({ message: errorMessage(error), tone: 'error', durationMs: 5000 }),
            },
          );
        }}
      >
        <option value="">No folder</option>
        {sets.map((s) => (
          <option key={s._id} value={s._id}>
            {s.name}
          </option>
        ))}
      </select>
    </div>
  );
}

/** One card of 'Your Materials': name, the output, Grade, Subject, Type, Export, move and trash. */
export function MaterialCard({
  material,
  sets,
  onDelete,
}: {
  material: MaterialListCard;
  sets?: MaterialSet[];
  onDelete: (material: MaterialListCard) => void;
}) {
  const titleId = useId();
  const location = useLocation();
  const document = material.output?.document;
  const generating = material.status === 'pending' || material.status === 'running';
  const missing = document ? countMissingEvidence(document) : 0;
  const editUrl = `/material/${material._id}/edit?returnTo=${encodeURIComponent(
    location.pathname + location.search,
  )}`;
  return (
    <li className="card material-card" aria-labelledby={titleId}>
      <div className="material-card-head">
        <div>
          <h3 id={titleId} className="material-card-title">
            {material.name}
          </h3>
          <p className="material-card-meta">
            <span>
              <span className="muted">Grade:</span> {material.grade}
            </span>
            <span>
              <span className="muted">Subject:</span> {material.subject}
            </span>
            <span>
              <span className="muted">Type:</span> {material.type}
            </span>
            <span className="muted">{formatShortDate(material.createdAt)}</span>
            {material.editedAt ? (
              <span className="muted">Edited {formatShortDate(material.editedAt)}</span>
            ) : null}
          </p>
        </div>
        <div className="material-card-actions">
          {document ? (
            <Link
              className="button button-ghost button-sm"
              to={editUrl}
              aria-label={`Edit ${material.name}`}
            >
              <PencilIcon />
              Edit
            </Link>
          ) : null}
          {document ? <ExportMenu materialId={material._id} name={material.name} /> : null}
          <button
            type="button"
            className="icon-button icon-button-danger"
            aria-label={`Delete ${material.name}`}
            onClick={() => onDelete(material)}
          >
            <TrashIcon />
          </button>
        </div>
      </div>
      {missing > 0 ? (
        <p className="material-warning">
          {missing === 1
            ? 'One quoted piece of evidence was not found in the reference text. Check the marked item before you use this material.'
            : `${missing} quoted pieces of evidence were not found in the reference text. Check the marked items before you use this material.`}
        </p>
      ) : null}
      {document ? (
        <div
          className="material-output"
          tabIndex={0}
          role="region"
          aria-label={`Output of ${material.name}`}
        >
          <MaterialView document={document} showTitle={false} />
        </div>
      ) : (
        <div className="material-pending">
          {generating ? (
            <p className="badge badge-pending" role="status">
              <span className="spinner" aria-hidden="true" /> Generating
            </p>
          ) : null}
          <p className="muted">{MATERIAL_MESSAGES.notCompleted}</p>
          {material.status === 'failed' && material.error ? (
            <ErrorBox message={material.error} />
          ) : null}
        </div>
      )}
      {sets ? <MoveSelect material={material} sets={sets} /> : null}
    </li>
  );
}

/**
 * 'Your Materials' (spec §2): the cards, the empty state, and the delete modal with its
 * 4-second 'Material Deleted' toast.
 */
export function MaterialList({
  setId,
  sets,
  heading = 'Your Materials',
}: {
  setId?: string;
  sets?: MaterialSet[];
  heading?: string;
}) {
  const [limit, setLimit] = useState(24);
  const materials = useMaterials(setId, limit);
  const remove = useDeleteMaterial();
  const toast = useToast();
  const [pending, setPending] = useState<MaterialListCard | null>(null);
  const headingId = useId();

  const confirm = () => {
    if (!pending) return;
    remove.mutate(pending._id, {
      onSuccess: () => {
        setPending(null);
        toast({
          title: MATERIAL_MESSAGES.deletedTitle,
          message: MATERIAL_MESSAGES.deletedMessage,
          tone: 'success',
          durationMs: MATERIAL_DELETED_TOAST_MS,
        });
      },
      onError: (error) => {
        setPending(null);
        toast({ message: errorMessage(error), tone: 'error', durationMs: 5000 });
      },
    });
  };

  return (
    <section className="material-list" aria-labelledby={headingId}>
      <h2 id={headingId}>{heading}</h2>
      {materials.isPending ? <Loading label="Loading your materials…" /> : null}
      {materials.isError ? <ErrorBox message={errorMessage(materials.error)} /> : null}
      {materials.data && materials.data.data.length === 0 ? (
        <p className="empty-state">{MATERIAL_MESSAGES.noMaterials}</p>
      ) : null}
      {materials.data && materials.data.data.length > 0 ? (
        <ul className="material-cards">
          {materials.data.data.map((m) => (
            <MaterialCard
              key={m._id}
              material={m}
              {...(sets ? { sets } : {})}
              onDelete={setPending}
            />
          ))}
        </ul>
      ) : null}
      {materials.data && materials.data.count > materials.data.data.length ? (
        <div className="show-more">
          <button
            type="button"
            className="button button-ghost"
            disabled={materials.isFetching}
            onClick={() => setLimit((l) => Math.min(100, l + 24))}
          >
            {materials.isFetching ? <span className="spinner" aria-hidden="true" /> : null}
            Show more ({materials.data.count - materials.data.data.length} more)
          </button>
        </div>
      ) : null}
      <ConfirmDialog
        open={pending !== null}
        title={MATERIAL_MESSAGES.deleteFolderTitle}
        message={MATERIAL_MESSAGES.deleteMaterial}
        busy={remove.isPending}
        onConfirm={confirm}
        onCancel={() => setPending(null)}
      />
    </section>
  );
}

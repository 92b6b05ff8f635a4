import { useId, useRef, useState, type DragEvent } from 'react';
import { formatBytes, IMPORT_ACCEPT, IMPORT_MAX_FILE_BYTES } from '@chapterwise/shared';
import { useFileImports, type ImportItem } from '../hooks/use-file-imports';

/** The component's stylesheet URL, for the route's `links` export. */
export { default as fileImportStyles } from './file-import.css?url';

export interface FileImportProps {
  /** Called once when every file of a batch has finished, with their texts under headings. */
  onAppend(text: string): void;
  disabled?: boolean;
}

function statusText(item: ImportItem): string {
  switch (item.status) {
    case 'waiting':
      return 'Waiting…';
    case 'reading':
      return `Reading the file… ${Math.round(item.readProgress * 100)}%`;
    case 'extracting':
      return item.kind === 'image' ? 'Reading the text in the image…' : 'Extracting the text…';
    case 'done':
      return `Done: ${(item.text?.length ?? 0).toLocaleString('en-US')} characters`;
    case 'added':
      return `Added: ${(item.text?.length ?? 0).toLocaleString('en-US')} characters`;
    case 'failed':
      return 'Could not be imported';
  }
}

function ItemProgress({ item }: { item: ImportItem }) {
  const label = `${item.file.name}: progress`;
  if (item.status === 'waiting')
    return <progress className="file-import-progress" max={1} value={0} aria-label={label} />;
  if (item.status === 'reading') {
    return (
      <progress
        className="file-import-progress"
        max={1}
        value={item.readProgress}
        aria-label={label}
      />
    );
  }
  // The server gives no progress while it reads the text: an indeterminate bar.
  if (item.status === 'extracting')
    return <progress className="file-import-progress" aria-label={label} />;
  return null;
}

/**
 * Import text from files into a reference text: pick or drop several images and documents,
 * arrange their order, and when all are read their texts are appended in one go, each under
 * a heading with its file name. A file that fails shows its own error; the others go on.
 */
export function FileImport({ onAppend, disabled = false }: FileImportProps) {
  const { items, batchOpen, announcement, addFiles, remove, move, clear } =
    useFileImports(onAppend);
  const [dragging, setDragging] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);
  const titleId = useId();
  const hintId = useId();
  const active = items.filter(
    (item) =>
      item.status === 'waiting' || item.status === 'reading' || item.status === 'extracting',
  ).length;

  const handleDrop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    setDragging(false);
    if (disabled) return;
    addFiles(Array.from(event.dataTransfer.files));
  };

  return (
    <section className="file-import" aria-labelledby={titleId}>
      <div
        className={`file-import-drop${dragging ? ' is-dragging' : ''}${disabled ? ' is-disabled' : ''}`}
        onDragOver={(event) => {
          event.preventDefault();
          if (!disabled) setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={handleDrop}
      >
        <p className="file-import-title" id={titleId}>
          Import text from files
        </p>
        <label className={`button button-ghost file-import-pick${disabled ? ' is-disabled' : ''}`}>
          Choose files
          <input
            ref={inputRef}
            className="visually-hidden"
            type="file"
            multiple
            accept={IMPORT_ACCEPT}
            disabled={disabled}
            aria-describedby={hintId}
            onChange={(event) => {
              addFiles(Array.from(event.target.files ?? []));
              // The same file can be chosen again later.
              event.target.value = '';
            }}
          />
        </label>
        <p className="field-hint" id={hintId}>
          or drop them here. Images (JPEG, PNG), Word, PowerPoint, Excel, PDF and OpenDocument
          files, up to {formatBytes(IMPORT_MAX_FILE_BYTES)} each. Their text is added in the order
          listed.
        </p>
      </div>

      {active > 0 && (
        <p className="file-import-busy muted" role="status">
          <span className="spinner" aria-hidden="true" /> Importing {active} of {items.length}{' '}
          {items.length === 1 ? 'file' : 'files'}…
        </p>
      )}

      {items.length > 0 && (
        <ol className="file-import-list" aria-label="Files to import">
          {items.map((item, index) => {
            // Only files whose text will be added have a place in the order.
            const canMove = batchOpen && item.status !== 'added' && item.status !== 'failed';
            return (
              <li key={item.id} className={`file-import-item is-${item.status}`}>
                <div className="file-import-row">
                  <span className="file-import-order" aria-hidden="true">
                    {index + 1}
                  </span>
                  <div className="file-import-info">
                    <span className="file-import-name">{item.file.name}</span>
                    <span className="file-import-meta">
                      {formatBytes(item.file.size)} · <span>{statusText(item)}</span>
                    </span>
                  </div>
                  <div className="file-import-actions">
                    {canMove && (
                      <>
                        <button
                          type="button"
                          className="icon-button file-import-icon"
                          aria-label={`Move ${item.file.name} up`}
                          disabled={disabled || index === 0}
                          onClick={() => move(item.id, -1)}
                        >
                          <span aria-hidden="true">↑</span>
                        </button>
                        <button
                          type="button"
                          className="icon-button file-import-icon"
                          aria-label={`Move ${item.file.name} down`}
                          disabled={disabled || index === items.length - 1}
                          onClick={() => move(item.id, 1)}
                        >
                          <span aria-hidden="true">↓</span>
                        </button>
                      </>
                    )}
                    {item.status !== 'added' && (
                      <button
                        type="button"
                        className="icon-button file-import-icon"
                        aria-label={`Remove ${item.file.name}`}
                        disabled={disabled}
                        onClick={() => remove(item.id)}
                      >
                        <span aria-hidden="true">×</span>
                      </button>
                    )}
                  </div>
                </div>
                <ItemProgress item={item} />
                {item.error && <p className="file-import-error text-error">{item.error}</p>}
                {item.note && <p className="file-import-note field-hint">{item.note}</p>}
              </li>
            );
          })}
        </ol>
      )}

      {items.length > 0 && !batchOpen && (
        <div className="button-row">
          <button
            type="button"
            className="button button-ghost button-sm"
            onClick={() => {
              clear();
              inputRef.current?.focus();
            }}
          >
            Clear the list
          </button>
        </div>
      )}

      <p className="visually-hidden" aria-live="polite">
        {announcement}
      </p>
    </section>
  );
}

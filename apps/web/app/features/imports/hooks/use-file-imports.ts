import { useCallback, useEffect, useReducer, useRef } from 'react';
import {
  formatBytes,
  formatImportHeading,
  IMPORT_DOCUMENT_EXTENSIONS,
  IMPORT_IMAGE_EXTENSIONS,
  IMPORT_MAX_FILE_BYTES,
  importEndpointFor,
  REFERENCE_TEXT_MAX_CHARS,
  truncatedMessage,
} from '@chapterwise/shared';
import { errorMessage } from '../../../lib/api';
import { importFile, readAsDataUrl } from '../api/import-file';

export type ImportStatus = 'waiting' | 'reading' | 'extracting' | 'done' | 'failed' | 'added';

export interface ImportItem {
  id: string;
  file: File;
  kind: 'image' | 'document';
  status: ImportStatus;
  /** 0-1 while the file is read from the device. */
  readProgress: number;
  text?: string;
  /** Something to tell the teacher about a file that worked (it was cut at the limit). */
  note?: string;
  error?: string;
}

interface State {
  items: ImportItem[];
  /** Files were added and their texts are not appended yet. */
  batchOpen: boolean;
  announcement: string;
}

type Action =
  | { type: 'add'; items: ImportItem[] }
  | { type: 'update'; id: string; patch: Partial<ImportItem> }
  | { type: 'remove'; id: string }
  | { type: 'move'; id: string; by: -1 | 1 }
  | { type: 'settle'; announcement: string }
  | { type: 'clear' };

const ACCEPTED_EXTENSIONS = new Set<string>([
  ...IMPORT_IMAGE_EXTENSIONS,
  ...IMPORT_DOCUMENT_EXTENSIONS,
]);

const isActive = (item: ImportItem) =>
  item.status === 'waiting' || item.status === 'reading' || item.status === 'extracting';

function reducer(state: State, action: Action): State {
  switch (action.type) {
    case 'add': {
      // A new batch replaces the last one's finished list; files added mid-batch join it.
      const kept = state.batchOpen ? state.items : [];
      const count = action.items.length;
      return {
        items: [...kept, ...action.items],
        batchOpen: true,
        announcement: `${count} ${count === 1 ? 'file' : 'files'} added.`,
      };
    }
    case 'update':
      return {
        ...state,
        items: state.items.map((item) =>
          item.id === action.id ? { ...item, ...action.patch } : item,
        ),
      };
    case 'remove': {
      const item = state.items.find((i) => i.id === action.id);
      return {
        ...state,
        items: state.items.filter((i) => i.id !== action.id),
        announcement: item ? `${item.file.name} removed.` : state.announcement,
      };
    }
    case 'move': {
      const from = state.items.findIndex((i) => i.id === action.id);
      const to = from + action.by;
      if (from < 0 || to < 0 || to >= state.items.length) return state;
      const items = [...state.items];
      const [moved] = items.splice(from, 1);
      items.splice(to, 0, moved!);
      return {
        ...state,
        items,
        announcement: `${moved!.file.name} moved to position ${to + 1} of ${items.length}.`,
      };
    }
    case 'settle':
      return {
        items: state.items.map((item) =>
          item.status === 'done' ? { ...item, status: 'added' } : item,
        ),
        batchOpen: false,
        announcement: action.announcement,
      };
    case 'clear':
      return { items: [], batchOpen: false, announcement: 'The file list was cleared.' };
  }
}

/** Refuses, before any upload, what the server would refuse anyway. */
function checkLocally(file: File): string | undefined {
  const extension = file.name.includes('.') ? file.name.split('.').pop()!.toLowerCase() : '';
  if (
    !ACCEPTED_EXTENSIONS.has(extension) &&
    file.type !== 'image/jpeg' &&
    file.type !== 'image/png'
  ) {
    return 'This type of file cannot be imported. Use JPEG or PNG images, Word, PowerPoint, Excel, PDF or OpenDocument files.';
  }
  if (file.size === 0) return 'This file is empty (0 bytes), so there is no text to import.';
  if (file.size > IMPORT_MAX_FILE_BYTES) {
    return `This file is ${formatBytes(file.size)}; files can be at most ${formatBytes(IMPORT_MAX_FILE_BYTES)} each.`;
  }
  return undefined;
}

/** The texts of finished files, in the list's order, each under a heading with its name. */
export function composeImportedText(items: ImportItem[]): { text: string; cut: boolean } {
  const text = items
    .filter((item) => item.status === 'done' && item.text)
    .map((item) => `${formatImportHeading(item.file.name)}\n${item.text}`)
    .join('\n\n');
  if (text.length <= REFERENCE_TEXT_MAX_CHARS) return { text, cut: false };
  return { text: text.slice(0, REFERENCE_TEXT_MAX_CHARS).trimEnd(), cut: true };
}

let nextId = 0;

/**
 * The import queue behind <FileImport>: each file is read once, one at a time (the server
 * reads one at a time too), and when every file of the batch has finished, the texts that
 * worked are handed to `onAppend` in one call, in the order the teacher arranged.
 */
export function useFileImports(onAppend: (text: string) => void) {
  const [state, dispatch] = useReducer(reducer, {
    items: [],
    batchOpen: false,
    announcement: '',
  });
  const started = useRef(new Set<string>());
  const controllers = useRef(new Map<string, AbortController>());
  const onAppendRef = useRef(onAppend);
  useEffect(() => {
    onAppendRef.current = onAppend;
  }, [onAppend]);

  const addFiles = useCallback((files: Iterable<File>) => {
    const items: ImportItem[] = [...files].map((file) => {
      const problem = checkLocally(file);
      return {
        id: `import-${++nextId}`,
        file,
        kind: importEndpointFor(file),
        status: problem ? 'failed' : 'waiting',
        readProgress: 0,
        error: problem,
      };
    });
    if (items.length) dispatch({ type: 'add', items });
  }, []);

  const remove = useCallback((id: string) => {
    controllers.current.get(id)?.abort();
    dispatch({ type: 'remove', id });
  }, []);
  const move = useCallback((id: string, by: -1 | 1) => dispatch({ type: 'move', id, by }), []);
  const clear = useCallback(() => dispatch({ type: 'clear' }), []);

  // One file at a time: start the first waiting file when nothing is being read.
  const next = state.items.find((item) => item.status === 'waiting');
  const busy = state.items.some(
    (item) => item.status === 'reading' || item.status === 'extracting',
  );
  useEffect(() => {
    if (!next || busy || started.current.has(next.id)) return;
    const { id, file } = next;
    started.current.add(id);
    const controller = new AbortController();
    controllers.current.set(id, controller);
    const update = (patch: Partial<ImportItem>) => dispatch({ type: 'update', id, patch });
    void (async () => {
      try {
        update({ status: 'reading' });
        const dataUrl = await readAsDataUrl(
          file,
          (fraction) => update({ readProgress: fraction }),
          controller.signal,
        );
        update({ status: 'extracting', readProgress: 1 });
        const answer = await importFile(file, dataUrl, controller.signal);
        update({ status: 'done', text: answer.text, note: answer.message });
      } catch (error) {
        if ((error as Error).name === 'AbortError') return;
        update({ status: 'failed', error: errorMessage(error) });
      } finally {
        controllers.current.delete(id);
      }
    })();
  }, [next, busy]);

  // When the whole batch has finished: one append, in the list's order.
  const settled = state.batchOpen && state.items.every((item) => !isActive(item));
  useEffect(() => {
    if (!settled) return;
    const done = state.items.filter((item) => item.status === 'done');
    const failed = state.items.filter((item) => item.status === 'failed').length;
    const { text, cut } = composeImportedText(state.items);
    if (text) onAppendRef.current(text);
    const parts = [
      done.length
        ? `Text from ${done.length} ${done.length === 1 ? 'file was' : 'files were'} added to the reference text.`
        : 'No text was added.',
      failed ? `${failed} ${failed === 1 ? 'file' : 'files'} could not be read.` : '',
      cut ? truncatedMessage() : '',
    ];
    dispatch({ type: 'settle', announcement: parts.filter(Boolean).join(' ') });
  }, [settled, state.items]);

  // Leaving the page stops whatever is still being read.
  useEffect(() => {
    const running = controllers.current;
    return () => {
      for (const controller of running.values()) controller.abort();
    };
  }, []);

  return { ...state, addFiles, remove, move, clear };
}

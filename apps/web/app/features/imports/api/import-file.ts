import { importEndpointFor, type ImportAnswer } from '@chapterwise/shared';
import { apiRequest } from '../../../lib/api';

/** `POST /materials/transcribeimage`: the printed text of a photo or scan. */
export function transcribeImage(image: string, signal?: AbortSignal): Promise<ImportAnswer> {
  return apiRequest<ImportAnswer>('/materials/transcribeimage', { body: { image }, signal });
}

/** `POST /materials/parseoffice`: the text of a Word, PowerPoint, Excel, PDF or OpenDocument file. */
export function parseOffice(
  file: string,
  fileName: string,
  signal?: AbortSignal,
): Promise<ImportAnswer> {
  return apiRequest<ImportAnswer>('/materials/parseoffice', { body: { file, fileName }, signal });
}

/** Sends a file to the call that reads its kind: images to OCR, everything else to the parser. */
export function importFile(
  file: { name: string; type?: string },
  dataUrl: string,
  signal?: AbortSignal,
): Promise<ImportAnswer> {
  return importEndpointFor(file) === 'image'
    ? transcribeImage(dataUrl, signal)
    : parseOffice(dataUrl, file.name, signal);
}

/** Reads a local file as a base64 data URL, reporting progress from 0 to 1. */
export function readAsDataUrl(
  file: Blob,
  onProgress: (fraction: number) => void,
  signal?: AbortSignal,
): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
    };
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(new Error('This file could not be read from your device.'));
    reader.onabort = () => reject(new DOMException('Aborted', 'AbortError'));
    signal?.addEventListener('abort', () => reader.abort(), { once: true });
    reader.readAsDataURL(file);
  });
}

import type { Exporter } from '../common.js';
import { exportDocx, exportText } from '../../materials.export.js';

/** Word, as before this registry (materials.export.ts): student copy or teacher copy with the key. */
export const word: Exporter = {
  id: 'docx',
  extension: 'docx',
  contentType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  copies: true,
  async build({ document, copy }) {
    return { body: await exportDocx(document, copy), notes: [] };
  },
};

/** The material's own text (the spec's raw text export). */
export const text: Exporter = {
  id: 'txt',
  extension: 'txt',
  contentType: 'text/plain; charset=utf-8',
  copies: true,
  build({ document, copy }) {
    return { body: exportText(document, copy), notes: [] };
  },
};

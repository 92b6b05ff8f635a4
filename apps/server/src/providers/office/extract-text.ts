import { OfficeParser } from 'officeparser';
import WordExtractor from 'word-extractor';
import {
  hasUnsafeXmlProlog,
  readEntryPrefix,
  readZipDirectory,
  ZipFormatError,
} from './zip-inspect.js';

/**
 * Turns one document's bytes into plain text that keeps its structure: slides in order under
 * "Slide N", sheets as rows with " | " between cells, tables likewise, list items with "- ".
 * Runs inside the parsing worker thread (office.worker.ts), never on the server's main thread.
 */

export type ParsableFormat = 'docx' | 'pptx' | 'xlsx' | 'odt' | 'odp' | 'ods' | 'pdf' | 'doc';

export interface ExtractedText {
  text: string;
  /** For PDFs, each page's lines, so repeated headers and page numbers can be found. */
  pages?: string[][];
}

export interface ExtractLimits {
  maxZipEntries: number;
  maxUncompressedBytes: number;
}

/** A failure the teacher should be told about: 400 (damaged, encrypted, unsafe) or 413. */
export class ExtractError extends Error {
  constructor(
    readonly status: 400 | 413,
    message: string,
  ) {
    super(message);
    this.name = 'ExtractError';
  }
}

export const DAMAGED_MESSAGE =
  'This file is damaged or incomplete, so its text could not be read. Open it in the program that made it, save it again and retry.';

const ZIP_FORMATS = new Set<ParsableFormat>(['docx', 'pptx', 'xlsx', 'odt', 'odp', 'ods']);

/**
 * Refuses OOXML/ODF parts that declare a DOCTYPE: entities (external or not) are never needed.
 * Returns the total size the archive declares for its entries.
 */
function refuseXmlEntities(bytes: Buffer, limits: ExtractLimits): number {
  let entries;
  try {
    entries = readZipDirectory(bytes, limits.maxZipEntries);
  } catch (error) {
    if (error instanceof ZipFormatError) throw new ExtractError(400, DAMAGED_MESSAGE);
    throw error;
  }
  for (const entry of entries) {
    if (entry.uncompressedSize === 0 || !/\.(xml|rels)$/i.test(entry.name)) continue;
    const prefixBytes = 4096;
    let prefix: Buffer;
    try {
      prefix = readEntryPrefix(bytes, entry, prefixBytes);
    } catch {
      throw new ExtractError(400, DAMAGED_MESSAGE);
    }
    if (hasUnsafeXmlProlog(prefix, entry.compressedSize <= prefixBytes)) {
      throw new ExtractError(
        400,
        'This file contains XML entity declarations (a DOCTYPE), which Office and OpenDocument files never use, so it was refused for safety.',
      );
    }
  }
  return entries.reduce((sum, entry) => sum + entry.uncompressedSize, 0);
}

interface Node {
  type: string;
  text?: string;
  children?: Node[];
  notes?: Node[];
  metadata?: Record<string, unknown>;
}

function textOf(node: Node): string {
  if (typeof node.text === 'string' && node.text) return node.text;
  return (node.children ?? []).map(textOf).join('');
}

function rowText(row: Node): string {
  const cells: string[] = [];
  for (const [i, cell] of (row.children ?? []).entries()) {
    const col = typeof cell.metadata?.col === 'number' ? cell.metadata.col : i;
    // Gaps left by empty cells keep the columns lined up, but a wildly sparse sheet cannot
    // make a line of thousands of separators.
    if (col > cells.length && col - cells.length < 64) {
      while (cells.length < col) cells.push('');
    }
    cells.push(
      textOf(cell)
        .replace(/\s*\n\s*/g, ' ')
        .trim(),
    );
  }
  while (cells.length && !cells[cells.length - 1]) cells.pop();
  return cells.join(' | ');
}

/** Renders officeparser's content tree as lines of plain text. */
function render(nodes: Node[], lines: string[]): void {
  for (const node of nodes) {
    switch (node.type) {
      case 'slide': {
        if (lines.length) lines.push('');
        lines.push(`Slide ${Number(node.metadata?.slideNumber) || 1}`);
        render(node.children ?? [], lines);
        const notes = (node.notes ?? []).map(textOf).join(' ').trim();
        if (notes) lines.push(`Notes: ${notes}`);
        break;
      }
      case 'sheet': {
        if (lines.length) lines.push('');
        const name = typeof node.metadata?.sheetName === 'string' ? node.metadata.sheetName : '';
        lines.push(name ? `Sheet: ${name}` : 'Sheet');
        render(node.children ?? [], lines);
        break;
      }
      case 'table':
        for (const row of node.children ?? []) {
          const line = rowText(row);
          if (line) lines.push(line);
        }
        break;
      case 'row': {
        const line = rowText(node);
        if (line) lines.push(line);
        break;
      }
      case 'heading':
        if (lines.length && lines[lines.length - 1] !== '') lines.push('');
        lines.push(textOf(node));
        break;
      case 'list': {
        const ordered = node.metadata?.listType === 'ordered';
        const index = Number(node.metadata?.itemIndex ?? 0);
        const level = Math.min(6, Number(node.metadata?.indentation ?? 0) || 0);
        lines.push(`${'  '.repeat(level)}${ordered ? `${index + 1}.` : '-'} ${textOf(node)}`);
        break;
      }
      case 'page':
        render(node.children ?? [], lines);
        break;
      case 'note':
      case 'comment':
      case 'image':
      case 'chart':
        break;
      default: {
        const children = node.children ?? [];
        if (children.some((child) => child.type !== 'text')) render(children, lines);
        else {
          const text = textOf(node);
          if (text.trim()) lines.push(text);
        }
      }
    }
  }
}

function describeParserError(error: unknown): ExtractError {
  if (error instanceof ExtractError) return error;
  const issue = (error as { officeIssue?: { code?: string } } | null)?.officeIssue?.code;
  const message = error instanceof Error ? error.message : String(error);
  const name = error instanceof Error ? error.name : '';
  if (issue === 'ZIP_SIZE_LIMIT_EXCEEDED' || issue === 'ZIP_ENTRY_COUNT_LIMIT_EXCEEDED') {
    return new ExtractError(
      413,
      'This file unpacks to far more data than a document holds (it looks like a zip bomb), so it was refused.',
    );
  }
  if (name === 'PasswordException' || /password/i.test(message)) {
    return new ExtractError(
      400,
      'This PDF is password-protected. Remove the password (or print it to a new PDF) and try again.',
    );
  }
  return new ExtractError(400, DAMAGED_MESSAGE);
}

let wordExtractor: WordExtractor | undefined;

/** Reads the text of a document whose format was already decided from its bytes. */
export async function extractText(
  bytes: Buffer,
  format: ParsableFormat,
  limits: ExtractLimits,
): Promise<ExtractedText> {
  if (format === 'doc') {
    wordExtractor ??= new WordExtractor();
    try {
      const document = await wordExtractor.extract(bytes);
      const parts = [document.getBody(), document.getFootnotes(), document.getEndnotes()];
      // Table cells in .doc text end with a tab; turn them into the same " | " rows.
      const text = parts
        .join('\n')
        .split('\n')
        .map((line) =>
          line.includes('\t') ? line.replace(/\t+$/, '').split('\t').join(' | ') : line,
        )
        .join('\n');
      return { text };
    } catch (error) {
      throw describeParserError(error);
    }
  }

  let maxUncompressedBytes = limits.maxUncompressedBytes;
  if (ZIP_FORMATS.has(format)) {
    const declared = refuseXmlEntities(bytes, limits);
    // An archive that understates its sizes is stopped soon after it passes what it declared,
    // rather than at the general limit: honest archives never inflate past their own sizes.
    maxUncompressedBytes = Math.min(maxUncompressedBytes, declared + 1024 * 1024);
  }
  try {
    const ast = await OfficeParser.parseOffice(bytes, {
      fileType: format,
      outputErrorToConsole: false,
      onWarning: () => undefined,
      ignoreHeadersAndFooters: true,
      ignoreComments: true,
      extractAttachments: false,
      ocr: false,
      decompressionLimits: {
        maxUncompressedBytes,
        maxZipEntries: limits.maxZipEntries,
        maxTableCells: 200_000,
      },
    });
    const content = ast.content as unknown as Node[];
    if (format === 'pdf') {
      const pages = content
        .filter((node) => node.type === 'page')
        .map((page) => {
          const lines: string[] = [];
          render(page.children ?? [], lines);
          return lines;
        });
      return { text: pages.map((lines) => lines.join('\n')).join('\n\n'), pages };
    }
    const lines: string[] = [];
    render(content, lines);
    return { text: lines.join('\n') };
  } catch (error) {
    throw describeParserError(error);
  }
}

import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

export interface OutboxMessage {
  file: string;
  raw: string;
  to: string;
  subject: string;
  /** The decoded text/plain part. */
  text: string;
  /** A header's value, unfolded ('' when absent). */
  header(name: string): string;
}

/** Undoes quoted-printable (soft line breaks and =XX bytes), as mail clients do. */
export function decodeQuotedPrintable(value: string): string {
  const bytes = value
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

/** Reads a MIME message's headers and its text/plain part (enough for our own emails). */
export function parseEml(raw: string, file = ''): OutboxMessage {
  const header = (name: string) =>
    new RegExp(`^${name}:(.*(?:\\r?\\n[ \\t].*)*)`, 'mi')
      .exec(raw.split(/\r?\n\r?\n/)[0] ?? '')?.[1]
      ?.replace(/\r?\n[ \t]+/g, ' ')
      .trim() ?? '';
  const textPart = /Content-Type: text\/plain[^]*?\r?\n\r?\n([^]*?)\r?\n--/i.exec(raw);
  const encoding = /Content-Type: text\/plain[^]*?Content-Transfer-Encoding: ([\w-]+)/i.exec(
    raw,
  )?.[1];
  const body = textPart?.[1] ?? '';
  const text =
    encoding?.toLowerCase() === 'base64'
      ? Buffer.from(body, 'base64').toString('utf8')
      : decodeQuotedPrintable(body);
  return { file, raw, to: header('To'), subject: header('Subject'), text, header };
}

/** Every message in DATA_DIR/outbox, oldest first. */
export function readOutbox(dataDir: string): OutboxMessage[] {
  const dir = path.join(dataDir, 'outbox');
  let names: string[];
  try {
    names = readdirSync(dir)
      .filter((n) => n.endsWith('.eml'))
      .sort();
  } catch {
    return [];
  }
  return names.map((name) => parseEml(readFileSync(path.join(dir, name), 'utf8'), name));
}

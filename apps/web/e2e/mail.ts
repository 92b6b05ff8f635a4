import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from '@playwright/test';

/** Undoes quoted-printable (soft line breaks and =XX bytes), as mail clients do. */
function decodeQuotedPrintable(value: string): string {
  const bytes = value
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

/** The decoded text/plain bodies of the outbox messages sent to `to`, oldest first. */
function messagesTo(to: string): string[] {
  const dir = path.join(process.env.E2E_DATA_DIR ?? '', 'outbox');
  let names: string[] = [];
  try {
    names = readdirSync(dir)
      .filter((name) => name.endsWith('.eml'))
      .sort();
  } catch {
    return [];
  }
  return names
    .map((name) => readFileSync(path.join(dir, name), 'utf8'))
    .filter((raw) =>
      new RegExp(`^To: ${to.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\r?$`, 'mi').test(raw),
    )
    .map((raw) => {
      const part = /Content-Type: text\/plain[^]*?\r?\n\r?\n([^]*?)\r?\n--/i.exec(raw)?.[1] ?? '';
      return decodeQuotedPrintable(part);
    });
}

/**
 * Waits for an email to `to` in the E2E server's outbox (DATA_DIR/outbox, written as .eml
 * files by the default mail provider) and returns the first link in it matching `pattern`.
 */
export async function linkFromOutbox(to: string, pattern: RegExp, after = 0): Promise<string> {
  let link = '';
  await expect
    .poll(
      () => {
        const found = messagesTo(to.toLowerCase()).slice(after);
        link = found.map((text) => pattern.exec(text)?.[0]).find(Boolean) ?? '';
        return link;
      },
      { message: `an email to ${to} with a link like ${pattern}`, timeout: 10_000 },
    )
    .not.toBe('');
  return link;
}

/** How many emails `to` has had so far (to wait for the next one). */
export function countOutbox(to: string): number {
  return messagesTo(to.toLowerCase()).length;
}

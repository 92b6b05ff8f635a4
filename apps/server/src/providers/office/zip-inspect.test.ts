import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { hasUnsafeXmlProlog, readEntryPrefix, readZipDirectory } from './zip-inspect.js';

const fixture = (name: string) =>
  readFileSync(path.join(import.meta.dirname, '../../modules/imports/fixtures', name));

describe('zip inspection', () => {
  it('lists entries with their declared sizes without inflating', () => {
    const entries = readZipDirectory(fixture('bomb.docx'), 10);
    const body = entries.find((entry) => entry.name === 'word/document.xml');
    expect(body?.uncompressedSize).toBeGreaterThan(150 * 1024 * 1024);
    expect(body?.compressedSize).toBeLessThan(200 * 1024);
    // Reading the prologue inflates a few kilobytes of it, not 150 MB.
    const prefix = readEntryPrefix(fixture('bomb.docx'), body!, 1024);
    expect(prefix.length).toBeLessThan(2 * 1024 * 1024);
    expect(prefix.toString('latin1')).toMatch(/^<\?xml version="1.0"\?><w:document/);
  });

  it('finds DOCTYPEs and entity declarations in an XML prologue, in UTF-8 or UTF-16', () => {
    const xxe =
      '<?xml version="1.0"?><!DOCTYPE a [<!ENTITY x SYSTEM "file:///etc/passwd">]><a>&x;</a>';
    expect(hasUnsafeXmlProlog(Buffer.from(xxe), true)).toBe(true);
    expect(hasUnsafeXmlProlog(Buffer.from(`\uFEFF${xxe}`, 'utf16le'), true)).toBe(true);
    expect(hasUnsafeXmlProlog(Buffer.from('<?xml version="1.0"?><a>&amp;</a>'), true)).toBe(false);
    // A DOCTYPE-looking text inside the document is content, not a declaration.
    expect(hasUnsafeXmlProlog(Buffer.from('<a>write <!DOCTYPE html> first</a>'), true)).toBe(false);
    // A prologue padded past what was read, hiding whatever follows, is refused too.
    expect(
      hasUnsafeXmlProlog(Buffer.from(`<?xml version="1.0"?><!--${' '.repeat(5000)}`), false),
    ).toBe(true);
  });
});

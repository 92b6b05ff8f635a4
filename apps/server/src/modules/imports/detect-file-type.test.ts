import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readZipDirectory } from '../../providers/office/zip-inspect.js';
import { detectFileType } from './detect-file-type.js';

const fixture = (name: string) => readFileSync(path.join(import.meta.dirname, 'fixtures', name));

/** Offset of the central directory record of `name` in a zip (for patching fields). */
function centralRecord(bytes: Buffer, name: string): number {
  const eocd = bytes.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  let at = bytes.readUInt32LE(eocd + 16);
  for (;;) {
    const nameLength = bytes.readUInt16LE(at + 28);
    if (bytes.toString('utf8', at + 46, at + 46 + nameLength) === name) return at;
    at += 46 + nameLength + bytes.readUInt16LE(at + 30) + bytes.readUInt16LE(at + 32);
  }
}

describe('deciding a file type from its bytes', () => {
  it.each([
    ['photo.jpg', { kind: 'image', format: 'jpeg' }],
    ['scan.png', { kind: 'image', format: 'png' }],
    ['lesson.docx', { kind: 'document', format: 'docx' }],
    ['lesson.doc', { kind: 'document', format: 'doc' }],
    ['lesson.odt', { kind: 'document', format: 'odt' }],
    ['lesson.pdf', { kind: 'document', format: 'pdf' }],
    ['deck.pptx', { kind: 'document', format: 'pptx' }],
    ['deck.ppt', { kind: 'document', format: 'ppt' }],
    ['deck.odp', { kind: 'document', format: 'odp' }],
    ['planets.xlsx', { kind: 'document', format: 'xlsx' }],
    ['planets.xls', { kind: 'document', format: 'xls' }],
    ['planets.ods', { kind: 'document', format: 'ods' }],
  ])('%s', (name, expected) => {
    expect(detectFileType(fixture(name))).toEqual(expected);
  });

  it('finds a PDF header after leading junk, as readers do', () => {
    const bytes = Buffer.concat([Buffer.from('\r\n\r\n junk '), fixture('lesson.pdf')]);
    expect(detectFileType(bytes)).toEqual({ kind: 'document', format: 'pdf' });
  });

  it('names what other files are', () => {
    const label = (bytes: Buffer) => {
      const detected = detectFileType(bytes);
      return detected.kind === 'unsupported' ? detected.label : detected.kind;
    };
    expect(label(fixture('homework.docx'))).toBe('a program (an executable file)');
    expect(label(Buffer.from('MZ\x90\x00\x03\x00\x00\x00', 'latin1'))).toBe(
      'a program (an executable file)',
    );
    expect(label(Buffer.from('GIF89a\x01\x00\x01\x00', 'latin1'))).toBe('a GIF image');
    expect(label(Buffer.from('\x00\x00\x00\x18ftypheic\x00\x00', 'latin1'))).toBe(
      'a HEIC/AVIF photo',
    );
    expect(label(Buffer.from('{\\rtf1\\ansi Hello}'))).toBe('an RTF document');
    expect(label(Buffer.from('Dear class, read chapter 3. – Ms. Núñez'))).toBe('a plain text file');
    expect(label(Buffer.from([0x00, 0x9f, 0x13, 0xee, 0x00, 0x01]))).toBe(
      'a file of an unknown type',
    );
  });

  it('calls a cut-off archive damaged', () => {
    expect(detectFileType(fixture('truncated.docx'))).toEqual({
      kind: 'damaged',
      label: 'This file',
    });
    const doc = fixture('lesson.doc');
    expect(detectFileType(doc.subarray(0, 1024)).kind).toBe('damaged');
  });

  it('refuses an archive that unpacks to too much, before inflating it', () => {
    expect(detectFileType(fixture('bomb.docx'))).toMatchObject({
      kind: 'zip-bomb',
      uncompressedBytes: expect.any(Number),
    });
    // Under the size limit but packed 130 to 1: the ratio check catches it.
    const bytes = Buffer.from(fixture('bomb.docx'));
    bytes.writeUInt32LE(20 * 1024 * 1024, centralRecord(bytes, 'word/document.xml') + 24);
    const detected = detectFileType(bytes);
    expect(detected.kind).toBe('zip-bomb');
    expect(detected.kind === 'zip-bomb' && detected.ratio).toBeGreaterThan(100);
  });

  it('refuses an archive with too many parts', () => {
    const bytes = Buffer.from(fixture('lesson.docx'));
    const eocd = bytes.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
    bytes.writeUInt16LE(5000, eocd + 8);
    bytes.writeUInt16LE(5000, eocd + 10);
    expect(detectFileType(bytes)).toEqual({ kind: 'too-many-parts', label: 'This file' });
  });

  it('recognises password-protected files', () => {
    // Office 2007+ with a password is a compound file holding "EncryptedPackage".
    const sealed = Buffer.from(fixture('lesson.doc'));
    const name = Buffer.from('WordDocument', 'utf16le');
    const entry = sealed.indexOf(name, 512);
    Buffer.from('EncryptedPackage\0', 'utf16le').copy(sealed, entry);
    sealed.writeUInt16LE(34, entry + 64);
    expect(detectFileType(sealed)).toEqual({ kind: 'encrypted', label: 'This Office document' });

    // A .doc whose FIB says fEncrypted.
    const doc = Buffer.from(fixture('lesson.doc'));
    const start = doc.readUInt32LE(doc.indexOf(name, 512) + 116);
    const fib = (start + 1) * 512;
    doc.writeUInt16LE(doc.readUInt16LE(fib + 0x0a) | 0x0100, fib + 0x0a);
    expect(detectFileType(doc)).toEqual({ kind: 'encrypted', label: 'This Word document' });

    // A zip whose entries are encrypted.
    const zip = Buffer.from(fixture('lesson.docx'));
    const first = readZipDirectory(zip, 100)[0]!;
    const at = centralRecord(zip, first.name);
    zip.writeUInt16LE(zip.readUInt16LE(at + 8) | 1, at + 8);
    expect(detectFileType(zip)).toEqual({ kind: 'encrypted', label: 'This Word document' });
  });
});

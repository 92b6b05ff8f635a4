import zlib from 'node:zlib';

/**
 * Reads a ZIP archive's central directory without inflating anything, so that OOXML and ODF
 * files can be typed and checked (entry count, total unpacked size, compression ratio) before
 * any parser spends memory on them. The declared sizes can lie; the parser's own count of the
 * bytes it actually inflates is the second line of defence.
 */

export interface ZipEntry {
  name: string;
  /** 0 = stored, 8 = deflate. */
  method: number;
  /** General-purpose flags; bit 0 means the entry is encrypted. */
  flags: number;
  compressedSize: number;
  uncompressedSize: number;
  localHeaderOffset: number;
}

export class ZipFormatError extends Error {
  constructor(
    readonly reason: 'truncated' | 'corrupt' | 'too-many-entries',
    message: string,
  ) {
    super(message);
    this.name = 'ZipFormatError';
  }
}

const EOCD = 0x06054b50;
const EOCD64_LOCATOR = 0x07064b50;
const EOCD64 = 0x06064b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
const MAX_COMMENT = 0xffff;

/** Finds the End Of Central Directory record, searching back over a possible comment. */
function findEndOfCentralDirectory(buf: Buffer): number {
  const stop = Math.max(0, buf.length - 22 - MAX_COMMENT);
  for (let i = buf.length - 22; i >= stop; i--) {
    if (buf.readUInt32LE(i) === EOCD && i + 22 + buf.readUInt16LE(i + 20) <= buf.length) return i;
  }
  return -1;
}

/** Lists the archive's entries from its central directory. Throws ZipFormatError. */
export function readZipDirectory(buf: Buffer, maxEntries: number): ZipEntry[] {
  if (buf.length < 22) throw new ZipFormatError('truncated', 'too short to be a ZIP archive');
  const eocd = findEndOfCentralDirectory(buf);
  if (eocd < 0) throw new ZipFormatError('truncated', 'no end-of-archive record');
  let count = buf.readUInt16LE(eocd + 10);
  let dirSize = buf.readUInt32LE(eocd + 12);
  let dirOffset = buf.readUInt32LE(eocd + 16);
  const locator = eocd - 20;
  if (
    (count === 0xffff || dirSize === 0xffffffff || dirOffset === 0xffffffff) &&
    locator >= 0 &&
    buf.readUInt32LE(locator) === EOCD64_LOCATOR
  ) {
    const at = Number(buf.readBigUInt64LE(locator + 8));
    if (at + 56 > buf.length || buf.readUInt32LE(at) !== EOCD64) {
      throw new ZipFormatError('corrupt', 'bad ZIP64 end record');
    }
    count = Number(buf.readBigUInt64LE(at + 32));
    dirSize = Number(buf.readBigUInt64LE(at + 40));
    dirOffset = Number(buf.readBigUInt64LE(at + 48));
  }
  if (count > maxEntries) {
    throw new ZipFormatError('too-many-entries', `${count} entries`);
  }
  if (dirOffset + dirSize > buf.length) {
    throw new ZipFormatError('truncated', 'the central directory lies past the end of the file');
  }

  const entries: ZipEntry[] = [];
  let at = dirOffset;
  for (let i = 0; i < count; i++) {
    if (at + 46 > buf.length || buf.readUInt32LE(at) !== CENTRAL) {
      throw new ZipFormatError('corrupt', 'bad central directory entry');
    }
    const flags = buf.readUInt16LE(at + 8);
    const method = buf.readUInt16LE(at + 10);
    let compressedSize = buf.readUInt32LE(at + 20);
    let uncompressedSize = buf.readUInt32LE(at + 24);
    const nameLength = buf.readUInt16LE(at + 28);
    const extraLength = buf.readUInt16LE(at + 30);
    const commentLength = buf.readUInt16LE(at + 32);
    let localHeaderOffset = buf.readUInt32LE(at + 42);
    const end = at + 46 + nameLength + extraLength + commentLength;
    if (end > buf.length) throw new ZipFormatError('truncated', 'central directory cut short');
    const name = buf.toString('utf8', at + 46, at + 46 + nameLength);
    // ZIP64 sizes live in extra field 0x0001, in this order, only for the fields set to ~0.
    let extra = at + 46 + nameLength;
    const extraEnd = extra + extraLength;
    while (extra + 4 <= extraEnd) {
      const id = buf.readUInt16LE(extra);
      const size = buf.readUInt16LE(extra + 2);
      if (id === 0x0001) {
        let field = extra + 4;
        const next = () => {
          if (field + 8 > extra + 4 + size) throw new ZipFormatError('corrupt', 'bad ZIP64 field');
          const value = Number(buf.readBigUInt64LE(field));
          field += 8;
          return value;
        };
        if (uncompressedSize === 0xffffffff) uncompressedSize = next();
        if (compressedSize === 0xffffffff) compressedSize = next();
        if (localHeaderOffset === 0xffffffff) localHeaderOffset = next();
      }
      extra += 4 + size;
    }
    entries.push({ name, method, flags, compressedSize, uncompressedSize, localHeaderOffset });
    at = end;
  }
  return entries;
}

export interface ZipLimits {
  maxEntries: number;
  /** Most bytes all entries may unpack to together. */
  maxUncompressedBytes: number;
  /** Most an archive that unpacks to more than `ratioAppliesAboveBytes` may be compressed. */
  maxRatio: number;
  ratioAppliesAboveBytes: number;
}

export type ZipProblem =
  | { kind: 'too-large'; uncompressedBytes: number }
  | { kind: 'ratio'; ratio: number; uncompressedBytes: number }
  | { kind: 'encrypted' };

/** Checks declared sizes against the limits before anything is inflated. */
export function checkZipLimits(
  entries: ZipEntry[],
  archiveBytes: number,
  limits: ZipLimits,
): ZipProblem | null {
  if (entries.some((entry) => (entry.flags & 0x1) === 1)) return { kind: 'encrypted' };
  const uncompressedBytes = entries.reduce((sum, entry) => sum + entry.uncompressedSize, 0);
  if (uncompressedBytes > limits.maxUncompressedBytes) {
    return { kind: 'too-large', uncompressedBytes };
  }
  const ratio = uncompressedBytes / Math.max(1, archiveBytes);
  if (uncompressedBytes > limits.ratioAppliesAboveBytes && ratio > limits.maxRatio) {
    return { kind: 'ratio', ratio, uncompressedBytes };
  }
  return null;
}

/**
 * The first bytes of one entry, inflating at most `maxCompressedBytes` of it: enough to read a
 * `mimetype` or an XML prolog without unpacking the whole part, however large it claims to be.
 */
export function readEntryPrefix(buf: Buffer, entry: ZipEntry, maxCompressedBytes = 4096): Buffer {
  const at = entry.localHeaderOffset;
  if (at + 30 > buf.length || buf.readUInt32LE(at) !== LOCAL) {
    throw new ZipFormatError('corrupt', `bad local header for ${entry.name}`);
  }
  const start = at + 30 + buf.readUInt16LE(at + 26) + buf.readUInt16LE(at + 28);
  const end = Math.min(buf.length, start + entry.compressedSize, start + maxCompressedBytes);
  if (start > buf.length) throw new ZipFormatError('truncated', `${entry.name} is cut short`);
  const data = buf.subarray(start, end);
  if (entry.method === 0) return data;
  if (entry.method !== 8)
    throw new ZipFormatError('corrupt', `unknown compression ${entry.method}`);
  try {
    return zlib.inflateRawSync(data, { finishFlush: zlib.constants.Z_SYNC_FLUSH });
  } catch {
    throw new ZipFormatError('corrupt', `${entry.name} does not inflate`);
  }
}

/** Which office format an archive holds, judged from its part names (and ODF's `mimetype`). */
export function detectZipFormat(
  buf: Buffer,
  entries: ZipEntry[],
): 'docx' | 'pptx' | 'xlsx' | 'odt' | 'odp' | 'ods' | 'epub' | null {
  const names = new Set(entries.map((entry) => entry.name));
  const mimetype = entries.find((entry) => entry.name === 'mimetype');
  if (mimetype) {
    const declared = readEntryPrefix(buf, mimetype, 256).toString('ascii').trim();
    if (declared === 'application/vnd.oasis.opendocument.text') return 'odt';
    if (declared === 'application/vnd.oasis.opendocument.presentation') return 'odp';
    if (declared === 'application/vnd.oasis.opendocument.spreadsheet') return 'ods';
    if (declared === 'application/epub+zip') return 'epub';
  }
  if (names.has('[Content_Types].xml')) {
    if ([...names].some((name) => /^word\/document\d*\.xml$/.test(name))) return 'docx';
    if (names.has('ppt/presentation.xml')) return 'pptx';
    if (names.has('xl/workbook.xml')) return 'xlsx';
  }
  return null;
}

/**
 * Whether an XML part's prolog is unsafe: it declares a DOCTYPE (the only way to define
 * entities, external or not), or the prefix read holds no root element at all although the
 * part goes on (a prolog padded to hide a DOCTYPE further on). Office files do neither.
 */
export function hasUnsafeXmlProlog(xmlPrefix: Buffer, isWholePart: boolean): boolean {
  // Dropping NUL bytes makes UTF-16 markup (either byte order) readable as ASCII.
  const text = xmlPrefix.toString('latin1').replace(/\0/g, '');
  // The prolog ends where the first element starts; a DOCTYPE can only appear before it.
  const rootStart = text.search(/<[A-Za-z_]/);
  if (rootStart === -1) return !isWholePart && text.trim().length > 0;
  return /<!DOCTYPE|<!ENTITY/i.test(text.slice(0, rootStart));
}

/**
 * Reads the directory of an OLE Compound File (the container of .doc, .ppt, .xls and of
 * password-protected Office 2007+ files) to tell which of these a file is, without a parser.
 */

export const CFB_SIGNATURE = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);

const FREE = 0xffffffff;
const END_OF_CHAIN = 0xfffffffe;
const MAX_REGULAR = 0xfffffffa;

export class CfbFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CfbFormatError';
  }
}

interface CfbEntry {
  name: string;
  type: number;
  startSector: number;
  size: number;
}

interface Cfb {
  entries: CfbEntry[];
  sectorSize: number;
  sectorOffset(sector: number): number;
}

function readCfb(buf: Buffer): Cfb {
  if (buf.length < 512 || !buf.subarray(0, 8).equals(CFB_SIGNATURE)) {
    throw new CfbFormatError('not a compound file');
  }
  const shift = buf.readUInt16LE(0x1e);
  if (shift !== 9 && shift !== 12) throw new CfbFormatError('bad sector size');
  const sectorSize = 1 << shift;
  const sectorCount = Math.floor((buf.length - sectorSize) / sectorSize) + 1;
  const sectorOffset = (sector: number) => (sector + 1) * sectorSize;
  const readSector = (sector: number) => {
    const at = sectorOffset(sector);
    if (sector >= MAX_REGULAR || at + sectorSize > buf.length) {
      throw new CfbFormatError('sector past the end of the file (truncated?)');
    }
    return buf.subarray(at, at + sectorSize);
  };

  // The FAT's own sectors are listed in the header (109 of them) and then in DIFAT sectors.
  const fatSectors: number[] = [];
  for (let i = 0; i < 109; i++) {
    const sector = buf.readUInt32LE(0x4c + i * 4);
    if (sector < MAX_REGULAR) fatSectors.push(sector);
  }
  let difat = buf.readUInt32LE(0x44);
  for (let hops = 0; difat < MAX_REGULAR; hops++) {
    if (hops > sectorCount) throw new CfbFormatError('DIFAT loop');
    const sector = readSector(difat);
    for (let i = 0; i < sectorSize / 4 - 1; i++) {
      const value = sector.readUInt32LE(i * 4);
      if (value < MAX_REGULAR) fatSectors.push(value);
    }
    difat = sector.readUInt32LE(sectorSize - 4);
  }
  // A real FAT needs one entry per sector of the file; more FAT sectors than that are forged.
  const neededFatSectors = Math.ceil(sectorCount / (sectorSize / 4)) + 1;
  const fat: number[] = [];
  for (const sector of fatSectors.slice(0, neededFatSectors)) {
    const bytes = readSector(sector);
    for (let i = 0; i < sectorSize / 4; i++) fat.push(bytes.readUInt32LE(i * 4));
  }

  const entries: CfbEntry[] = [];
  let sector = buf.readUInt32LE(0x30);
  for (let hops = 0; sector !== END_OF_CHAIN && sector !== FREE; hops++) {
    if (hops > sectorCount) throw new CfbFormatError('directory loop');
    const bytes = readSector(sector);
    for (let at = 0; at + 128 <= sectorSize; at += 128) {
      const nameLength = Math.min(64, bytes.readUInt16LE(at + 64));
      const type = bytes[at + 66] ?? 0;
      if (type === 0 || nameLength < 2) continue;
      entries.push({
        name: bytes.toString('utf16le', at, at + nameLength - 2),
        type,
        startSector: bytes.readUInt32LE(at + 116),
        size: Number(bytes.readBigUInt64LE(at + 120) & 0xffffffffn),
      });
    }
    const next = fat[sector];
    if (next === undefined) throw new CfbFormatError('directory chain leaves the FAT');
    sector = next;
  }
  return { entries, sectorSize, sectorOffset };
}

export type CfbFormat = 'doc' | 'ppt' | 'xls' | 'encrypted-ooxml' | 'encrypted-doc' | null;

/**
 * What an OLE compound file holds: a Word 97-2003 document, a PowerPoint or Excel file, or an
 * Office 2007+ file sealed with a password (its XML then sits inside "EncryptedPackage").
 * Throws CfbFormatError when the container itself is damaged.
 */
export function detectCfbFormat(buf: Buffer): CfbFormat {
  const cfb = readCfb(buf);
  const names = new Set(cfb.entries.map((entry) => entry.name));
  if (names.has('EncryptedPackage')) return 'encrypted-ooxml';
  const word = cfb.entries.find((entry) => entry.name === 'WordDocument');
  if (word) {
    // The Word FIB starts the stream (always in regular sectors: it is larger than 4 KB);
    // bit 8 of the flags at 0x0A is fEncrypted.
    const at = cfb.sectorOffset(word.startSector);
    if (word.startSector < MAX_REGULAR && at + 12 <= buf.length) {
      if (buf.readUInt16LE(at + 0x0a) & 0x0100) return 'encrypted-doc';
    }
    return 'doc';
  }
  if (names.has('PowerPoint Document')) return 'ppt';
  if (names.has('Workbook') || names.has('Book')) return 'xls';
  return null;
}

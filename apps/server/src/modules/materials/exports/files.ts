import { strToU8, zipSync, type Zippable } from 'fflate';
import { xmlEscape } from './common.js';

/*
 * The file containers the formats share: CSV (RFC 4180), a small XLSX writer (one sheet, shared
 * strings, a bold header style) and zip. Written here rather than taken from a spreadsheet
 * library: SheetJS's npm release has open advisories, ExcelJS costs more than the whole export,
 * and these three are a page of code each that the tests read back with independent parsers.
 */

/** Cells of one row: text or a number. */
export type Cell = string | number | null | undefined;

function csvField(value: Cell): string {
  if (value === null || value === undefined) return '';
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** RFC 4180 CSV with CRLF line ends (what Blooket's and Gimkit's templates ship with). */
export function toCsv(rows: Cell[][]): string {
  return rows.map((row) => row.map(csvField).join(',')).join('\r\n') + '\r\n';
}

/** A cell's column letters: 0 → A, 25 → Z, 26 → AA. */
function columnName(index: number): string {
  let name = '';
  let n = index + 1;
  while (n > 0) {
    const rem = (n - 1) % 26;
    name = String.fromCharCode(65 + rem) + name;
    n = Math.floor((n - 1) / 26);
  }
  return name;
}

export interface SheetSpec {
  name: string;
  rows: Cell[][];
  /** Rows (0-based) shown bold: the template's header. */
  boldRows?: number[];
  /** Column widths in characters. */
  widths?: number[];
}

/** Starts like a formula to a spreadsheet program: stored with Excel's "quote prefix" style. */
const FORMULA_START = /^[=+\-@\t\r]/;

const STYLES = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><fonts count="2"><font><sz val="11"/><name val="Calibri"/></font><font><b/><sz val="11"/><name val="Calibri"/></font></fonts><fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills><borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders><cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs><cellXfs count="4"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/><xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/><xf numFmtId="49" fontId="0" fillId="0" borderId="0" xfId="0" quotePrefix="1" applyNumberFormat="1"/><xf numFmtId="49" fontId="1" fillId="0" borderId="0" xfId="0" quotePrefix="1" applyFont="1" applyNumberFormat="1"/></cellXfs><cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles></styleSheet>`;

/**
 * An .xlsx workbook with one sheet. Text goes to the shared-strings table (as Excel writes it);
 * text that starts with = + - @ gets the quote-prefix style, so it stays text when a teacher
 * edits the cell, and is never a formula (no cell carries an <f> element).
 */
export function toXlsx(sheet: SheetSpec): Buffer {
  const strings: string[] = [];
  const index = new Map<string, number>();
  const bold = new Set(sheet.boldRows ?? []);
  const rowsXml = sheet.rows
    .map((row, r) => {
      const cells = row
        .map((value, c) => {
          if (value === null || value === undefined || value === '') return '';
          const ref = `${columnName(c)}${r + 1}`;
          const style =
            (bold.has(r) ? 1 : 0) +
            (typeof value === 'string' && FORMULA_START.test(value) ? 2 : 0);
          const s = style ? ` s="${style}"` : '';
          if (typeof value === 'number') return `<c r="${ref}"${s}><v>${value}</v></c>`;
          let i = index.get(value);
          if (i === undefined) {
            i = strings.length;
            strings.push(value);
            index.set(value, i);
          }
          return `<c r="${ref}"${s} t="s"><v>${i}</v></c>`;
        })
        .join('');
      return `<row r="${r + 1}">${cells}</row>`;
    })
    .join('');
  const cols = sheet.widths?.length
    ? `<cols>${sheet.widths.map((w, i) => `<col min="${i + 1}" max="${i + 1}" width="${w}" customWidth="1"/>`).join('')}</cols>`
    : '';
  const worksheet = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">${cols}<sheetData>${rowsXml}</sheetData></worksheet>`;
  const sst = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="${strings.length}" uniqueCount="${strings.length}">${strings
    .map((t) => `<si><t xml:space="preserve">${xmlEscape(t)}</t></si>`)
    .join('')}</sst>`;
  const files: Zippable = {
    '[Content_Types].xml': strToU8(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/><Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/></Types>`),
    _rels: {
      '.rels': strToU8(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>`),
    },
    xl: {
      'workbook.xml': strToU8(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="${xmlEscape(sheet.name.slice(0, 31))}" sheetId="1" r:id="rId1"/></sheets></workbook>`),
      _rels: {
        'workbook.xml.rels': strToU8(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/><Relationship Id="rId3" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/></Relationships>`),
      },
      worksheets: { 'sheet1.xml': strToU8(worksheet) },
      'styles.xml': strToU8(STYLES),
      'sharedStrings.xml': strToU8(sst),
    },
  };
  return Buffer.from(zipSync(files, { level: 6 }));
}

/** A zip of named files (folders by "/" in the names). */
export function toZip(entries: Array<{ name: string; body: Buffer | string }>): Buffer {
  const files: Zippable = {};
  for (const entry of entries) {
    files[entry.name] =
      typeof entry.body === 'string' ? strToU8(entry.body) : new Uint8Array(entry.body);
  }
  return Buffer.from(zipSync(files, { level: 6 }));
}

/** Names made unique within a zip: "quiz.txt", "quiz-2.txt", … */
export function uniqueNames(names: string[]): string[] {
  const seen = new Map<string, number>();
  return names.map((name) => {
    const n = (seen.get(name) ?? 0) + 1;
    seen.set(name, n);
    if (n === 1) return name;
    const dot = name.lastIndexOf('.');
    return dot > 0 ? `${name.slice(0, dot)}-${n}${name.slice(dot)}` : `${name}-${n}`;
  });
}

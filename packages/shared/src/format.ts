/**
 * Turns a catalogue author name from "Last, First" into "First Last" and removes
 * parenthesised parts (spec §2 book cards): "Shelley, Mary Wollstonecraft" →
 * "Mary Wollstonecraft Shelley"; "Carroll, Lewis (Charles Lutwidge)" → "Lewis Carroll".
 * Names without a comma are kept as they are, minus the parentheses.
 */
export function formatAuthorName(name: string): string {
  const withoutParens = name
    .replace(/\([^)]*\)/g, ' ')
    .replace(/[()]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  const commaAt = withoutParens.indexOf(',');
  if (commaAt === -1) return withoutParens;
  const last = withoutParens.slice(0, commaAt).trim();
  const rest = withoutParens
    .slice(commaAt + 1)
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
  // Suffixes such as "Jr." stay after the last name: "King, Martin Luther, Jr." → "Martin Luther King Jr."
  const first = rest[0] ?? '';
  const suffixes = rest.slice(1).filter((part) => !/^\d/.test(part));
  return [first, last, ...suffixes].filter(Boolean).join(' ');
}

const SHORT_US_DATE = new Intl.DateTimeFormat('en-US', {
  month: 'short',
  day: 'numeric',
  year: 'numeric',
  timeZone: 'UTC',
});

/** The spec's date display: a short US date with a three-letter month, e.g. "Mar 4, 2024". */
export function formatShortDate(value: string | number | Date): string {
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return '';
  return SHORT_US_DATE.format(date);
}

/** Prices are stored in cents and shown divided by 100 in dollars: 999 → "$9.99". */
export function formatCents(cents: number): string {
  return `$${(cents / 100).toFixed(2)}`;
}

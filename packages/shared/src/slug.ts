/**
 * The spec's slug rule: lowercase the name and replace each run of non-alphanumeric
 * characters with a hyphen. Leading and trailing hyphens are trimmed so that
 * "Science Fiction!" gives "science-fiction" rather than "science-fiction-".
 * Accented letters are folded to ASCII first so "Brontë" and "Bronte" share a slug.
 */
export function slugify(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

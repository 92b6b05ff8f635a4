import { formatAuthorName, slugify } from '@chapterwise/shared';

/**
 * The form titles, author names and search terms are compared in: accents folded, lower
 * case, punctuation turned into spaces. The importer stores titles and authors this way and
 * search terms are normalised the same way, so "Brontë" finds "Bronte" and back.
 */
export function normalizeForSearch(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[’']/g, '')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

/** Slug of an author's display name: "Shelley, Mary Wollstonecraft" → "mary-wollstonecraft-shelley". */
export function authorSlug(name: string): string {
  return slugify(formatAuthorName(name));
}

/** The url of a book from its title, at most about 70 characters, cut at a word. */
export function titleSlug(title: string): string {
  const slug = slugify(title);
  if (slug.length <= 70) return slug;
  const cut = slug.slice(0, 71);
  return cut.slice(0, cut.lastIndexOf('-') > 20 ? cut.lastIndexOf('-') : 70);
}

/** A normalised title or search without its leading article: "the war of the worlds" → "war of the worlds". */
export function withoutArticle(normalised: string): string {
  return normalised.replace(/^(?:the|a|an) /, '');
}

/**
 * The keys exact-title search compares (see decision 015): the whole title and the title
 * before its first ';' or ':' ("Frankenstein; Or, The Modern Prometheus" → "frankenstein"),
 * normalised, without a leading The/A/An. Migration 0012 computes the same in SQL for
 * catalogues imported before it.
 */
export function titleKeys(title: string): { titleKey: string; shortKey: string } {
  return {
    titleKey: withoutArticle(normalizeForSearch(title)),
    shortKey: withoutArticle(normalizeForSearch(title.replace(/[;:][\s\S]*$/, ''))),
  };
}

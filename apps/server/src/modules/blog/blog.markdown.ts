import { Marked } from 'marked';
import sanitizeHtml from 'sanitize-html';

/**
 * The version of the Markdown → HTML rendering below. Stored HTML made by an older version is
 * rendered again at start (BlogService.start), so a tightened sanitiser reaches old posts.
 */
export const BLOG_RENDER_VERSION = 2;

/** Words an adult reads in a minute, for the "5 min read" line. */
const WORDS_PER_MINUTE = 220;
const EXCERPT_MAX = 220;

const marked = new Marked({ gfm: true, breaks: false, async: false });

/**
 * What a post body may contain after rendering: text structure, links, images, code and
 * tables. No script, style, iframe, form, svg or event handler; no `style` or `class`
 * (except a code block's `language-*`); links only to http(s), mailto or this site; images
 * only from http(s) or this site (no `data:`).
 */
function sanitizeOptions(publicHost: string): sanitizeHtml.IOptions {
  return {
    allowedTags: [
      'p',
      'h2',
      'h3',
      'h4',
      'h5',
      'h6',
      'blockquote',
      'ul',
      'ol',
      'li',
      'strong',
      'em',
      'del',
      's',
      'code',
      'pre',
      'hr',
      'br',
      'a',
      'img',
      'table',
      'thead',
      'tbody',
      'tr',
      'th',
      'td',
      'figure',
      'figcaption',
      'sup',
      'sub',
      'abbr',
      'kbd',
      'mark',
    ],
    allowedAttributes: {
      a: ['href', 'title', 'rel'],
      img: ['src', 'alt', 'title', 'width', 'height', 'loading', 'decoding'],
      th: ['align', 'scope'],
      td: ['align'],
      ol: ['start'],
      abbr: ['title'],
    },
    allowedClasses: { code: [/^language-[\w-]{1,30}$/] },
    allowedSchemes: ['http', 'https', 'mailto'],
    allowedSchemesByTag: { img: ['http', 'https'] },
    allowedSchemesAppliedToAttributes: ['href', 'src', 'cite'],
    allowProtocolRelative: false,
    disallowedTagsMode: 'discard',
    // The page has one h1 (the title): a body's "# Heading" becomes a section heading.
    transformTags: {
      h1: 'h2',
      a: (tagName, attribs) => {
        const href = attribs.href ?? '';
        const external = isExternal(href, publicHost);
        const rest = { ...attribs };
        delete rest.rel;
        return {
          tagName,
          attribs: external ? { ...rest, rel: 'noopener noreferrer' } : rest,
        };
      },
      // An image written without alt text is taken as decorative (alt=""), never unlabelled.
      img: (tagName, attribs) => ({
        tagName,
        attribs: { ...attribs, alt: attribs.alt ?? '', loading: 'lazy', decoding: 'async' },
      }),
    },
  };
}

/** An absolute http(s) link to another host (this site's own links stay as they are). */
function isExternal(href: string, publicHost: string): boolean {
  if (!/^https?:\/\//i.test(href)) return false;
  try {
    return new URL(href).host.toLowerCase() !== publicHost;
  } catch {
    return true;
  }
}

export interface RenderedBody {
  /** Sanitised HTML, safe to put in a page as it is. */
  html: string;
  /** Plain text of the whole body (search). */
  text: string;
  /** The opening paragraphs as plain text, cut at a word near EXCERPT_MAX characters. */
  excerpt: string;
  readingMinutes: number;
}

/**
 * Renders a post's Markdown to sanitised HTML, with its plain text, an excerpt and the
 * reading time. Raw HTML in the Markdown goes through the same sanitiser.
 * `publicUrl` tells this site's links (kept as they are) from external ones (rel="noopener
 * noreferrer").
 */
export function renderMarkdown(markdown: string, publicUrl: string): RenderedBody {
  const publicHost = new URL(publicUrl).host.toLowerCase();
  const raw = marked.parse(markdown.replace(/\r\n?/g, '\n')) as string;
  const html = sanitizeHtml(raw, sanitizeOptions(publicHost)).trim();
  const text = htmlToText(html);
  const words = text.match(/[\p{L}\p{N}]+(?:['’][\p{L}]+)*/gu)?.length ?? 0;
  return {
    html,
    text,
    excerpt: excerptOf(html),
    readingMinutes: words === 0 ? 0 : Math.max(1, Math.round(words / WORDS_PER_MINUTE)),
  };
}

const BLOCK_END = /<\/(p|h[1-6]|li|blockquote|pre|tr|th|td|figcaption|ul|ol|table)>/g;

/** The text of sanitised HTML: blocks on their own lines, entities decoded. */
export function htmlToText(html: string): string {
  const withBreaks = html.replace(BLOCK_END, '$&\n').replace(/<br\s*\/?>/g, '\n');
  const stripped = sanitizeHtml(withBreaks, { allowedTags: [], allowedAttributes: {} });
  return decodeEntities(stripped)
    .replace(/[ \t]+/g, ' ')
    .replace(/\n\s*\n+/g, '\n')
    .trim();
}

/** The first paragraphs' text (not headings, lists or code), shortened at a word. */
function excerptOf(html: string): string {
  const paragraphs = [...html.matchAll(/<p>([\s\S]*?)<\/p>/g)]
    .map((m) => htmlToText(m[1] ?? ''))
    .filter(Boolean);
  return shorten(paragraphs.join(' ').replace(/\s+/g, ' '), EXCERPT_MAX);
}

/** Cuts text at the last word boundary before `max` characters and adds "…". */
export function shorten(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s,;:.–—-]+$/, '')}…`;
}

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot|apos|nbsp);/gi, (_, entity: string) => {
    const e = entity.toLowerCase();
    if (e === 'amp') return '&';
    if (e === 'lt') return '<';
    if (e === 'gt') return '>';
    if (e === 'quot') return '"';
    if (e === 'apos') return "'";
    if (e === 'nbsp') return ' ';
    const code = e.startsWith('#x') ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
    return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : '';
  });
}

/** Lower-case, accent-free text for the search columns (the search box folds the same way). */
export function foldForSearch(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();
}

/**
 * The words of a search box as a prefix tsquery (`frank:* & monst:*`): letters and digits
 * only, so nothing typed can reach the query syntax; at most 12 words.
 */
export function searchWords(term: string): string[] {
  return foldForSearch(term)
    .split(/[^a-z0-9]+/)
    .filter(Boolean)
    .slice(0, 12);
}

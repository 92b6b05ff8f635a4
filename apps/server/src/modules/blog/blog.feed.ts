import { blogPostHref, PRODUCT_NAME } from '@chapterwise/shared';
import type { BlogPostRow } from '../../db/schema/index.js';

/** Escapes text for XML element content and attribute values. */
export function escapeXml(text: string): string {
  return (
    text
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/"/g, '&quot;')
      .replace(/'/g, '&apos;')
      // Characters XML 1.0 does not allow at all.
      // eslint-disable-next-line no-control-regex -- these are the characters to remove
      .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '')
  );
}

/**
 * Site-relative links and images of a sanitised body made absolute, for feed readers that
 * show the HTML away from this site. The sanitiser writes every attribute in double quotes.
 */
export function absolutiseLinks(html: string, publicUrl: string): string {
  return html.replace(/ (href|src)="\/(?!\/)/g, ` $1="${publicUrl}/`);
}

const absolute = (url: string, publicUrl: string) =>
  url.startsWith('/') && !url.startsWith('//') ? `${publicUrl}${url}` : url;

/**
 * The blog's RSS 2.0 feed: the newest posts with their summary, categories, tags, author and
 * the full sanitised body (`content:encoded`, escaped, with absolute links).
 */
export function renderRss(posts: BlogPostRow[], publicUrl: string, now: Date): string {
  const blogUrl = `${publicUrl}/blog`;
  const lastBuild = posts[0]?.updatedAt ?? now;
  const items = posts.map((post) => {
    const link = `${publicUrl}${blogPostHref(post.url)}`;
    const author = `${post.authorFirstName} ${post.authorLastName}`.trim();
    const parts = [
      `<title>${escapeXml(post.title)}</title>`,
      `<link>${escapeXml(link)}</link>`,
      `<guid isPermaLink="true">${escapeXml(link)}</guid>`,
      `<pubDate>${(post.publishDate ?? post.createdAt).toUTCString()}</pubDate>`,
      `<description>${escapeXml(post.excerpt)}</description>`,
      ...(author ? [`<dc:creator>${escapeXml(author)}</dc:creator>`] : []),
      ...post.categories.map((c) => `<category>${escapeXml(c)}</category>`),
      ...post.tags.map((t) => `<category domain="tag">${escapeXml(t)}</category>`),
      ...(post.thumbnailImage
        ? [
            `<media:content url="${escapeXml(absolute(post.thumbnailImage, publicUrl))}" medium="image"/>`,
          ]
        : []),
      `<content:encoded>${escapeXml(absolutiseLinks(post.bodyHtml, publicUrl))}</content:encoded>`,
    ];
    return `    <item>\n      ${parts.join('\n      ')}\n    </item>`;
  });
  return `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:media="http://search.yahoo.com/mrss/">
  <channel>
    <title>${escapeXml(`${PRODUCT_NAME} Blog`)}</title>
    <link>${escapeXml(blogUrl)}</link>
    <atom:link href="${escapeXml(`${blogUrl}/rss.xml`)}" rel="self" type="application/rss+xml"/>
    <description>Ideas for teaching classic books, and how to make quizzes, lessons and worksheets you can trust from any chapter.</description>
    <language>en-us</language>
    <lastBuildDate>${lastBuild.toUTCString()}</lastBuildDate>
${items.join('\n')}
  </channel>
</rss>
`;
}

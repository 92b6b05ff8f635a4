import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/** One child sitemap family: `/sitemaps/<name>-<page>.xml`, page 1 to pageCount(). */
export interface SitemapSource {
  name: string;
  pageCount(): Promise<number>;
  /** Paths (starting with "/") of one page, at most 50,000. */
  paths(page: number): Promise<Array<{ path: string; lastmod?: string }>>;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Feature modules add their pages here with one line: `app.sitemaps.add(source)`. */
    sitemaps: { add(source: SitemapSource): void };
  }
}

/**
 * `/robots.txt` and a paged sitemap: `/sitemap.xml` is a sitemap index of every registered
 * source's pages (`/sitemaps/books-1.xml`, ...). Served outside /api/v1 where crawlers look.
 */
export const sitemapPlugin = fp(
  async (app: FastifyInstance, options: { publicUrl: string }) => {
    const sources = new Map<string, SitemapSource>();
    app.decorate('sitemaps', {
      add(source: SitemapSource) {
        if (!/^[a-z0-9]+$/.test(source.name)) throw new Error(`bad sitemap name ${source.name}`);
        sources.set(source.name, source);
      },
    });
    const base = options.publicUrl;

    app.get('/robots.txt', { schema: { hide: true } }, async (_request, reply) => {
      reply.type('text/plain; charset=utf-8').header('cache-control', 'public, max-age=3600');
      return [
        'User-agent: *',
        'Allow: /',
        'Allow: /api/v1/books/',
        'Disallow: /api/',
        'Disallow: /account',
        'Disallow: /dashboard',
        'Disallow: /material-generator',
        'Disallow: /create-set',
        'Disallow: /set/',
        'Disallow: /admin/',
        '',
        `Sitemap: ${base}/sitemap.xml`,
        '',
      ].join('\n');
    });

    app.get('/sitemap.xml', { schema: { hide: true } }, async (_request, reply) => {
      const entries: string[] = [];
      for (const source of sources.values()) {
        const pages = await source.pageCount();
        for (let page = 1; page <= pages; page++) {
          entries.push(
            `<sitemap><loc>${escapeXml(`${base}/sitemaps/${source.name}-${page}.xml`)}</loc></sitemap>`,
          );
        }
      }
      reply.type('application/xml; charset=utf-8').header('cache-control', 'public, max-age=3600');
      return `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${entries.join('\n')}\n</sitemapindex>\n`;
    });

    app.get<{ Params: { file: string } }>(
      '/sitemaps/:file',
      { schema: { hide: true } },
      async (request, reply) => {
        const match = /^([a-z0-9]+)-(\d{1,6})\.xml$/.exec(request.params.file);
        const source = match ? sources.get(match[1]!) : undefined;
        const page = match ? Number(match[2]) : 0;
        if (!source || page < 1 || page > (await source.pageCount())) {
          return reply.status(404).send({
            errors: { message: 'No such sitemap.', code: 'NOT_FOUND' },
          });
        }
        const urls = await source.paths(page);
        const body = urls
          .map(
            (u) =>
              `<url><loc>${escapeXml(base + u.path)}</loc>${u.lastmod ? `<lastmod>${u.lastmod}</lastmod>` : ''}</url>`,
          )
          .join('\n');
        reply
          .type('application/xml; charset=utf-8')
          .header('cache-control', 'public, max-age=3600');
        return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${body}\n</urlset>\n`;
      },
    );
  },
  { name: 'sitemap' },
);

function escapeXml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

import { eq } from 'drizzle-orm';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type {
  BlogAdminPostAnswer,
  BlogAdminPostsAnswer,
  BlogPostAnswer,
  BlogPostInput,
  BlogPostsAnswer,
  BlogTaxonomyAnswer,
} from '@chapterwise/shared';
import { blogPosts } from '../../db/schema/index.js';
import { createTestApp, createUser, type TestApp } from '../../test/helpers.js';
import { BLOG_RENDER_VERSION, renderMarkdown } from './blog.markdown.js';

let t: TestApp;
let admin: { authorization: string };
let adminUser: Awaited<ReturnType<typeof createUser>>['user'];
let teacher: { authorization: string };

beforeAll(async () => {
  t = await createTestApp();
  const a = await createUser(t.app, {
    role: 'admin',
    firstName: 'Grace',
    lastName: 'Hopper',
    bio: 'Teaches English.',
    avatar: '/uploads/avatars/grace.webp',
  });
  admin = a.auth;
  adminUser = a.user;
  teacher = (await createUser(t.app)).auth;
});
afterAll(() => t.close());
afterEach(() => {
  vi.useRealTimers();
});

const api = (
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  payload?: unknown,
  headers: Record<string, string> = {},
) =>
  t.app.inject({
    method,
    url: `/api/v1${url}`,
    headers,
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
const get = (url: string) => api('GET', url);

let counter = 0;
/** A complete, publishable post; override any field. */
function postInput(overrides: Partial<BlogPostInput> = {}): BlogPostInput {
  counter += 1;
  return {
    title: `Teaching chapter ${counter}`,
    markdown: `A body for post ${counter} about reading in class.`,
    categories: ['Teaching Tips'],
    tags: ['reading'],
    status: 'published',
    authorFirstName: 'Grace',
    authorLastName: 'Hopper',
    authorBio: 'Teaches English.',
    ...overrides,
  };
}

async function createPost(overrides: Partial<BlogPostInput> = {}) {
  const res = await api('POST', '/blog/admin/posts', postInput(overrides), admin);
  expect(res.statusCode, res.body).toBe(201);
  return (res.json() as BlogAdminPostAnswer).data;
}

const list = async (query: string) => {
  const res = await get(`/blog/getblogposts?${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as BlogPostsAnswer;
};
const urlsOf = (answer: BlogPostsAnswer) => answer.data.map((p) => p.url);

async function png(width = 1600, height = 900, colour = '#0f766e') {
  return sharp({ create: { width, height, channels: 3, background: colour } })
    .png()
    .toBuffer();
}
const dataUrl = (buffer: Buffer, type = 'image/png') =>
  `data:${type};base64,${buffer.toString('base64')}`;

describe('Markdown rendering', () => {
  it('runs sanitize-html on this Node version (its package asks for Node 22)', () => {
    expect(Number(process.versions.node.split('.')[0])).toBeGreaterThanOrEqual(20);
    const out = renderMarkdown(
      '# Title\n\nSome **bold** text & a [link](https://example.org).',
      'http://localhost:3000',
    );
    expect(out.html).toBe(
      '<h2>Title</h2>\n<p>Some <strong>bold</strong> text &amp; a <a href="https://example.org" rel="noopener noreferrer">link</a>.</p>',
    );
    expect(out.text).toBe('Title\nSome bold text & a link.');
    expect(out.excerpt).toBe('Some bold text & a link.');
    expect(out.readingMinutes).toBe(1);
  });

  it('keeps links to this site as they are and marks external ones', () => {
    const { html } = renderMarkdown(
      '[a](/books) [b](http://localhost:3000/blog) [c](https://www.gutenberg.org/ebooks/84) [d](mailto:x@example.org)',
      'http://localhost:3000',
    );
    expect(html).toContain('<a href="/books">a</a>');
    expect(html).toContain('<a href="http://localhost:3000/blog">b</a>');
    expect(html).toContain(
      '<a href="https://www.gutenberg.org/ebooks/84" rel="noopener noreferrer">c</a>',
    );
    expect(html).toContain('<a href="mailto:x@example.org">d</a>');
  });

  it('cuts the excerpt at a word and reads at 220 words a minute', () => {
    const long = renderMarkdown(`${'word '.repeat(1100)}`, 'http://localhost:3000');
    expect(long.readingMinutes).toBe(5);
    expect(long.excerpt.length).toBeLessThanOrEqual(220);
    expect(long.excerpt.endsWith('word…')).toBe(true);
  });
});

describe('stored HTML', () => {
  it('is rendered again at start when the renderer changed since it was made', async () => {
    const post = await createPost({ markdown: 'Picture: <img src="/uploads/a.webp">' });
    await t.app.db
      .update(blogPosts)
      .set({ bodyHtml: '<p>made by an older renderer</p>', renderVersion: 0 })
      .where(eq(blogPosts.id, post._id));
    expect((await get(`/blog/getblogpost?url=${post.url}`)).json().data.body).toBe(
      '<p>made by an older renderer</p>',
    );
    await t.app.blog.start();
    const body = (await get(`/blog/getblogpost?url=${post.url}`)).json().data.body;
    expect(body).toBe(
      '<p>Picture: <img src="/uploads/a.webp" alt="" loading="lazy" decoding="async" /></p>',
    );
    const [row] = await t.app.db.select().from(blogPosts).where(eq(blogPosts.id, post._id));
    expect(row?.renderVersion).toBe(BLOG_RENDER_VERSION);
    // Re-rendering is not an edit.
    expect(row?.updatedAt.toISOString()).toBe(post.updatedAt);
  });
});

/** Real XSS payloads, in Markdown and in raw HTML. */
const XSS_PAYLOADS = [
  '<script>window.pwned = 1</script>',
  '<SCRIPT SRC=https://evil.example/x.js></SCRIPT>',
  '<img src=x onerror="window.pwned=1">',
  '<img src="javascript:alert(1)">',
  '<img src="data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+">',
  '![x](data:image/png;base64,iVBORw0KGgo=)',
  '![x](javascript:alert(1))',
  '[click](javascript:alert(1))',
  '[click](JaVaScRiPt:alert(1))',
  '[click](java&#x09;script:alert(1))',
  '[click](vbscript:msgbox(1))',
  '[click](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)',
  '<a href="javascript&colon;alert(1)">x</a>',
  '<a href="  javascript:alert(1)">x</a>',
  '<a href="https://example.org" onclick="alert(1)" target="_blank">x</a>',
  '<svg onload=alert(1)><circle r="40"/></svg>',
  '<svg><script>alert(1)</script></svg>',
  '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>',
  '<iframe src="https://evil.example"></iframe>',
  '<iframe srcdoc="<script>alert(1)</script>"></iframe>',
  '<object data="javascript:alert(1)"></object>',
  '<embed src="javascript:alert(1)">',
  '<form action="javascript:alert(1)"><button>go</button></form>',
  '<input autofocus onfocus=alert(1)>',
  '<details open ontoggle=alert(1)>',
  '<p style="background:url(javascript:alert(1))">styled</p>',
  '<div style="width: expression(alert(1))">ie</div>',
  '<style>body{background:url("javascript:alert(1)")}</style>',
  '<link rel=stylesheet href=https://evil.example/x.css>',
  '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">',
  '<base href="https://evil.example/">',
  '<body onload=alert(1)>',
  '<a href="#" onmouseover="alert(1)">hover</a>',
  '<img src=x:alert(alt) onerror=eval(src) alt=0>',
  '"><script>alert(1)</script>',
  '<scr<script>ipt>alert(1)</scr</script>ipt>',
  '<!--<script>alert(1)//--><script>alert(1)</script>',
  '<noscript><p title="</noscript><img src=x onerror=alert(1)>">',
  '<a href="https://ok.example/"><img src="https://ok.example/a.png" onerror="alert(1)"></a>',
  '<code class="language-js onerror">x</code>',
  '[ok](https://example.org "title\\" onmouseover=\\"alert(1)")',
].join('\n\n');

const ALLOWED_TAGS = new Set(
  'p h2 h3 h4 h5 h6 blockquote ul ol li strong em del s code pre hr br a img table thead tbody tr th td figure figcaption sup sub abbr kbd mark'.split(
    ' ',
  ),
);
const ALLOWED_ATTRIBUTES: Record<string, string[]> = {
  a: ['href', 'title', 'rel'],
  img: ['src', 'alt', 'title', 'width', 'height', 'loading', 'decoding'],
  th: ['align', 'scope'],
  td: ['align'],
  ol: ['start'],
  abbr: ['title'],
  code: ['class'],
};

/**
 * Reads sanitised HTML tag by tag: every tag and attribute must be on the allowlist, every
 * link and image address http(s), mailto or on this site, and no `<` may be left over (text
 * is escaped). The sanitiser writes attributes in double quotes, so this simple reader is exact.
 */
function expectInert(html: string) {
  const tag = /<\/?([a-z][a-z0-9]*)((?:\s+[a-z-]+(?:="[^"]*")?)*)\s*\/?>/g;
  for (const match of html.matchAll(tag)) {
    const name = match[1]!;
    expect(ALLOWED_TAGS.has(name), `tag <${name}>`).toBe(true);
    for (const attr of match[2]!.matchAll(/([a-z-]+)(?:="([^"]*)")?/g)) {
      const attrName = attr[1]!;
      const value = attr[2] ?? '';
      expect(ALLOWED_ATTRIBUTES[name] ?? [], `attribute ${attrName} on <${name}>`).toContain(
        attrName,
      );
      if (attrName === 'href') expect(value).toMatch(/^(https?:\/\/|mailto:|\/(?!\/)|#)/);
      if (attrName === 'src') expect(value).toMatch(/^(https?:\/\/|\/(?!\/)|[\w.-]+$)/);
      if (attrName === 'class') expect(value).toMatch(/^language-[\w-]+$/);
    }
  }
  expect(html.replace(tag, ''), 'a raw < outside any allowed tag').not.toContain('<');
  expect(html).not.toMatch(/javascript|vbscript|data:/i);
}

describe('XSS payloads in a post body render inert', () => {
  it('in the stored HTML, the preview, the post page call and the RSS feed', async () => {
    const created = await createPost({
      title: 'XSS <b>check</b> & "quotes"',
      markdown: `Intro paragraph.\n\n${XSS_PAYLOADS}\n\n\`\`\`html\n<script>alert("in code")</script>\n\`\`\``,
      summary: '<script>alert(1)</script> summary',
    });
    const res = await get(`/blog/getblogpost?url=${created.url}`);
    expect(res.statusCode).toBe(200);
    const { data } = res.json() as BlogPostAnswer;
    expectInert(data.body);
    // Code blocks keep their text, escaped: a teacher can show HTML in a post.
    expect(data.body).toContain('&lt;script&gt;alert("in code")&lt;/script&gt;');
    // Harmless parts of the payloads survive as text or safe markup.
    expect(data.body).toContain('<a href="https://example.org" rel="noopener noreferrer">x</a>');
    expect(data.body).toContain(
      '<img src="https://ok.example/a.png" alt="" loading="lazy" decoding="async" />',
    );
    const styled = renderMarkdown(
      '<p style="color: red; background: url(javascript:alert(1))" class="x" id="main">styled</p>',
      'http://localhost:3000',
    );
    expect(styled.html).toBe('<p>styled</p>');
    // Title and summary are text (React and the feed escape them), never HTML.
    expect(data.title).toBe('XSS <b>check</b> & "quotes"');

    const preview = await api('POST', '/blog/admin/preview', { markdown: XSS_PAYLOADS }, admin);
    expect(preview.statusCode).toBe(200);
    expectInert(preview.json().html);

    const rss = await t.app.inject({ url: '/blog/rss.xml' });
    expect(XMLValidator.validate(rss.body)).toBe(true);
    const feed = new XMLParser({ ignoreAttributes: false }).parse(rss.body);
    const items = [feed.rss.channel.item].flat() as Array<Record<string, unknown>>;
    const item = items.find((i) => i.title === 'XSS <b>check</b> & "quotes"');
    expect(item).toBeDefined();
    expectInert(String(item!['content:encoded']));
  });
});

describe('authoring: admins only', () => {
  it('answers 401 without a session and 403 for teachers on every admin call, before validating', async () => {
    const created = await createPost();
    const id = created._id;
    const calls: Array<['GET' | 'POST' | 'PUT' | 'DELETE', string, unknown?]> = [
      ['GET', '/blog/admin/posts'],
      ['GET', `/blog/admin/posts/${id}`],
      ['POST', '/blog/admin/posts', postInput()],
      ['POST', '/blog/admin/posts', { title: '' }],
      ['PUT', `/blog/admin/posts/${id}`, postInput()],
      ['POST', `/blog/admin/posts/${id}/publish`, {}],
      ['POST', `/blog/admin/posts/${id}/unpublish`, {}],
      ['DELETE', `/blog/admin/posts/${id}`],
      ['POST', '/blog/admin/preview', { markdown: 'x' }],
    ];
    for (const [method, url, body] of calls) {
      const anonymous = await api(method, url, body);
      expect(anonymous.statusCode, `${method} ${url}`).toBe(401);
      expect(anonymous.json().errors.code).toBe('UNAUTHORIZED');
      const forbidden = await api(method, url, body, teacher);
      expect(forbidden.statusCode, `${method} ${url}`).toBe(403);
      expect(forbidden.json()).toEqual({
        errors: { message: 'Only administrators can do this.', code: 'FORBIDDEN' },
      });
    }
    // Nothing changed.
    expect((await get(`/blog/getblogpost?url=${created.url}`)).statusCode).toBe(200);
  });

  it('creates a draft with the url made from the title by the slug rule', async () => {
    const res = await api(
      'POST',
      '/blog/admin/posts',
      {
        title: '  Frankenstein: Teaching the Gothic!  ',
        markdown: 'Draft body.',
        categories: ['Book Guides', 'Book Guides'],
        tags: ['Gothic', 'gothic', ' Mary  Shelley ', '!!!', 'Romanticism'],
        // read-only or unknown fields are ignored
        _id: '00000000-0000-0000-0000-000000000000',
        createdAt: '2000-01-01T00:00:00.000Z',
        renderVersion: 99,
      },
      admin,
    );
    expect(res.statusCode, res.body).toBe(201);
    const { data } = res.json() as BlogAdminPostAnswer;
    expect(data).toMatchObject({
      url: 'frankenstein-teaching-the-gothic',
      title: 'Frankenstein: Teaching the Gothic!',
      status: 'draft',
      state: 'draft',
      publishDate: '',
      categories: ['Book Guides'],
      tags: ['Gothic', 'Mary Shelley', 'Romanticism'],
      markdown: 'Draft body.',
      featured: false,
    });
    expect(data._id).not.toBe('00000000-0000-0000-0000-000000000000');
    // A draft is nowhere for readers.
    expect((await get(`/blog/getblogpost?url=${data.url}`)).statusCode).toBe(404);
    expect(urlsOf(await list('limit=100'))).not.toContain(data.url);
  });

  it('validates every field and names it', async () => {
    const cases: Array<[Partial<BlogPostInput> | Record<string, unknown>, RegExp]> = [
      [{ title: '' }, /title/],
      [{ title: 'x'.repeat(161) }, /title/],
      [{ categories: ['Cooking'] }, /categories/],
      [{ tags: Array.from({ length: 13 }, (_, i) => `t${i}`) }, /tags/],
      [{ tags: ['x'.repeat(41)] }, /tags/],
      [{ publishDate: 'next tuesday' }, /publishDate/],
      [{ publishDate: '2026-01-01T10:00:00' }, /publishDate/],
      [{ status: 'live' }, /status/],
      [{ markdown: 'x'.repeat(100_001) }, /markdown/],
      [{ thumbnailImage: 'javascript:alert(1)' }, /thumbnailImage/],
      [{ thumbnailImage: 'http://insecure.example/a.png' }, /thumbnailImage/],
      [{ authorProfilePicture: '//evil.example/a.png' }, /authorProfilePicture/],
      [{ markdown: '   ' }, /markdown.*needs a body/],
      [{ categories: [] }, /categories.*at least one category/],
      [{ authorFirstName: '', authorLastName: '' }, /author name/],
      [{ featured: 'yes' }, /featured/],
      [{ title: 'Nul\u0000byte' }, /title.*control characters/],
      [{ markdown: 'Nul\u0000byte' }, /markdown.*control characters/],
      [{ tags: ['a\u0000b'] }, /tags/],
    ];
    for (const [overrides, message] of cases) {
      const res = await api('POST', '/blog/admin/posts', { ...postInput(), ...overrides }, admin);
      expect(res.statusCode, JSON.stringify(overrides).slice(0, 80)).toBe(400);
      expect(res.json().errors.code).toBe('BAD_REQUEST');
      expect(res.json().errors.message).toMatch(message);
    }
    const punctuation = await api('POST', '/blog/admin/posts', postInput({ title: '!!!' }), admin);
    expect(punctuation.statusCode).toBe(400);
    expect(punctuation.json().errors.message).toMatch(/url/);
    const notJson = await t.app.inject({
      method: 'POST',
      url: '/api/v1/blog/admin/posts',
      headers: { ...admin, 'content-type': 'application/json' },
      payload: '{"title": ',
    });
    expect(notJson.statusCode).toBe(400);
  });

  it('refuses a url another post has (409), and slugifies a url typed by hand', async () => {
    const first = await createPost({ url: 'Exit Tickets: 5 Ideas!' });
    expect(first.url).toBe('exit-tickets-5-ideas');
    const again = await api('POST', '/blog/admin/posts', postInput({ url: first.url }), admin);
    expect(again.statusCode).toBe(409);
    expect(again.json().errors).toEqual({
      code: 'CONFLICT',
      message:
        'Another post already uses the address /blog/exit-tickets-5-ideas. Please choose another one.',
    });
    // Saving a post under its own url is fine.
    const same = await api(
      'PUT',
      `/blog/admin/posts/${first._id}`,
      postInput({ url: first.url, title: 'Exit tickets, revised' }),
      admin,
    );
    expect(same.statusCode, same.body).toBe(200);
    expect(same.json().data).toMatchObject({ url: first.url, title: 'Exit tickets, revised' });
  });

  it('answers 404 for an unknown id and 400 for a malformed one', async () => {
    const unknown = '3f1c2b8e-9d4a-4c6b-8e2f-1a2b3c4d5e6f';
    expect((await api('GET', `/blog/admin/posts/${unknown}`, undefined, admin)).statusCode).toBe(
      404,
    );
    expect((await api('PUT', `/blog/admin/posts/${unknown}`, postInput(), admin)).statusCode).toBe(
      404,
    );
    expect((await api('DELETE', `/blog/admin/posts/${unknown}`, undefined, admin)).statusCode).toBe(
      404,
    );
    expect((await api('POST', `/blog/admin/posts/${unknown}/publish`, {}, admin)).statusCode).toBe(
      404,
    );
    const bad = await api('GET', "/blog/admin/posts/1' OR '1'='1", undefined, admin);
    expect(bad.statusCode).toBe(400);
  });

  it('publishes, schedules and unpublishes; readers see a post only while it is live', async () => {
    const draft = await createPost({ status: 'draft', title: 'Scheduled post about Dracula' });
    const url = draft.url;
    const visible = async () => (await get(`/blog/getblogpost?url=${url}`)).statusCode === 200;
    expect(await visible()).toBe(false);

    // Scheduled an hour ahead: still invisible everywhere.
    const inAnHour = new Date(Date.now() + 3600_000).toISOString();
    const scheduled = await api(
      'POST',
      `/blog/admin/posts/${draft._id}/publish`,
      { publishDate: inAnHour },
      admin,
    );
    expect(scheduled.statusCode, scheduled.body).toBe(200);
    expect(scheduled.json().data).toMatchObject({ status: 'published', state: 'scheduled' });
    expect(await visible()).toBe(false);
    expect(urlsOf(await list('limit=100'))).not.toContain(url);
    expect(urlsOf(await list('searchTerm=dracula'))).not.toContain(url);
    expect((await t.app.inject({ url: '/blog/rss.xml' })).body).not.toContain(url);
    expect((await t.app.inject({ url: '/sitemaps/blog-1.xml' })).body).not.toContain(url);
    const states = (
      (
        await api('GET', '/blog/admin/posts?status=scheduled', undefined, admin)
      ).json() as BlogAdminPostsAnswer
    ).data.map((p) => p.url);
    expect(states).toContain(url);

    // Two hours later it is live, with nothing to run: visibility is decided at read time.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 2 * 3600_000 });
    expect(await visible()).toBe(true);
    expect(urlsOf(await list('limit=100'))).toContain(url);
    expect((await t.app.inject({ url: '/blog/rss.xml' })).body).toContain(url);
    expect((await t.app.inject({ url: '/sitemaps/blog-1.xml' })).body).toContain(
      `http://localhost:3000/blog/${url}`,
    );
    vi.useRealTimers();

    // Publish now (keeps no future date), then unpublish.
    const now = await api(
      'POST',
      `/blog/admin/posts/${draft._id}/publish`,
      { publishDate: new Date(Date.now() - 1000).toISOString() },
      admin,
    );
    expect(now.json().data.state).toBe('published');
    expect(await visible()).toBe(true);
    const off = await api('POST', `/blog/admin/posts/${draft._id}/unpublish`, {}, admin);
    expect(off.statusCode).toBe(200);
    expect(off.json().data).toMatchObject({ status: 'draft', state: 'draft' });
    expect(await visible()).toBe(false);
    expect((await t.app.inject({ url: '/blog/rss.xml' })).body).not.toContain(url);
  });

  it('will not publish a post without a body or a category', async () => {
    const empty = await createPost({ status: 'draft', markdown: '', categories: [] });
    const res = await api('POST', `/blog/admin/posts/${empty._id}/publish`, {}, admin);
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.message).toBe(
      'The post needs a body and a category before it can be published.',
    );
  });

  it('lists every post for admins with its state and the count of each state', async () => {
    await createPost({ status: 'draft', title: 'Admin list draft' });
    const res = await api('GET', '/blog/admin/posts?status=all&limit=100', undefined, admin);
    expect(res.statusCode).toBe(200);
    const answer = res.json() as BlogAdminPostsAnswer;
    expect(answer.count).toBe(answer.data.length);
    expect(answer.states.draft).toBeGreaterThan(0);
    expect(answer.states.published).toBeGreaterThan(0);
    expect(answer.data.find((p) => p.title === 'Admin list draft')?.state).toBe('draft');
    const drafts = (
      (
        await api('GET', '/blog/admin/posts?status=draft', undefined, admin)
      ).json() as BlogAdminPostsAnswer
    ).data;
    expect(drafts.every((p) => p.state === 'draft')).toBe(true);
    const searched = (
      (
        await api('GET', '/blog/admin/posts?searchTerm=admin%20list', undefined, admin)
      ).json() as BlogAdminPostsAnswer
    ).data;
    expect(searched.map((p) => p.title)).toEqual(['Admin list draft']);
    expect(
      (await api('GET', '/blog/admin/posts?status=deleted', undefined, admin)).statusCode,
    ).toBe(400);
  });
});

describe('pictures', () => {
  it('re-encodes an uploaded thumbnail to 1200×630 and 480×252 webp, replaces and deletes it', async () => {
    const created = await createPost({ thumbnailImage: dataUrl(await png()) });
    expect(created.thumbnailImage).toMatch(/^\/uploads\/blog\/[0-9a-f-]{36}\.webp$/);
    expect(created.thumbnailImageSmall).toMatch(/^\/uploads\/blog\/[0-9a-f-]{36}-sm\.webp$/);
    const large = await t.app.inject({ url: created.thumbnailImage });
    expect(large.statusCode).toBe(200);
    expect(large.headers['content-type']).toBe('image/webp');
    expect(await sharp(large.rawPayload).metadata()).toMatchObject({
      format: 'webp',
      width: 1200,
      height: 630,
    });
    const small = await t.app.inject({ url: created.thumbnailImageSmall });
    expect(await sharp(small.rawPayload).metadata()).toMatchObject({ width: 480, height: 252 });

    // Saving again with the same address keeps the pictures.
    const kept = await api(
      'PUT',
      `/blog/admin/posts/${created._id}`,
      postInput({ url: created.url, thumbnailImage: created.thumbnailImage }),
      admin,
    );
    expect(kept.json().data.thumbnailImageSmall).toBe(created.thumbnailImageSmall);
    expect((await t.app.inject({ url: created.thumbnailImage })).statusCode).toBe(200);

    // A new upload replaces them: the old files are deleted.
    const replaced = await api(
      'PUT',
      `/blog/admin/posts/${created._id}`,
      postInput({
        url: created.url,
        thumbnailImage: dataUrl(
          await sharp(await png(800, 800, '#7b2d26'))
            .jpeg()
            .toBuffer(),
        ),
      }),
      admin,
    );
    expect(replaced.statusCode, replaced.body).toBe(200);
    const next = replaced.json().data as BlogAdminPostAnswer['data'];
    expect(next.thumbnailImage).not.toBe(created.thumbnailImage);
    expect((await t.app.inject({ url: created.thumbnailImage })).statusCode).toBe(404);
    expect((await t.app.inject({ url: created.thumbnailImageSmall })).statusCode).toBe(404);

    // Deleting the post deletes its pictures.
    const deleted = await api('DELETE', `/blog/admin/posts/${created._id}`, undefined, admin);
    expect(deleted.json()).toEqual({ wasSuccessful: true, message: 'The post has been deleted.' });
    expect((await t.app.inject({ url: next.thumbnailImage })).statusCode).toBe(404);
    expect((await get(`/blog/getblogpost?url=${created.url}`)).statusCode).toBe(404);
  });

  it("keeps the admin's avatar used as the author picture, and stores an uploaded one", async () => {
    const withAvatar = await createPost({ authorProfilePicture: adminUser.avatar });
    expect(withAvatar.authorProfilePicture).toBe('/uploads/avatars/grace.webp');
    const uploaded = await createPost({ authorProfilePicture: dataUrl(await png(500, 700)) });
    expect(uploaded.authorProfilePicture).toMatch(
      /^\/uploads\/blog\/authors\/[0-9a-f-]{36}\.webp$/,
    );
    const picture = await t.app.inject({ url: uploaded.authorProfilePicture });
    expect(await sharp(picture.rawPayload).metadata()).toMatchObject({ width: 256, height: 256 });
  });

  it('refuses what is not a picture (415), a damaged file (400) and more than 5 MB (413)', async () => {
    const text = await api(
      'POST',
      '/blog/admin/posts',
      postInput({ thumbnailImage: dataUrl(Buffer.from('<svg onload=alert(1)>'), 'image/png') }),
      admin,
    );
    expect(text.statusCode).toBe(415);
    expect(text.json().errors.message).toBe('The thumbnail must be a JPEG, PNG or WebP picture.');
    const svg = await api(
      'POST',
      '/blog/admin/posts',
      postInput({
        thumbnailImage: dataUrl(
          await sharp({ create: { width: 20, height: 20, channels: 3, background: '#000' } })
            .gif()
            .toBuffer(),
          'image/gif',
        ),
      }),
      admin,
    );
    expect(svg.statusCode).toBe(415);
    const damaged = await api(
      'POST',
      '/blog/admin/posts',
      postInput({ thumbnailImage: 'data:image/png;base64,@@@not-base64@@@' }),
      admin,
    );
    expect(damaged.statusCode).toBe(400);
    const huge = await api(
      'POST',
      '/blog/admin/posts',
      postInput({ thumbnailImage: `data:image/png;base64,${'A'.repeat(7_100_000)}` }),
      admin,
    );
    expect([400, 413]).toContain(huge.statusCode);
    // Nothing was written for the refused posts.
    const posts = (
      (
        await api('GET', '/blog/admin/posts?limit=100', undefined, admin)
      ).json() as BlogAdminPostsAnswer
    ).data;
    expect(posts.filter((p) => p.thumbnailImage === 'data:')).toEqual([]);
  });
});

describe('GET /blog/getblogposts', () => {
  let posts: Record<string, Awaited<ReturnType<typeof createPost>>>;
  beforeAll(async () => {
    posts = {
      gothic: await createPost({
        title: 'Teaching Frankenstein as a Gothic novel',
        markdown: 'Victor Frankenstein builds a creature. Storms, graves and **dread**.',
        categories: ['Book Guides'],
        tags: ['Gothic', 'Frankenstein'],
        publishDate: '2026-01-10T09:00:00.000Z',
      }),
      dracula: await createPost({
        title: 'Dracula in the classroom',
        markdown: 'Letters and diaries tell the story. A Gothic novel told in documents.',
        categories: ['Book Guides', 'Reading & Literacy'],
        tags: ['Gothic', 'Epistolary'],
        publishDate: '2026-02-10T09:00:00.000Z',
        featured: true,
      }),
      quiz: await createPost({
        title: 'Build a quiz from one chapter',
        markdown: 'Pick a chapter, choose a grade, check the evidence quotes in the answer key.',
        categories: ['Product Guides', 'Assessment'],
        tags: ['Quizzes'],
        publishDate: '2026-03-10T09:00:00.000Z',
      }),
      accents: await createPost({
        title: 'Brontë sisters and close reading',
        markdown: 'Jane Eyre and Wuthering Heights.',
        categories: ['Reading & Literacy'],
        tags: ['Brontë'],
        publishDate: '2026-03-20T09:00:00.000Z',
      }),
      draft: await createPost({
        title: 'Gothic draft nobody may see',
        markdown: 'Gothic Frankenstein quiz secret.',
        categories: ['Book Guides'],
        tags: ['Gothic'],
        status: 'draft',
      }),
    };
  });

  it('lists visible posts newest first with count, in the spec wire names', async () => {
    const answer = await list('sort=newest&limit=100');
    expect(answer.count).toBe(answer.data.length);
    const dates = answer.data.map((p) => p.publishDate);
    expect([...dates].sort().reverse()).toEqual(dates);
    expect(urlsOf(answer)).not.toContain(posts.draft!.url);
    const post = answer.data.find((p) => p.url === posts.dracula!.url)!;
    expect(Object.keys(post).sort()).toEqual(
      [
        '_id',
        'url',
        'title',
        'excerpt',
        'publishDate',
        'updatedAt',
        'thumbnailImage',
        'thumbnailImageSmall',
        'categories',
        'tags',
        'authorFirstName',
        'authorLastName',
        'authorBio',
        'authorProfilePicture',
        'readingMinutes',
      ].sort(),
    );
    expect(post).toMatchObject({
      title: 'Dracula in the classroom',
      publishDate: '2026-02-10T09:00:00.000Z',
      categories: ['Book Guides', 'Reading & Literacy'],
      tags: ['Gothic', 'Epistolary'],
      authorFirstName: 'Grace',
      authorLastName: 'Hopper',
      authorBio: 'Teaches English.',
      excerpt: 'Letters and diaries tell the story. A Gothic novel told in documents.',
    });
    expect(JSON.stringify(answer)).not.toMatch(/bodyMarkdown|body_html|searchBody|status/);
  });

  it('sorts oldest, by title, recommended first; publishDate and createdAt mean newest', async () => {
    const oldest = await list('sort=oldest&limit=100');
    const oldestDates = oldest.data.map((p) => p.publishDate);
    expect([...oldestDates].sort()).toEqual(oldestDates);
    const byTitle = (await list('sort=title&limit=100')).data.map((p) => p.title.toLowerCase());
    expect([...byTitle].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))).toEqual(byTitle);
    const recommended = await list('sort=recommended&limit=3');
    expect(recommended.data[0]!.url).toBe(posts.dracula!.url);
    expect(urlsOf(await list('sort=publishDate&limit=100'))).toEqual(
      urlsOf(await list('sort=newest&limit=100')),
    );
    expect(urlsOf(await list('sort=createdAt&limit=100'))).toEqual(urlsOf(await list('limit=100')));
  });

  it('filters by category and tag slug (any spelling of the name works)', async () => {
    const bookGuides = await list('category=book-guides&limit=100');
    expect(urlsOf(bookGuides)).toEqual(
      expect.arrayContaining([posts.gothic!.url, posts.dracula!.url]),
    );
    expect(urlsOf(bookGuides)).not.toContain(posts.quiz!.url);
    expect(urlsOf(bookGuides)).not.toContain(posts.draft!.url);
    expect(bookGuides.data.every((p) => p.categories.includes('Book Guides'))).toBe(true);
    expect(urlsOf(await list('category=Book%20Guides&limit=100'))).toEqual(urlsOf(bookGuides));
    expect(urlsOf(await list('category=reading-literacy&limit=100'))).toEqual(
      expect.arrayContaining([posts.dracula!.url, posts.accents!.url]),
    );

    const gothic = await list('tag=gothic');
    expect(urlsOf(gothic).sort()).toEqual([posts.dracula!.url, posts.gothic!.url].sort());
    expect(gothic.count).toBe(2);
    expect(urlsOf(await list('tag=Gothic'))).toEqual(urlsOf(gothic));
    expect(urlsOf(await list('tag=bronte'))).toEqual([posts.accents!.url]);
    // Both at once.
    expect(urlsOf(await list('category=reading-literacy&tag=gothic'))).toEqual([
      posts.dracula!.url,
    ]);
    // Unknown ones find nothing (and are not an error).
    expect(await list('category=cooking')).toEqual({ data: [], count: 0 });
    expect(await list('tag=no-such-tag')).toEqual({ data: [], count: 0 });
    // A value that is only punctuation means no filter.
    expect((await list('tag=---&limit=100')).count).toBe((await list('limit=100')).count);
  });

  it('searches titles and bodies by word prefixes, ranked, with typo tolerance on titles', async () => {
    expect(urlsOf(await list('searchTerm=frankenstein'))).toEqual([posts.gothic!.url]);
    // Body text; prefixes ("evid" finds "evidence"); several words must all match.
    expect(urlsOf(await list('searchTerm=evid'))).toEqual([posts.quiz!.url]);
    expect(urlsOf(await list('searchTerm=diaries%20letters'))).toEqual([posts.dracula!.url]);
    // Title matches rank above body matches.
    const gothic = await list('searchTerm=gothic');
    expect(urlsOf(gothic)).toEqual([posts.gothic!.url, posts.dracula!.url]);
    // Accents are folded both ways.
    expect(urlsOf(await list('searchTerm=bronte'))).toEqual([posts.accents!.url]);
    expect(urlsOf(await list('searchTerm=Bront%C3%AB'))).toEqual([posts.accents!.url]);
    // A misspelt title.
    expect(urlsOf(await list('searchTerm=frankenstien'))).toEqual([posts.gothic!.url]);
    // Search within a category, and with a sort.
    expect(urlsOf(await list('searchTerm=gothic&category=reading-literacy'))).toEqual([
      posts.dracula!.url,
    ]);
    expect(urlsOf(await list('searchTerm=gothic&sort=newest'))).toEqual([
      posts.dracula!.url,
      posts.gothic!.url,
    ]);
    // Drafts never match.
    expect(urlsOf(await list('searchTerm=secret'))).toEqual([]);
    expect(await list('searchTerm=zzzzqqqq')).toEqual({ data: [], count: 0 });
  });

  it('pages with limit and page, and count is the total', async () => {
    const all = await list('limit=100');
    const pageOne = await list('limit=2&page=1');
    const pageTwo = await list('limit=2&page=2');
    expect(pageOne.count).toBe(all.count);
    expect(pageOne.data).toHaveLength(2);
    expect([...urlsOf(pageOne), ...urlsOf(pageTwo)]).toEqual(urlsOf(all).slice(0, 4));
    const beyond = await list('limit=2&page=500');
    expect(beyond).toEqual({ data: [], count: all.count });
    expect((await list('')).data.length).toBeLessThanOrEqual(24);
  });

  it('treats hostile input as text or answers 400, never 500', async () => {
    const hostile = [
      "searchTerm=' OR 1=1; DROP TABLE blog_posts; --",
      'searchTerm=%27%3B%20DELETE%20FROM%20blog_posts%3B--',
      'searchTerm=a:* | b & !c <-> (d)',
      'searchTerm=%25%25%25_',
      'searchTerm=\\\\x00',
      'searchTerm=%00%00drop',
      'tag=%00',
      'category=%C0%AE%C0%AE',
      'searchTerm=%E2%80%AE%E2%80%8B',
      'searchTerm=\\',
      'searchTerm=:*',
      'searchTerm=%26%7C!',
      `searchTerm=${'a'.repeat(200)}`,
      'searchTerm=%F0%9F%93%9A%F0%9F%A7%9B',
      'searchTerm=the',
      'searchTerm=%20%20%20',
      `searchTerm=${'gothic '.repeat(28)}`,
      "category=' OR ''='",
      'tag=%3Cscript%3E',
      'category[$ne]=x',
      'sort=newest&sort=oldest&limit=1',
    ];
    for (const query of hostile) {
      const res = await get(`/blog/getblogposts?${query}`);
      expect([200, 400], query).toContain(res.statusCode);
      if (res.statusCode === 200) {
        const body = res.json() as BlogPostsAnswer;
        expect(body.data.every((p) => p.url !== posts.draft!.url)).toBe(true);
      } else {
        expect(res.json().errors.code).toBe('BAD_REQUEST');
      }
    }
    // The table is still there.
    expect((await list('limit=100')).count).toBeGreaterThan(3);

    const bad: Array<[string, RegExp]> = [
      ['sort=popular', /sort/],
      ['sort=', /sort/],
      ['limit=0', /limit/],
      ['limit=101', /limit/],
      ['limit=1e9', /limit/],
      ['limit=abc', /limit/],
      ['limit=-5', /limit/],
      ['page=0', /page/],
      ['page=10001', /page/],
      ['page=1.5', /page/],
      [`searchTerm=${'x'.repeat(201)}`, /searchTerm/],
      [`tag=${'x'.repeat(121)}`, /tag/],
    ];
    for (const [query, field] of bad) {
      const res = await get(`/blog/getblogposts?${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().errors.message, query).toMatch(field);
    }
  });
});

describe('GET /blog/getblogpost', () => {
  it('answers the post with its sanitised body and related posts by shared tags, then categories', async () => {
    const main = await createPost({
      title: 'Jekyll and Hyde: doubles',
      markdown:
        '## Doubles\n\nThe *dual* self. [Read it](/book/the-strange-case-of-dr-jekyll-and-mr-hyde).',
      categories: ['Book Guides'],
      tags: ['Doubles', 'Victorian'],
      publishDate: '2026-04-01T09:00:00.000Z',
    });
    const sharesTwoTags = await createPost({
      categories: ['Assessment'],
      tags: ['Doubles', 'Victorian'],
      publishDate: '2026-03-01T09:00:00.000Z',
    });
    const sharesOneTag = await createPost({
      categories: ['Assessment'],
      tags: ['Victorian'],
      publishDate: '2026-03-05T09:00:00.000Z',
    });
    const sharesTagAndCategory = await createPost({
      categories: ['Book Guides'],
      tags: ['Doubles'],
      publishDate: '2026-02-01T09:00:00.000Z',
    });
    await createPost({
      categories: ['Assessment'],
      tags: ['Doubles', 'Victorian'],
      status: 'draft',
    });
    await createPost({
      categories: ['Book Guides'],
      tags: ['Doubles', 'Victorian'],
      publishDate: new Date(Date.now() + 86_400_000).toISOString(),
    });

    const res = await get(`/blog/getblogpost?url=${main.url}`);
    expect(res.statusCode).toBe(200);
    const { data } = res.json() as BlogPostAnswer;
    expect(data).toMatchObject({
      url: main.url,
      title: 'Jekyll and Hyde: doubles',
      body: '<h2>Doubles</h2>\n<p>The <em>dual</em> self. <a href="/book/the-strange-case-of-dr-jekyll-and-mr-hyde">Read it</a>.</p>',
      tags: ['Doubles', 'Victorian'],
    });
    // Score: 2 per shared tag, 1 per shared category; ties newest first. Never drafts or future posts.
    expect(data.related.map((p) => p.url)).toEqual([
      sharesTwoTags.url,
      sharesTagAndCategory.url,
      sharesOneTag.url,
    ]);
    expect(data.related.every((p) => !('body' in p))).toBe(true);
  });

  it('answers 404 for unknown urls and 400 for missing or oversized ones', async () => {
    const unknown = await get('/blog/getblogpost?url=no-such-post');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({
      errors: { message: 'We could not find that blog post.', code: 'NOT_FOUND' },
    });
    expect((await get("/blog/getblogpost?url=' OR 1=1 --")).statusCode).toBe(404);
    expect((await get('/blog/getblogpost?url=%00%00')).statusCode).toBe(400);
    expect((await get('/blog/getblogpost')).statusCode).toBe(400);
    expect((await get('/blog/getblogpost?url=')).statusCode).toBe(400);
    expect((await get(`/blog/getblogpost?url=${'a'.repeat(241)}`)).statusCode).toBe(400);
  });
});

describe('GET /blog/getblogtaxonomy', () => {
  it('counts visible posts per category (all six, in menu order), tags and authors', async () => {
    const hidden = await createPost({
      status: 'draft',
      categories: ['Classroom Activities'],
      tags: ['Invisible Tag'],
      authorFirstName: 'Hidden',
      authorLastName: 'Author',
    });
    const res = await get('/blog/getblogtaxonomy');
    expect(res.statusCode).toBe(200);
    const { data } = res.json() as BlogTaxonomyAnswer;
    expect(data.categories.map((c) => c.slug)).toEqual([
      'teaching-tips',
      'book-guides',
      'assessment',
      'classroom-activities',
      'product-guides',
      'reading-literacy',
    ]);
    const visible = (await list('limit=100&category=book-guides')).count;
    expect(data.categories.find((c) => c.slug === 'book-guides')?.count).toBe(visible);
    expect(data.categories.find((c) => c.slug === 'classroom-activities')?.count).toBe(0);
    expect(data.tags.find((tag) => tag.slug === 'gothic')).toEqual({
      name: 'Gothic',
      slug: 'gothic',
      count: 2,
    });
    expect(data.tags.map((tag) => tag.slug)).not.toContain('invisible-tag');
    const counts = data.tags.map((tag) => tag.count);
    expect([...counts].sort((a, b) => b - a)).toEqual(counts);
    expect(data.authors[0]).toMatchObject({ firstName: 'Grace', lastName: 'Hopper' });
    expect(data.authors.map((a) => a.firstName)).not.toContain('Hidden');
    await api('DELETE', `/blog/admin/posts/${hidden._id}`, undefined, admin);
  });
});

describe('RSS and sitemap', () => {
  it('serves valid RSS 2.0 with absolute links, escaped text and only visible posts', async () => {
    await createPost({
      title: 'Feeds & <angles> "quoted"',
      markdown: 'Body with [a link](/books) and ![img](/uploads/blog/x.webp).',
      tags: ['R&D'],
      status: 'draft',
    });
    const visible = await createPost({
      title: 'Feed item & <friends>',
      markdown: 'Body with [a link](/books) and ![img](/uploads/blog/x.webp).',
      tags: ['R&D'],
    });
    const res = await t.app.inject({ url: '/blog/rss.xml' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/rss+xml; charset=utf-8');
    expect(XMLValidator.validate(res.body)).toBe(true);
    const feed = new XMLParser({ ignoreAttributes: false }).parse(res.body);
    expect(feed.rss['@_version']).toBe('2.0');
    const channel = feed.rss.channel;
    expect(channel.link).toBe('http://localhost:3000/blog');
    const items = [channel.item].flat() as Array<Record<string, unknown>>;
    expect(items.length).toBeLessThanOrEqual(20);
    expect(items.map((i) => i.title)).not.toContain('Feeds & <angles> "quoted"');
    const item = items.find((i) => i.title === 'Feed item & <friends>')!;
    expect(item.link).toBe(`http://localhost:3000/blog/${visible.url}`);
    expect(String(item.pubDate)).toMatch(/^\w{3}, \d{2} \w{3} \d{4} \d{2}:\d{2}:\d{2} GMT$/);
    expect(item['content:encoded']).toContain('<a href="http://localhost:3000/books">a link</a>');
    expect(item['content:encoded']).toContain('src="http://localhost:3000/uploads/blog/x.webp"');
    expect(res.body).toContain('<category domain="tag">R&amp;D</category>');
  });

  it('puts the blog, categories with posts and every visible post in the sitemap', async () => {
    const index = await t.app.inject({ url: '/sitemap.xml' });
    expect(index.body).toContain('<loc>http://localhost:3000/sitemaps/blog-1.xml</loc>');
    const res = await t.app.inject({ url: '/sitemaps/blog-1.xml' });
    expect(res.statusCode).toBe(200);
    expect(XMLValidator.validate(res.body)).toBe(true);
    expect(res.body).toContain('<loc>http://localhost:3000/blog</loc>');
    expect(res.body).toContain('<loc>http://localhost:3000/blog/category/book-guides</loc>');
    expect(res.body).not.toContain('/blog/category/classroom-activities');
    const visible = await list('limit=100');
    for (const post of visible.data) {
      expect(res.body).toContain(`<loc>http://localhost:3000/blog/${post.url}</loc>`);
    }
    const admin = (
      await api('GET', '/blog/admin/posts?status=draft&limit=100', undefined, adminHeaders())
    ).json() as BlogAdminPostsAnswer;
    for (const draft of admin.data) {
      expect(res.body).not.toContain(`/blog/${draft.url}<`);
    }
  });
});

function adminHeaders() {
  return admin;
}

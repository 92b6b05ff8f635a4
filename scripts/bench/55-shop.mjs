// Print shop, offline adapter (the default): the mockups of one artwork (4 products × 30 views)
// and the gallery and shop APIs with 10,000 ready generations (40,000 products) in PGlite.
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const dist = (file) =>
  pathToFileURL(path.join(import.meta.dirname, '../../apps/server/dist', file)).href;

export default async function shop(kit) {
  // 1. Mockups: the local adapter composes 30 views of each of the 4 products.
  const { renderIllustration } = await import(dist('providers/images/local-render.js'));
  const { LocalPrintProvider } = await import(dist('providers/print/local.js'));
  const { SHOP_CATALOG } = await import(
    pathToFileURL(path.join(kit.root, 'packages/shared/dist/index.js')).href
  );
  const print = new LocalPrintProvider({ stepMs: 1000 });
  const artwork = async (seed) =>
    renderIllustration({
      prompt: `A friendly owl reading a book under the stars ${seed}`,
      width: 1024,
      height: 1024,
      seed,
    });
  const makeAll = async (art) => {
    const started = performance.now();
    let views = 0;
    for (const item of SHOP_CATALOG) {
      const product = await print.createProduct({
        artworkId: 'bench',
        artwork: art,
        item,
        title: item.title,
        description: '',
      });
      views += product.images.length;
    }
    return { ms: performance.now() - started, views };
  };
  const first = await makeAll(await artwork(1));
  kit.figure(
    `local mockups, first artwork of a process (${first.views} views, templates drawn)`,
    first.ms / 1000,
    's',
  );
  const runs = [];
  for (let i = 2; i <= 4; i++) runs.push((await makeAll(await artwork(i))).ms);
  runs.sort((a, b) => a - b);
  kit.figure('local mockups, 4 products × 30 views (median of 3)', runs[1] / 1000, 's', '< 3 s');

  // 2. The gallery with 10,000 generations: the server makes the database, we fill it, it serves.
  const dataDir = kit.tmpDir();
  const env = { SEED_ON_START: 'false', JOBS_ENABLED: 'false' };
  const empty = await kit.startServer({ dataDir, env });
  await empty.stop();
  const { openDatabase } = await import(dist('db/client.js'));
  const database = await openDatabase({ pgliteDir: path.join(dataDir, 'pglite') });
  const filled = performance.now();
  const sql = database.executeSql;
  const [user] = (
    await sql(
      `insert into users (username, email, password_hash, first_name, last_name)
       values ('bench_artist', 'bench_artist@example.org', 'x', 'Bench', 'Artist') returning id`,
    )
  ).rows;
  await sql(
    `insert into generations (user_id, url, prompt, status, provider, artwork_key, views, download_count, created_at)
     select $1, 'artwork-' || i,
            (array['owl','fox','lighthouse','sunflower','whale','castle','robot','forest','rocket','volcano'])[1 + i % 10]
              || ' in a ' || (array['watercolour','poster','storybook','night sky','classroom'])[1 + (i / 10) % 5]
              || ' scene number ' || i,
            'ready', 'local', 'shop/bench/' || i || '.png', (i * 7919) % 1000, (i * 31) % 50,
            now() - i * interval '1 minute'
     from generate_series(1, 10000) i`,
    [user.id],
  );
  await sql(
    `insert into products (generation_id, kind, title, url, blueprint_id, print_provider_id, price_cents,
                           variants, images, provider, provider_product_id, views, created_at)
     select g.id, c.kind, c.title, c.url, c.blueprint, 1, c.price,
            jsonb_build_array(jsonb_build_object('id', c.blueprint * 100 + 1, 'title', 'One size', 'priceCents', c.price)),
            (select jsonb_agg(jsonb_build_object('key', 'shop/bench/' || g.url || '/' || c.kind || '-' || k || '.jpg',
                                                 'url', null, 'variantIds', '[]'::jsonb, 'isDefault', k = 0))
               from generate_series(0, 29) k),
            'local', 'local-product-' || g.url || '-' || c.kind, (g.views * 3 + c.blueprint) % 997, g.created_at
     from generations g
     cross join (values ('poster', 'Framed Poster', 'framed-poster', 421, 3499),
                        ('mug', 'Ceramic Mug', 'ceramic-mug', 68, 1499),
                        ('tshirt', 'T-Shirt', 't-shirt', 50, 2299),
                        ('tote', 'Tote Bag', 'tote-bag', 553, 1999)) as c(kind, title, url, blueprint, price)`,
  );
  await sql('analyze generations; analyze products');
  await database.close();
  kit.figure(
    'fill 10,000 generations and 40,000 products',
    (performance.now() - filled) / 1000,
    's',
  );

  const server = await kit.startServer({ dataDir, env });
  const measure = async (label, paths, goal) => {
    for (const p of paths.slice(0, 5)) await fetch(`${server.url}${p}`); // warm-up
    const times = [];
    for (let i = 0; i < 200; i++) {
      const p = paths[i % paths.length];
      const started = performance.now();
      const res = await fetch(`${server.url}${p}`);
      await res.arrayBuffer();
      times.push(performance.now() - started);
      if (res.status !== 200) throw new Error(`${p}: ${res.status}`);
    }
    const { p50, p95 } = kit.percentiles(times);
    kit.figure(`${label} p50 / p95`, `${p50.toFixed(1)} / ${p95.toFixed(1)}`, 'ms', goal);
  };
  const pages = (base) => [1, 2, 3, 10, 50, 200].map((page) => `${base}&page=${page}`);
  await measure(
    'GET /getgenerations?sort=createdAt (24 a page)',
    pages('/api/v1/getgenerations?sort=createdAt'),
    'p95 < 50 ms',
  );
  await measure(
    'GET /getgenerations?sort=views',
    pages('/api/v1/getgenerations?sort=views'),
    'p95 < 50 ms',
  );
  await measure(
    'GET /getgenerations?sort=download_count',
    pages('/api/v1/getgenerations?sort=download_count'),
    'p95 < 50 ms',
  );
  await measure(
    'GET /getgenerations?sort=random',
    pages('/api/v1/getgenerations?sort=random'),
    'p95 < 50 ms',
  );
  await measure(
    'GET /getgenerations?sort=createdAt&searchTerm=…',
    ['owl', 'fox night', 'lighthouse poster', 'castle storybook', 'whale', 'nothing-matches'].map(
      (term) => `/api/v1/getgenerations?sort=createdAt&searchTerm=${encodeURIComponent(term)}`,
    ),
    'p95 < 50 ms',
  );
  await measure(
    'GET /getproducts?sort=views',
    pages('/api/v1/getproducts?sort=views'),
    'p95 < 50 ms',
  );
  await measure('GET /getfeaturedproducts', ['/api/v1/getfeaturedproducts'], 'p95 < 50 ms');
  await server.stop();
}

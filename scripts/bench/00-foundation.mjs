// Foundation: cold start with an existing data folder, and GET /api/v1 against nginx.
export default async function foundation(kit) {
  const dataDir = kit.tmpDir();
  const first = await kit.startServer({ dataDir });
  kit.figure('first start (new data folder, sample data load)', first.readyMs / 1000, 's');
  await first.stop();

  const starts = [];
  for (let i = 0; i < 3; i++) {
    const server = await kit.startServer({ dataDir });
    starts.push(server.readyMs);
    if (i < 2) await server.stop();
    else {
      kit.figure(
        'cold start, existing data folder (best of 3)',
        Math.min(...starts) / 1000,
        's',
        '< 5 s',
      );
      kit.figure('cold start, existing data folder (worst of 3)', Math.max(...starts) / 1000, 's');
      await kit.compareWithNginx('GET /api/v1', `${server.url}/api/v1`, { seconds: 8 });
      await server.stop();
    }
  }
}

// Image studio, offline engine (the default): one 1024×1024 illustration, a 4× upscale of a
// 1024 px image, and how long the event loop stalls while 4 generations run at once (the
// studio's requests are answered by this same loop).
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';

const dist = (file) =>
  pathToFileURL(path.join(import.meta.dirname, '../../apps/server/dist', file)).href;
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

export default async function images(kit) {
  const { LocalImageProvider } = await import(dist('providers/images/local.js'));
  const provider = new LocalImageProvider({ trainingMs: 0 });
  const task = (i) => ({
    type: 'generate',
    prompt: `A lighthouse on a rocky hill by the sea at sunset, seagulls and a small boat ${i}`,
    negativePrompt: '',
    numImages: 1,
    aspectRatio: '1:1',
    width: 1024,
    height: 1024,
    seed: 1000 + i,
    model: {
      kind: 'base',
      id: 'base-illustration',
      providerModel: 'local',
      styleWords: ['storybook', 'illustration'],
    },
  });
  await provider.start(task(0)); // warm-up: libvips and fonts load once
  const times = [];
  let image;
  for (let i = 1; i <= 7; i++) {
    const started = performance.now();
    const result = await provider.start(task(i));
    times.push(performance.now() - started);
    image = result.outputs[0].data;
  }
  kit.figure('local image, 1024×1024 PNG (median of 7)', median(times), 'ms', '< 500 ms');

  const upscales = [];
  for (let i = 0; i < 3; i++) {
    const started = performance.now();
    await provider.start({ type: 'upscale', image, scale: 4 });
    upscales.push(performance.now() - started);
  }
  kit.figure(
    '4× upscale of a 1024 px image → 4096 px (median of 3)',
    median(upscales) / 1000,
    's',
    '< 2 s',
  );

  const delay = monitorEventLoopDelay({ resolution: 5 });
  delay.enable();
  const started = performance.now();
  await Promise.all([1, 2, 3, 4].map((i) => provider.start(task(100 + i))));
  const wall = performance.now() - started;
  delay.disable();
  kit.figure('4 generations at once: wall time', wall, 'ms');
  kit.figure('4 generations at once: longest event-loop stall', delay.max / 1e6, 'ms', '< 100 ms');
}

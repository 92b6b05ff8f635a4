import type { ShopConfig } from '../../config.js';
import { LocalPrintProvider } from './local.js';
import { PrintifyProvider } from './printify.js';
import type { PrintProvider } from './types.js';

export * from './types.js';
export { LocalPrintProvider } from './local.js';
export { PrintifyProvider } from './printify.js';

/** Chooses the print-on-demand adapter once, from config (`PRINT_PROVIDER=local|printify`). */
export function createPrintProvider(config: ShopConfig['print']): PrintProvider {
  return config.provider === 'printify'
    ? new PrintifyProvider(config)
    : new LocalPrintProvider({ stepMs: config.stepMs });
}

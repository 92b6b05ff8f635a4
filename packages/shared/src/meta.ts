import './zod-setup.js';
import { z } from 'zod';

/** `GET /api/v1`: where the visitor seems to be, from trusted proxy headers. */
export const LocationMetaSchema = z.object({ city: z.string(), country: z.string() });
export type LocationMeta = z.infer<typeof LocationMetaSchema>;

/** A list answer: `{ data, count }` where count is the total matching, for paging. */
export function listOf<T extends z.ZodType>(item: T) {
  return z.object({ data: z.array(item), count: z.number().int().nonnegative() });
}

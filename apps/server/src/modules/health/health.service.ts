import type { IncomingHttpHeaders } from 'node:http';
import type { LocationMeta } from '@chapterwise/shared';

/** Headers that CDNs and platforms set with the client's city and country. */
const CITY_HEADERS = ['x-vercel-ip-city', 'cf-ipcity', 'x-appengine-city', 'x-geo-city'];
const COUNTRY_HEADERS = [
  'x-vercel-ip-country',
  'cf-ipcountry',
  'x-appengine-country',
  'x-geo-country',
];

function firstHeader(headers: IncomingHttpHeaders, names: string[]): string {
  for (const name of names) {
    const raw = headers[name];
    const value = Array.isArray(raw) ? raw[0] : raw;
    if (!value) continue;
    try {
      return decodeURIComponent(value).slice(0, 100);
    } catch {
      return value.slice(0, 100);
    }
  }
  return '';
}

/**
 * Reads location only from headers a trusted proxy set; without TRUST_PROXY any client
 * could claim a city, so the answer is empty strings.
 */
export function readLocation(headers: IncomingHttpHeaders, trustProxy: boolean): LocationMeta {
  if (!trustProxy) return { city: '', country: '' };
  return {
    city: firstHeader(headers, CITY_HEADERS),
    country: firstHeader(headers, COUNTRY_HEADERS),
  };
}

import { ShippingAddressSchema, type ShippingAddress } from '@chapterwise/shared';

export type ShippingField = keyof ShippingAddress;
export type ShippingErrors = Partial<Record<ShippingField, string>>;

/**
 * The address fields in the order the checkout shows them, with what the buyer is asked when
 * one is missing and how a too long one is named. The server answers with the field's wire name
 * (`Invalid field "shipping.name": is required`), which is right for an API and wrong for a
 * buyer, so the page says it in these words instead.
 */
const FIELDS: Record<ShippingField, { missing: string; noun: string }> = {
  name: { missing: 'Please enter the name to ship to.', noun: 'the name' },
  line1: { missing: 'Please enter the street address.', noun: 'the address' },
  line2: { missing: 'Please check the apartment or suite.', noun: 'the apartment or suite' },
  city: { missing: 'Please enter the city.', noun: 'the city' },
  state: { missing: 'Please check the state or region.', noun: 'the state or region' },
  postal_code: { missing: 'Please enter the ZIP or postal code.', noun: 'the ZIP or postal code' },
  country: { missing: 'Please choose a country we ship to.', noun: 'the country' },
};

function isField(key: string): key is ShippingField {
  return Object.hasOwn(FIELDS, key);
}

function messageFor(field: ShippingField, maximum: number | null): string {
  if (field !== 'country' && maximum !== null) {
    return `Please shorten ${FIELDS[field].noun} to ${maximum} characters or fewer.`;
  }
  return FIELDS[field].missing;
}

/** The address checked with the server's own schema: one plain message per field at fault. */
export function checkShipping(address: ShippingAddress): ShippingErrors {
  const parsed = ShippingAddressSchema.safeParse(address);
  if (parsed.success) return {};
  const errors: ShippingErrors = {};
  for (const issue of parsed.error.issues) {
    const key = String(issue.path[0] ?? '');
    if (!isField(key) || errors[key]) continue;
    errors[key] = messageFor(key, issue.code === 'too_big' ? Number(issue.maximum) : null);
  }
  return errors;
}

/**
 * A 400 from the server about the address, in the page's words: the field it is about (null
 * for the address as a whole) and the message, or null when it is about something else. The
 * server checks again what the page checked, so this is reached only when the two disagree.
 */
export function shippingErrorFromServer(
  message: string,
): { field: ShippingField | null; message: string } | null {
  const match = /^Invalid field "shipping(?:\.(\w+))?": (.*)$/s.exec(message);
  if (!match) return null;
  const [, key, reason = ''] = match;
  if (!key) return { field: null, message: 'Please enter the address to ship to.' };
  if (!isField(key)) return null;
  const maximum = /at most (\d+) characters/.exec(reason);
  return { field: key, message: messageFor(key, maximum ? Number(maximum[1]) : null) };
}

import { checkIsoUrl, mayFetchFrom } from '../media/iso-sources.js';
import { type EventType, eventAudience } from './catalogue.js';

// Where a webhook may be sent (docs/events.md "Endpoints"): the ISO fetch's SSRF rule
// (domain/media/iso-sources.ts), with the networks an administrator allows. `https` always;
// `http` only to an address inside an allowed network, where no certificate can be had. The
// delivery checks every address the host resolves to again, when it connects.

export const WEBHOOK_URL_MAX = 2048;
export const WEBHOOK_DESCRIPTION_MAX = 200;
/** The Standard Webhooks secret prefix; the rest is base64 of 32 random bytes. */
export const WEBHOOK_SECRET_PREFIX = 'whsec_';

/** The URL normalised, or why it may not be an endpoint. */
export function checkEndpointUrl(raw: string, allowedNetworks: readonly string[]): { url: string } | string {
  if (raw.length > WEBHOOK_URL_MAX) return `Must be at most ${WEBHOOK_URL_MAX} characters.`;
  const checked = checkIsoUrl(raw, { allowHttp: true, allowedNetworks });
  if (typeof checked === 'string') return checked;
  const url = new URL(checked.url);
  if (url.protocol === 'http:') {
    const host = url.hostname.replace(/^\[|\]$/g, '');
    const insideAllowed = mayFetchFrom(host, allowedNetworks) && !mayFetchFrom(host, []);
    if (!insideAllowed)
      return 'Must be an https URL (http only to an address of a network the provider allows).';
  }
  return checked;
}

/** Whether a delivery may connect to `address` (each address the endpoint's host resolves to). */
export const mayDeliverTo = (address: string, allowedNetworks: readonly string[]): boolean =>
  mayFetchFrom(address, allowedNetworks);

/** The networks an endpoint may be at besides public addresses: the plane's setting, or the customers'. */
export const endpointNetworks = (
  plane: boolean,
  settings: {
    readonly WEBHOOK_ALLOWED_NETWORKS: readonly string[];
    readonly WEBHOOK_CUSTOMER_ALLOWED_NETWORKS: readonly string[];
  },
): readonly string[] =>
  plane ? settings.WEBHOOK_ALLOWED_NETWORKS : settings.WEBHOOK_CUSTOMER_ALLOWED_NETWORKS;

/**
 * Whether an endpoint may ask for these types: a customer's only for events of customers'
 * resources (the plane's own are recorded with no owner and would never reach it), the plane's for all.
 */
export function checkEndpointEventTypes(plane: boolean, types: readonly EventType[]): string | undefined {
  if (plane) return undefined;
  const refused = types.filter((type) => eventAudience(type) === 'plane');
  if (refused.length === 0) return undefined;
  return `Only the plane’s endpoints receive ${refused.join(', ')}.`;
}

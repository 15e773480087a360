import { InputError } from '@shortlink/core/portable';
import { isLoopbackHost } from '@shortlink/core/host';

/**
 * The explicit switch for local development: with it set to `true` where the app runs (`zapier-platform
 * invoke`, the tests, the sandbox), a Base URL on this machine (http://localhost…, 127.0.0.1) is accepted.
 * A version running on Zapier never has it, so there only https addresses of other machines are used.
 */
export const LOCAL_DEVELOPMENT_SWITCH = 'SHORTLINK_ZAPIER_LOCAL_DEV';

/**
 * Zapier's rule on top of the core's (https; http only on loopback): on Zapier, "this machine" is Zapier's
 * own server, so a loopback address is refused unless the switch is on. Everything else is the core's to check.
 */
export function checkBaseUrlForZapier(baseUrl: unknown): void {
  if (typeof baseUrl !== 'string') return;
  let host: string;
  try {
    host = new URL(baseUrl.trim()).hostname;
  } catch {
    return; // not a URL: the core says what is wrong with it
  }
  if (isLoopbackHost(host) && process.env[LOCAL_DEVELOPMENT_SWITCH] !== 'true') {
    throw new InputError(
      'baseUrl',
      `Base URL points at this computer (${host}), which on Zapier is Zapier's own server: enter the https address of your short-link service. (For local development only: set ${LOCAL_DEVELOPMENT_SWITCH}=true where the app runs.)`,
    );
  }
}

/**
 * The service allows 120 requests per minute per API key. One Zapier connection holds one key, so the
 * app-wide throttle counts per authentication ('auth') across all operations (no 'action' in the scope).
 */
export const throttle = { window: 60, limit: 120, scope: ['auth'] as ('auth')[] };

/**
 * The short URLs themselves: GET /{slug} on the default host, or on a custom domain chosen by the
 * Host header. A redirect records one cookieless click. Visitors get small HTML pages, not JSON.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { describeClick } from './click-parsing';
import type { SandboxContext } from './context';
import { passwordMatches } from './secrets';

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);
}

function page(reply: FastifyReply, status: number, title: string, body: string) {
  return reply
    .code(status)
    .header('Cache-Control', 'no-store')
    .type('text/html; charset=utf-8')
    .send(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>` +
      `<body><h1>${escapeHtml(title)}</h1>${body}</body></html>\n`);
}

function passwordForm(message: string): string {
  return `<p>${escapeHtml(message)}</p><form method="get"><label>Password <input type="password" name="password" autofocus></label> <button type="submit">Continue</button></form>`;
}

export async function redirectRoutes(app: FastifyInstance, options: { context: SandboxContext }): Promise<void> {
  const { store, now } = options.context;

  app.get('/', async (_request, reply) =>
    page(reply, 200, 'Short-link sandbox', '<p>The API is under <a href="/api/v1/openapi.json">/api/v1</a>. Short links redirect from /&lt;slug&gt;.</p>'),
  );

  app.get('/:slug', async (request, reply) => {
    const { slug } = request.params as { slug: string };
    const hostname = (request.headers.host ?? '').replace(/:\d+$/, '').replace(/^\[|\]$/g, '');
    const domain = store.domainForHost(hostname);
    const link = store.linkBySlug(domain ? domain.hostname : null, slug);

    if (!link || !link.active) return page(reply, 404, 'Link not found', '<p>This short link does not exist or is switched off.</p>');
    if (link.blocked) return page(reply, 410, 'Link blocked', '<p>This short link was blocked by the service.</p>');
    if (link.expiresAt !== null && Date.parse(link.expiresAt) <= now()) {
      return page(reply, 410, 'Link expired', '<p>This short link has expired.</p>');
    }
    if (link.passwordHash !== null) {
      const { password } = request.query as { password?: string | string[] };
      const given = Array.isArray(password) ? password[0] : password;
      if (given === undefined || given === '') {
        return page(reply, 401, 'Password required', passwordForm('This link is protected. Enter its password to continue.'));
      }
      if (!passwordMatches(given, link.passwordHash)) {
        return page(reply, 401, 'Password required', passwordForm('The password is wrong. Try again.'));
      }
    }

    // HEAD (link previews, monitors) redirects too but is not a visit.
    if (request.method === 'GET') {
      store.recordClick({ linkId: link.id, at: new Date(now()).toISOString(), ...describeClick(request.headers) });
    }
    return reply.code(302).header('Cache-Control', 'no-store').header('Location', link.targetUrl).send();
  });

  app.setNotFoundHandler(async (_request, reply) => page(reply, 404, 'Not found', '<p>Nothing here.</p>'));
}

/**
 * The three clients of the variant table, each driven the way its users run it: the core through its
 * public client (one client per operation, as the hosts make one per execution), the BUILT n8n node through
 * its hand-built n8n host (packages/n8n-nodes-shortlink/test/harness.ts), and the built Zapier zip through
 * its own handler (test/e2e/support/zapier-handler.ts). Each driver hands back what its user would see:
 * ids of the links it output, or the message of the error it showed.
 */
import { adviceFor } from '@shortlink/core/host';
import { createClient, type Link } from '@shortlink/core';
import type { IDataObject, INodeParameters } from 'n8n-workflow';
import { shortLinkCredential } from '@shortlink/core/host';
import { loadOptionsContext, locator, runNode, triggerHost, ShortLink } from '../../../packages/n8n-nodes-shortlink/test/harness';
import type { ZapierHandler } from '../../e2e/support/zapier-handler';

export interface Connection {
  baseUrl: string;
  apiKey: string;
}

export interface TriggerRun {
  /** One scheduled poll: the ids it delivered (none: []). */
  poll(): Promise<string[]>;
}

export interface ClientDriver {
  name: 'core' | 'n8n' | 'Zapier';
  listAll(connection: Connection): Promise<string[]>;
  find(connection: Connection, targetUrl: string): Promise<string[]>;
  findOrCreate(connection: Connection, targetUrl: string): Promise<{ id: string; created: boolean }>;
  /** The item the user gets after renaming a link. */
  update(connection: Connection, id: string, title: string): Promise<Record<string, unknown>>;
  /** Activates the trigger (its first poll) and returns the run for later polls. */
  startTrigger(connection: Connection, runId: string): Promise<TriggerRun>;
  delete(connection: Connection, id: string): Promise<void>;
  /** What the domain picker lists. */
  domainPicker(connection: Connection): Promise<string[]>;
  /** How the connected account is labelled (n8n: the credential test passes and the account's name/email). */
  connectionLabel(connection: Connection): Promise<string>;
  /** The whole text the user sees for a failing account request (message, description, advice). */
  accountFailure(connection: Connection): Promise<string>;
}

const text = (error: unknown) => {
  const e = error as { message?: string; description?: string };
  return [e.message, e.description].filter(Boolean).join(' ');
};

// ---- core ---------------------------------------------------------------------------------------

const coreClient = ({ baseUrl, apiKey }: Connection) => createClient({ baseUrl, apiKey });

export const coreDriver: ClientDriver = {
  name: 'core',
  async listAll(connection) {
    const ids: string[] = [];
    for await (const link of coreClient(connection).iterateLinks()) ids.push(link.id);
    return ids;
  },
  async find(connection, targetUrl) {
    return (await coreClient(connection).findLinks({ targetUrl })).map((link) => link.id);
  },
  async findOrCreate(connection, targetUrl) {
    const { link, created } = await coreClient(connection).findOrCreateLink({ targetUrl });
    return { id: String(link.id), created };
  },
  async update(connection, id, title) {
    return (await coreClient(connection).updateLink(id, { title })) as unknown as Record<string, unknown>;
  },
  async startTrigger(connection) {
    let state = (await coreClient(connection).pollNewLinks(undefined)).state;
    return {
      async poll() {
        const result = await coreClient(connection).pollNewLinks(state);
        state = result.state;
        return result.links.map((link: Link) => link.id);
      },
    };
  },
  async delete(connection, id) {
    await coreClient(connection).deleteLink(id);
  },
  async domainPicker(connection) {
    return (await coreClient(connection).listDomains()).map((domain) => domain.hostname);
  },
  async connectionLabel(connection) {
    return shortLinkCredential.connectionLabel(await coreClient(connection).getAccount());
  },
  async accountFailure(connection) {
    try {
      await coreClient(connection).getAccount();
      return '(no error)';
    } catch (error) {
      return `${text(error)} ${adviceFor(error) ?? ''}`.trim();
    }
  },
};

// ---- n8n (built dist) ---------------------------------------------------------------------------

async function n8n(connection: Connection, parameters: INodeParameters): Promise<IDataObject[]> {
  const output = await runNode({ credentials: connection, parameters });
  return output.map((item) => item.json);
}

export const n8nDriver: ClientDriver = {
  name: 'n8n',
  async listAll(connection) {
    return (await n8n(connection, { resource: 'link', operation: 'getAll', returnAll: true })).map((item) => String(item.id));
  },
  async find(connection, targetUrl) {
    return (await n8n(connection, { resource: 'link', operation: 'find', findBy: 'targetUrl', targetUrl })).map((item) => String(item.id));
  },
  async findOrCreate(connection, targetUrl) {
    const [item] = await n8n(connection, { resource: 'link', operation: 'findOrCreate', targetUrl });
    return { id: String(item!.id), created: item!.created === true };
  },
  async update(connection, id, title) {
    const [item] = await n8n(connection, { resource: 'link', operation: 'update', link: locator('id', id), updateFields: { title } });
    return item!;
  },
  async startTrigger(connection) {
    const host = triggerHost(connection, { options: { maxPages: 5 } });
    await host.poll();
    return {
      async poll() {
        return ((await host.poll()) ?? []).map((item) => String(item.id));
      },
    };
  },
  async delete(connection, id) {
    await n8n(connection, { resource: 'link', operation: 'delete', link: locator('id', id) });
  },
  async domainPicker(connection) {
    const { methods, context } = loadOptionsContext(connection);
    return (await methods.searchDomains.call(context)).results.map((result) => String(result.value));
  },
  async connectionLabel(connection) {
    const test = await new ShortLink().methods.credentialTest.shortLinkApiTest.call({} as never, { id: '1', name: 'c', type: 'shortLinkApi', data: { ...connection } });
    if (test.status !== 'OK') return `credential test: ${test.message}`;
    const [account] = await n8n(connection, { resource: 'account', operation: 'get' });
    return shortLinkCredential.connectionLabel(account as never);
  },
  async accountFailure(connection) {
    try {
      await n8n(connection, { resource: 'account', operation: 'get' });
      return '(no error)';
    } catch (error) {
      return text(error);
    }
  },
};

// ---- Zapier (the build zip's handler) -------------------------------------------------------------

/** The Link field's perform-based choices, addressed as Zapier's runtime addresses them. */
const LINK_CHOICES = 'creates.update_link.operation.inputFields.0.choices.perform';

export function zapierDriver(handler: ZapierHandler): ClientDriver {
  async function perform<T>(connection: Connection, method: string, inputData: IDataObject = {}, meta: IDataObject = {}): Promise<T> {
    const answer = await handler.call(method, { authData: { ...connection }, inputData, meta });
    if (!answer.ok) throw new Error(answer.error?.message ?? 'failed');
    return answer.result!.results as T;
  }
  return {
    name: 'Zapier',
    async listAll(connection) {
      // The Link dropdown, "load more" until the last page: Zapier hands back each page's paging token.
      const ids: string[] = [];
      let token: string | null = null;
      for (let page = 0; page < 1000; page++) {
        const answer = await handler.call(LINK_CHOICES, { authData: { ...connection }, inputData: {}, meta: token === null ? {} : { paging_token: token } });
        if (!answer.ok) throw new Error(answer.error?.message ?? 'failed');
        const { results, paging_token } = answer.result!.results as unknown as { results: Array<{ id: string }>; paging_token: string | null };
        ids.push(...results.map((choice) => String(choice.id)));
        if (paging_token === null) return ids;
        token = paging_token;
      }
      throw new Error('the dropdown never ended');
    },
    async find(connection, targetUrl) {
      return (await perform<IDataObject[]>(connection, 'searches.find_link.operation.perform', { targetUrl })).map((link) => String(link.id));
    },
    async findOrCreate(connection, targetUrl) {
      // Zapier's search-or-create: the search first, the create only when it finds nothing.
      const [found] = await perform<IDataObject[]>(connection, 'searches.find_link.operation.perform', { targetUrl });
      if (found) return { id: String(found.id), created: false };
      const created = await perform<IDataObject>(connection, 'creates.find_or_create_link.operation.perform', { targetUrl });
      return { id: String(created.id), created: created.created === true };
    },
    async update(connection, id, title) {
      return perform<IDataObject>(connection, 'creates.update_link.operation.perform', { link: id, title });
    },
    async startTrigger(connection, runId) {
      const meta = { zap: { id: `variant-${runId}` } };
      await perform(connection, 'triggers.new_link.operation.perform', {}, meta);
      return {
        async poll() {
          return (await perform<IDataObject[]>(connection, 'triggers.new_link.operation.perform', {}, meta)).map((link) => String(link.id));
        },
      };
    },
    async delete(connection, id) {
      await perform(connection, 'creates.delete_link.operation.perform', { link: id });
    },
    async domainPicker(connection) {
      return (await perform<IDataObject[]>(connection, 'triggers.domain_list.operation.perform')).map((domain) => String(domain.hostname));
    },
    async connectionLabel(connection) {
      const account = await perform<IDataObject>(connection, 'authentication.test');
      return perform<string>(connection, 'authentication.connectionLabel', account);
    },
    async accountFailure(connection) {
      // A step of a connection that worked before (the Domain dropdown): a refused key there asks the user
      // to reconnect. (The connection test itself, while connecting, says to check the key instead.)
      const answer = await handler.call('triggers.domain_list.operation.perform', { authData: { ...connection }, inputData: {} });
      return answer.ok ? '(no error)' : `${answer.error?.name}: ${answer.error?.message}`;
    },
  };
}

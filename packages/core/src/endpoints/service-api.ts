/**
 * The service's endpoints, one method each (spec §4–8), through the request executor: what was asked,
 * the answer read tolerantly, and what was learned where the spec is silent noted in the service profile.
 * Knows nothing of lookups, creates or polls: those parts build on it.
 */
import type { CallBudget } from '../http/call-budget';
import { ShortLinkError } from '../errors';
import { statusText, unexpectedBody } from '../http/error-from-response';
import { checkUpdateInput, linkPath } from '../forms/input-checks';
import { isRecord } from '../basics/json';
import { LinkPager } from '../reading/link-pager';
import { readDomainList } from '../reading/page-reader';
import { readAccount, readObjectBody, readUpdateAnswer } from '../reading/record-readers';
import { newServiceProfile, type ServiceProfile } from '../reading/service-profile';
import type { RequestExecutor } from '../http/request-executor';
import type { Account, Domain, Link, LinkPage, LinkStats, ListLinksOptions, UpdateLinkInput } from '../types';

export class ServiceApi {
  readonly profile: ServiceProfile = newServiceProfile();
  private readonly pager: LinkPager;

  constructor(readonly executor: RequestExecutor) {
    this.pager = new LinkPager(executor, this.profile);
  }

  /** One page; how a page is asked for and continued is the pager's (link-pager.ts). */
  listLinks(options: ListLinksOptions, budget: CallBudget): Promise<LinkPage> {
    return this.pager.page(options, budget);
  }

  /** A page of 100 from the top (no cursor) or from a continuation. */
  readPage(cursor: string | undefined, budget: CallBudget): Promise<LinkPage> {
    return this.listLinks(cursor === undefined ? { limit: 100 } : { limit: 100, cursor }, budget);
  }

  async getLink(id: string, budget: CallBudget): Promise<Link> {
    const response = await this.executor.send({ method: 'GET', path: linkPath(id) }, budget);
    return readObjectBody<Link>(response, 'a link', ['id']);
  }

  /**
   * PATCH, then the link as it is now: a service that answers with the changed fields only, or with 204,
   * applied the update all the same, so the link is read once more and the caller always gets all of it.
   */
  async updateLink(id: string, patch: UpdateLinkInput, budget: CallBudget): Promise<Link> {
    const path = linkPath(id);
    const body = checkUpdateInput(patch);
    const response = await this.executor.send({ method: 'PATCH', path, body }, budget);
    const { kind, fields: partial } = readUpdateAnswer(response.body);
    this.profile.updateAnswer = kind;
    this.profile.updateStatus = response.status;
    if (kind === 'full link') return partial as unknown as Link;
    try {
      const read = await this.executor.send({ method: 'GET', path }, budget);
      return { ...partial, ...readObjectBody<Link>(read, 'the updated link', ['id']) };
    } catch (error) {
      if (error instanceof ShortLinkError) {
        error.message = `The update was applied (the service answered ${statusText(response.status)}), but reading the link afterwards failed: ${error.message}`;
      }
      throw error;
    }
  }

  async deleteLink(id: string, budget: CallBudget): Promise<void> {
    // Any 2xx is a deletion (204, 200 with a body, 202); so is a 404 after an attempt that may have done it.
    const response = await this.executor.send({ method: 'DELETE', path: linkPath(id), notFoundAfterUncertainAttemptIsSuccess: true }, budget);
    if (response.status < 300) this.profile.deleteStatus = response.status;
  }

  async getLinkStats(id: string, budget: CallBudget): Promise<LinkStats> {
    const response = await this.executor.send({ method: 'GET', path: linkPath(id, '/stats') }, budget);
    const stats = readObjectBody<LinkStats>(response, 'click statistics', ['totalClicks']);
    return typeof stats.linkId === 'number' ? { ...stats, linkId: String(stats.linkId) } : stats;
  }

  async listDomains(budget: CallBudget): Promise<Domain[]> {
    const response = await this.executor.send({ method: 'GET', path: '/domains' }, budget);
    const read = readDomainList(response.body, response.status);
    if (!read) throw unexpectedBody(response, 'a list of domains', isRecord(response.body) ? 'the answer holds no list.' : undefined);
    if (read.hostnameField !== undefined) this.profile.domainHostnameField = read.hostnameField;
    return read.domains;
  }

  async getAccount(budget: CallBudget): Promise<Account> {
    const response = await this.executor.send({ method: 'GET', path: '/me' }, budget);
    if (!isRecord(response.body)) throw unexpectedBody(response, 'the account');
    const read = readAccount(response.body);
    if (read.nameField !== undefined) this.profile.accountNameField = read.nameField;
    if (read.emailField !== undefined) this.profile.accountEmailField = read.emailField;
    if (read.envelope !== undefined) this.profile.accountEnvelope = read.envelope;
    return read.account;
  }

  /** The account's id as text (what a trigger's state is bound to), or undefined when it shows none. */
  async whoAmI(budget: CallBudget): Promise<string | undefined> {
    const account = readObjectBody<Account>(await this.executor.send({ method: 'GET', path: '/me' }, budget), 'the account', []);
    return typeof account.id === 'string' || typeof account.id === 'number' ? String(account.id) : undefined;
  }

  /** The service's clock by its last Date header, moved on by ours; ours until a Date header was seen. */
  serviceNow(): number {
    const clock = this.executor.serviceClock;
    const now = this.executor.now();
    return clock ? clock.serviceMs + (now - clock.localMs) : now;
  }
}

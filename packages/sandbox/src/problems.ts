/** RFC 9457 problem answers, one kind per documented error (type URI fragment = kind). */
import type { FieldError } from './contract';

export const PROBLEM_TYPE_BASE = 'https://shortlink.example/docs/api/errors#';

export interface ProblemBody {
  type: string;
  title: string;
  status: number;
  detail: string;
  errors?: FieldError[];
}

/** Thrown anywhere in a request; the error handler turns it into problem+json. */
export class ApiProblem extends Error {
  constructor(
    readonly status: number,
    readonly kind: string,
    readonly title: string,
    readonly detail: string,
    readonly errors?: FieldError[],
  ) {
    super(detail);
  }

  get body(): ProblemBody {
    const body: ProblemBody = { type: PROBLEM_TYPE_BASE + this.kind, title: this.title, status: this.status, detail: this.detail };
    if (this.errors) body.errors = this.errors;
    return body;
  }
}

export const problems = {
  malformed: (detail: string) => new ApiProblem(400, 'malformed-request', 'Malformed request', detail),
  unauthorized: (detail = 'The API key is missing or invalid. Send Authorization: Bearer <API key>.') =>
    new ApiProblem(401, 'unauthorized', 'Unauthorized', detail),
  planRequired: (plan: string) =>
    new ApiProblem(
      403,
      'plan-required',
      'Plan without API access',
      `API access requires the business plan or higher; this account is on the ${plan} plan.`,
    ),
  domainForbidden: (hostname: string) =>
    new ApiProblem(
      403,
      'domain-forbidden',
      'Domain not allowed',
      `domain ${hostname} is not a verified custom domain of this account.`,
    ),
  quotaExceeded: (quota: number, plan: string) =>
    new ApiProblem(
      403,
      'quota-exceeded',
      'Link quota exceeded',
      `The ${plan} plan allows ${quota} new links per month, and this month's are used up.`,
    ),
  linkNotFound: (id: string) => new ApiProblem(404, 'not-found', 'Not found', `No link with id ${id} exists.`),
  routeNotFound: (method: string, path: string) =>
    new ApiProblem(404, 'not-found', 'Not found', `There is no operation ${method} ${path}.`),
  slugTaken: (slug: string, domain: string | null) =>
    new ApiProblem(
      409,
      'slug-taken',
      'Slug already taken',
      `The slug ${slug} is already in use on ${domain ? `the domain ${domain}` : 'the default domain'}.`,
    ),
  validation: (errors: FieldError[]) =>
    new ApiProblem(422, 'validation-failed', 'Validation failed', errors.map((e) => e.message).join(' '), errors),
  rateLimited: (limit: number, windowSeconds: number, retryAfter: number) =>
    new ApiProblem(
      429,
      'rate-limited',
      'Too many requests',
      `The limit of ${limit} requests per ${windowSeconds} seconds is spent; retry in ${retryAfter} seconds.`,
    ),
  internal: () => new ApiProblem(500, 'internal', 'Internal server error', 'The service failed to process the request.'),
  badGateway: () => new ApiProblem(502, 'bad-gateway', 'Bad gateway', 'An upstream component of the service did not answer properly.'),
  gatewayTimeout: () => new ApiProblem(504, 'gateway-timeout', 'Gateway timeout', 'An upstream component of the service did not answer in time.'),
  unavailable: () => new ApiProblem(503, 'unavailable', 'Service unavailable', 'The service is temporarily unavailable.'),
};

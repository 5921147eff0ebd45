import { type KeyObject, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { decodeProtectedHeader, jwtVerify } from 'jose';

/**
 * A local Enable Banking API (api.enablebanking.com), built from its published reference
 * (docs/remittance/open-banking.md): GET /aspsps, POST /auth, POST /sessions, GET/DELETE /sessions/{id},
 * GET /accounts/{uid}/details and /balances, POST /payments, GET /payments/{id}, errors as
 * `{code, message, error}`. Every API request must carry a JWT signed RS256 with the
 * application's key (kid = application id, iss enablebanking.com, aud api.enablebanking.com).
 * The bank's pages (/bank/authorize, /bank/pay) stand in for the user's bank: they answer
 * 302 to the application's redirect_url as the real flow does.
 */
export interface MockAccount {
  uid: string;
  iban: string;
  details: string;
  cashAccountType: string;
  currency: string;
  balance: string;
}

interface Authorization {
  id: string;
  redirectUrl: string;
  state: string;
  /** What POST /auth asked for (access.valid_until). */
  validUntil: string;
  /** The bank (aspsp) it was started at. */
  aspsp: MockBank;
  code?: string;
  used?: boolean;
}
interface Session {
  id: string;
  status: 'AUTHORIZED' | 'EXPIRED' | 'CLOSED' | 'REVOKED';
  accounts: MockAccount[];
  aspsp: MockBank;
}

/** A bank of GET /aspsps (ASPSPData: name, country, logo, psu_types, auth_methods, maximum_consent_validity, beta, bic). */
export interface MockBank {
  name: string;
  country: string;
  psuTypes?: string[];
  beta?: boolean;
  bic?: string;
}
interface Payment {
  id: string;
  status: string;
  redirectUrl: string;
  state: string;
  creditor: string;
  endToEndId: string | null;
  /** The bank (aspsp) the payment was sent to. */
  aspsp: { name?: string; country?: string } | undefined;
  reason?: { status_reason_code: string; status_reason_description: string[] };
  body: unknown;
}

/**
 * What the ASPSP does with a second POST /payments carrying an end_to_end_id it already has:
 * `create` a new payment resource (what the service must survive: nothing in the published
 * reference promises a duplicate check), or `replay` the first one (a bank's duplicate check).
 */
export type DuplicateEndToEnd = 'create' | 'replay';

export async function startEnableBankingMock(opts: {
  appId: string;
  publicKey: KeyObject;
  /** The first bank of the list (the one the tests link unless they choose another). */
  aspspName: string;
  /** Further banks GET /aspsps lists (a few Norwegian and one Finnish bank unless told). */
  otherBanks?: MockBank[];
  duplicates?: DuplicateEndToEnd;
}) {
  const banks: MockBank[] = [
    { name: opts.aspspName, country: 'NO', bic: 'MOCKNOKK' },
    ...(opts.otherBanks ?? [
      { name: 'DNB', country: 'NO', bic: 'DNBANOKK' },
      { name: 'SpareBank 1 Østlandet', country: 'NO', beta: true },
      { name: 'Bedriftsbanken', country: 'NO', psuTypes: ['business'] },
      { name: 'Nordea', country: 'FI', bic: 'NDEAFIHH' },
    ]),
  ];
  const bankNamed = (aspsp: { name?: string; country?: string } | undefined) =>
    banks.find((b) => b.name === aspsp?.name && b.country === aspsp?.country);
  let duplicates: DuplicateEndToEnd = opts.duplicates ?? 'create';
  /** The longest access the bank grants (null: what POST /auth asked for). */
  let maxAccessMs: number | null = null;
  const auths = new Map<string, Authorization>();
  const sessions = new Map<string, Session>();
  const payments = new Map<string, Payment>();
  const calls: { method: string; path: string; verified: boolean }[] = [];
  /** Injected answers: the next request whose path starts with the prefix gets this status and body. */
  const faults: {
    method: string;
    prefix: string;
    status: number;
    body: unknown;
    delayMs?: number;
    /** Handle the request, then cut the connection instead of answering (the answer is lost). */
    drop?: boolean;
  }[] = [];
  let accountsTemplate: () => MockAccount[] = () => [
    {
      uid: randomUUID(),
      iban: 'NO9386011117947',
      details: 'Brukskonto',
      cashAccountType: 'CACC',
      currency: 'NOK',
      balance: '12345.67',
    },
    {
      uid: randomUUID(),
      iban: 'NO8330001234567',
      details: 'Sparekonto',
      cashAccountType: 'SVGS',
      currency: 'NOK',
      balance: '800.00',
    },
  ];

  const send = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  };
  const apiError = (res: ServerResponse, status: number, error: string, message: string) =>
    send(res, status, { code: status, message, error, detail: null });

  const resource = (a: MockAccount) => ({
    account_id: { iban: a.iban },
    all_account_ids: [{ identification: a.iban, scheme_name: 'IBAN' }],
    details: a.details,
    cash_account_type: a.cashAccountType,
    currency: a.currency,
    uid: a.uid,
    identification_hash: `hash-${a.iban}`,
    identification_hashes: [`hash-${a.iban}`],
  });
  const findAccount = (uid: string) => {
    for (const s of sessions.values()) {
      const a = s.accounts.find((x) => x.uid === uid);
      if (a) return { session: s, account: a };
    }
    return null;
  };

  async function readJson(req: IncomingMessage): Promise<Record<string, unknown> | null> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    if (chunks.length === 0) return null;
    try {
      return JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      return null;
    }
  }

  async function verify(req: IncomingMessage): Promise<boolean> {
    const header = req.headers.authorization ?? '';
    if (!header.startsWith('Bearer ')) return false;
    const token = header.slice(7);
    try {
      const h = decodeProtectedHeader(token);
      if (h.alg !== 'RS256' || h.kid !== opts.appId) return false;
      const { payload } = await jwtVerify(token, opts.publicKey, {
        issuer: 'enablebanking.com',
        audience: 'api.enablebanking.com',
        algorithms: ['RS256'],
      });
      return typeof payload.iat === 'number' && typeof payload.exp === 'number' && payload.exp - payload.iat <= 86_400;
    } catch {
      return false;
    }
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://mock');
    const method = req.method ?? 'GET';
    const path = url.pathname;

    // The bank's pages: reached by the user's browser, no JWT.
    if (method === 'GET' && path === '/bank/authorize') {
      const auth = auths.get(url.searchParams.get('auth') ?? '');
      if (!auth) return send(res, 404, { message: 'unknown authorization' });
      const back = new URL(auth.redirectUrl);
      back.searchParams.set('state', auth.state);
      if (url.searchParams.get('decision') === 'deny') {
        back.searchParams.set('error', 'access_denied');
      } else {
        auth.code = randomUUID();
        back.searchParams.set('code', auth.code);
      }
      res.writeHead(302, { location: back.toString() });
      return res.end();
    }
    if (method === 'GET' && path === '/bank/pay') {
      const payment = payments.get(url.searchParams.get('payment') ?? '');
      if (!payment) return send(res, 404, { message: 'unknown payment' });
      const deny = url.searchParams.get('decision') === 'deny';
      if (deny) {
        payment.status = 'RJCT';
        payment.reason = { status_reason_code: 'DS02', status_reason_description: ['Order cancelled by the PSU'] };
      } else if (/0000$/.test(payment.creditor)) {
        payment.status = 'RJCT';
        payment.reason = { status_reason_code: 'AC04', status_reason_description: ['Closed account number'] };
      } else {
        // Authorized: accepted by the bank; it settles on the next status read.
        payment.status = 'ACCP';
      }
      const back = new URL(payment.redirectUrl);
      back.searchParams.set('state', payment.state);
      res.writeHead(302, { location: back.toString() });
      return res.end();
    }

    const verified = await verify(req);
    calls.push({ method, path, verified });
    if (!verified)
      return apiError(res, 401, 'UNAUTHORIZED_ACCESS', 'JWT is missing, expired or not signed by the application key');
    const fault = faults.findIndex((f) => f.method === method && path.startsWith(f.prefix));
    if (fault >= 0 && !faults[fault].drop) {
      const [f] = faults.splice(fault, 1);
      if (f.delayMs) await new Promise((r) => setTimeout(r, f.delayMs));
      return send(res, f.status, f.body, f.status === 429 ? { 'retry-after': '1' } : {});
    }
    const body = method === 'POST' ? await readJson(req) : null;
    // A fault that lets the request through and loses the answer.
    const dropped = fault >= 0 ? faults.splice(fault, 1)[0] : null;
    if (dropped?.drop) return route(method, path, body, (r) => r.socket?.destroy(), res, url.searchParams);
    return route(method, path, body, send, res, url.searchParams);
  }

  async function route(
    method: string,
    path: string,
    body: Record<string, unknown> | null,
    answer: (res: ServerResponse, status: number, body: unknown, headers?: Record<string, string>) => void,
    res: ServerResponse,
    q: URLSearchParams,
  ) {
    const send = answer;
    const apiError = (r: ServerResponse, status: number, error: string, message: string) =>
      send(r, status, { code: status, message, error, detail: null });

    if (method === 'GET' && path === '/aspsps') {
      const country = q.get('country');
      const psuType = q.get('psu_type');
      return send(res, 200, {
        aspsps: banks
          .filter((b) => !country || b.country === country)
          .filter((b) => !psuType || (b.psuTypes ?? ['personal', 'business']).includes(psuType))
          .map((b) => ({
            name: b.name,
            country: b.country,
            logo: `https://enablebanking.com/brands/${b.country}/${encodeURIComponent(b.name)}/`,
            psu_types: b.psuTypes ?? ['personal', 'business'],
            auth_methods: [],
            maximum_consent_validity: 15_552_000,
            beta: b.beta === true,
            ...(b.bic ? { bic: b.bic } : {}),
          })),
      });
    }
    if (method === 'POST' && path === '/auth') {
      const access = body?.access as { valid_until?: string } | undefined;
      const aspsp = body?.aspsp as { name?: string; country?: string } | undefined;
      if (!access?.valid_until || !aspsp?.name || !aspsp.country || !body?.redirect_url || !body.state)
        return apiError(res, 422, 'WRONG_REQUEST_PARAMETERS', 'access, aspsp, state and redirect_url are required');
      const bank = bankNamed(aspsp);
      if (!bank) return apiError(res, 400, 'WRONG_ASPSP_PROVIDED', 'Wrong ASPSP name provided');
      const id = randomUUID();
      auths.set(id, {
        id,
        redirectUrl: String(body.redirect_url),
        state: String(body.state),
        validUntil: access.valid_until,
        aspsp: bank,
      });
      return send(res, 200, { url: `${base}/bank/authorize?auth=${id}`, authorization_id: id, psu_id_hash: 'h' });
    }
    if (method === 'POST' && path === '/sessions') {
      const auth = [...auths.values()].find((a) => a.code && a.code === body?.code);
      if (!auth || auth.used)
        return apiError(res, 400, 'WRONG_AUTHORIZATION_CODE', 'Wrong authorization code provided');
      auth.used = true;
      const session: Session = {
        id: randomUUID(),
        status: 'AUTHORIZED',
        accounts: accountsTemplate(),
        aspsp: auth.aspsp,
      };
      sessions.set(session.id, session);
      return send(res, 200, {
        session_id: session.id,
        accounts: session.accounts.map(resource),
        aspsp: { name: auth.aspsp.name, country: auth.aspsp.country },
        psu_type: 'personal',
        // The access granted: what was asked, or less when the bank grants less.
        access: {
          valid_until:
            maxAccessMs === null
              ? auth.validUntil
              : new Date(Math.min(Date.parse(auth.validUntil), Date.now() + maxAccessMs)).toISOString(),
        },
      });
    }
    const sessionMatch = /^\/sessions\/([^/]+)$/.exec(path);
    if (sessionMatch) {
      const session = sessions.get(sessionMatch[1]);
      if (!session) return apiError(res, 404, 'SESSION_DOES_NOT_EXIST', 'No session found matching provided id');
      if (method === 'DELETE') {
        session.status = 'CLOSED';
        return send(res, 200, { message: 'OK' });
      }
      return send(res, 200, {
        status: session.status,
        accounts: session.accounts.map((a) => a.uid),
        accounts_data: session.accounts.map((a) => ({ uid: a.uid, identification_hash: `hash-${a.iban}` })),
        aspsp: { name: session.aspsp.name, country: session.aspsp.country },
        psu_type: 'personal',
      });
    }
    const accountMatch = /^\/accounts\/([^/]+)\/(details|balances)$/.exec(path);
    if (method === 'GET' && accountMatch) {
      const found = findAccount(accountMatch[1]);
      if (!found) return apiError(res, 404, 'ACCOUNT_DOES_NOT_EXIST', 'No account found matching provided id');
      if (found.session.status === 'EXPIRED') return apiError(res, 401, 'EXPIRED_SESSION', 'Session is expired');
      if (found.session.status === 'REVOKED')
        return apiError(res, 401, 'REVOKED_SESSION', 'Session has been revoked by the PSU at the ASPSP');
      if (found.session.status !== 'AUTHORIZED') return apiError(res, 401, 'CLOSED_SESSION', 'Session is closed');
      if (accountMatch[2] === 'details') return send(res, 200, resource(found.account));
      return send(res, 200, {
        balances: [
          {
            name: 'Booked',
            balance_amount: { amount: '1.00', currency: found.account.currency },
            balance_type: 'CLBD',
          },
          {
            name: 'Available',
            balance_amount: { amount: found.account.balance, currency: found.account.currency },
            balance_type: 'ITAV',
          },
        ],
      });
    }
    if (method === 'POST' && path === '/payments') {
      const tx = (body?.payment_request as { credit_transfer_transaction?: Record<string, unknown>[] } | undefined)
        ?.credit_transfer_transaction?.[0] as
        | { beneficiary?: { creditor_account?: { identification?: string } }; instructed_amount?: { amount?: string } }
        | undefined;
      const creditor = tx?.beneficiary?.creditor_account?.identification;
      if (!body?.payment_type || !creditor || !tx?.instructed_amount?.amount || !body.redirect_url || !body.state)
        return apiError(
          res,
          422,
          'WRONG_REQUEST_PARAMETERS',
          'payment_type, payment_request, state and redirect_url are required',
        );
      const paymentAspsp = body.aspsp as { name?: string; country?: string } | undefined;
      if (!bankNamed(paymentAspsp)) return apiError(res, 400, 'WRONG_ASPSP_PROVIDED', 'Wrong ASPSP name provided');
      const endToEndId =
        (tx as { payment_id?: { end_to_end_id?: string } } | undefined)?.payment_id?.end_to_end_id ?? null;
      const known = endToEndId ? [...payments.values()].find((p) => p.endToEndId === endToEndId) : undefined;
      if (known && duplicates === 'replay')
        return send(res, 200, {
          payment_id: known.id,
          status: known.status,
          url: `${base}/bank/pay?payment=${known.id}`,
        });
      const id = randomUUID();
      payments.set(id, {
        id,
        status: 'RCVD',
        redirectUrl: String(body.redirect_url),
        state: String(body.state),
        creditor,
        endToEndId,
        aspsp: paymentAspsp,
        body,
      });
      return send(res, 200, { payment_id: id, status: 'RCVD', url: `${base}/bank/pay?payment=${id}` });
    }
    const paymentMatch = /^\/payments\/([^/]+)$/.exec(path);
    if (method === 'GET' && paymentMatch) {
      const p = payments.get(paymentMatch[1]);
      if (!p) return apiError(res, 404, 'PAYMENT_NOT_FOUND', 'Payment not found');
      // The bank settles an accepted payment on the next status read.
      const status = p.status;
      if (p.status === 'ACCP') p.status = 'ACSC';
      return send(res, 200, {
        payment_id: p.id,
        status,
        final_status: ['ACSC', 'RJCT', 'CANC'].includes(status),
        ...(p.reason ? { status_reason_information: p.reason } : {}),
      });
    }
    return apiError(res, 404, 'NOT_FOUND', `no route ${method} ${path}`);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((err) => send(res, 500, { message: String(err) }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url: base,
    calls,
    sessions,
    payments,
    fail(method: string, prefix: string, status: number, body: unknown, delayMs?: number) {
      faults.push({ method, prefix, status, body, delayMs });
    },
    /** The next matching request is carried out, then its connection cut: the caller never hears the answer. */
    dropAnswer(method: string, prefix: string) {
      faults.push({ method, prefix, status: 0, body: null, drop: true });
    },
    setDuplicates(mode: DuplicateEndToEnd) {
      duplicates = mode;
    },
    /** POST /payments calls made for one end-to-end id. */
    paymentsFor(endToEndId: string) {
      return [...payments.values()].filter((p) => p.endToEndId === endToEndId);
    },
    /** The bank grants at most this much access from the authorization on (null: what was asked). */
    setMaxAccess(ms: number | null) {
      maxAccessMs = ms;
    },
    setAccounts(make: () => MockAccount[]) {
      accountsTemplate = make;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export type EnableBankingMock = Awaited<ReturnType<typeof startEnableBankingMock>>;

/** Follows one redirect as a browser would: GET the URL, return the Location it answers with. */
export async function follow(url: string, query: Record<string, string> = {}): Promise<string> {
  const u = new URL(url);
  for (const [k, v] of Object.entries(query)) u.searchParams.set(k, v);
  const res = await fetch(u, { redirect: 'manual' });
  if (res.status !== 302) throw new Error(`expected 302 from ${u.pathname}, got ${res.status}`);
  return res.headers.get('location') ?? '';
}

import type { FastifyInstance } from 'fastify';
import { authed, registerOrg, type Session } from './helpers.js';

/** An organization of each country with everything its e-invoice profile needs (E1). */
export const SELLERS = {
  RS: {
    country: 'RS',
    baseCurrency: 'RSD',
    language: 'sr',
    organizationName: 'Prodavac Šumadija d.o.o.',
    vatNumber: 'RS101134702',
    registrationNumber: '17555555',
    addressLine1: 'Knez Mihailova 1',
    city: 'Beograd',
    postalCode: '11000',
    iban: '260-0056010016113-79',
  },
  HR: {
    country: 'HR',
    baseCurrency: 'EUR',
    language: 'hr',
    organizationName: 'Prodavatelj Đakovo d.o.o.',
    vatNumber: 'HR33392005961',
    addressLine1: 'Ilica 1',
    city: 'Zagreb',
    postalCode: '10000',
    iban: 'HR1210010051863000160',
  },
  BA: {
    country: 'BA',
    baseCurrency: 'BAM',
    language: 'bs',
    organizationName: 'Prodavac Čapljina d.o.o.',
    vatNumber: '4200000000001',
    addressLine1: 'Ferhadija 1',
    city: 'Sarajevo',
    postalCode: '71000',
    iban: 'BA391290079401028494',
  },
} as const;

export const BUYERS = {
  RS: {
    country: 'RS',
    vatNumber: '100000090',
    registrationNumber: '08765432',
    city: 'Novi Sad',
    postalCode: '21000',
    addressLine1: 'Bulevar 2',
  },
  HR: { country: 'HR', vatNumber: '10000000000', city: 'Rijeka', postalCode: '51000', addressLine1: 'Korzo 2' },
  BA: { country: 'BA', vatNumber: '4200000000002', city: 'Mostar', postalCode: '88000', addressLine1: 'Obala 2' },
} as const;

export type Country = keyof typeof SELLERS;

/** A registered organization of the country; HR's owner has an operator OIB. */
export async function seller(app: FastifyInstance, country: Country): Promise<Session> {
  const s = await registerOrg(app, { ...SELLERS[country], fullName: 'Ana Operaterka' });
  if (country === 'HR') {
    const res = await app.inject(
      authed(s.token, { method: 'PUT', url: '/api/v1/auth/me', payload: { operatorOib: '33392005961' } }),
    );
    if (res.statusCode !== 200) throw new Error(`operator: ${res.body}`);
  }
  return s;
}

export async function buyer(
  app: FastifyInstance,
  s: Session,
  country: Country,
  overrides: Record<string, unknown> = {},
) {
  const res = await app.inject(
    authed(s.token, {
      method: 'POST',
      url: '/api/v1/contacts',
      payload: {
        type: 'customer',
        name: 'Kupac Ćirić d.o.o.',
        email: 'kupac@example.test',
        ...BUYERS[country],
        ...overrides,
      },
    }),
  );
  if (res.statusCode !== 201) throw new Error(`buyer: ${res.statusCode} ${res.body}`);
  return res.json() as { id: string };
}

/** Creates and sends the invoice (mail to the outbox), answering the invoice as created. */
export async function sentInvoice(app: FastifyInstance, s: Session, body: Record<string, unknown>) {
  const res = await app.inject(authed(s.token, { method: 'POST', url: '/api/v1/invoices', payload: body }));
  if (res.statusCode !== 201) throw new Error(`invoice: ${res.statusCode} ${res.body}`);
  const inv = res.json();
  const sent = await app.inject(
    authed(s.token, { method: 'POST', url: `/api/v1/invoices/${inv.id}/send`, payload: {} }),
  );
  if (sent.statusCode !== 200) throw new Error(`send: ${sent.statusCode} ${sent.body}`);
  return inv;
}

export function getUbl(app: FastifyInstance, s: Session, id: string, which: 'ubl' | 'credit-note/ubl' = 'ubl') {
  return app.inject(authed(s.token, { method: 'GET', url: `/api/v1/invoices/${id}/${which}` }));
}

import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { scopeOf } from '../../plugins/authenticate.js';
import { errors } from '../../schemas.js';
import type { SettingsRow } from './settings.repository.js';
import { changeSettings, readSettings } from './settings.service.js';

const CURRENCIES = ['EUR', 'USD', 'GBP', 'BAM', 'CHF', 'PLN', 'NOK', 'RSD', 'TRY', 'PKR'] as const;
const LANGUAGES = ['nb', 'en', 'bs', 'sq'] as const;

const Settings = Type.Object({
  currency: Type.Enum(CURRENCIES),
  language: Type.Enum(LANGUAGES),
  pushEnabled: Type.Boolean(),
  emailEnabled: Type.Boolean(),
});
const SettingsResponse = Type.Object({ data: Settings });
/** Values outside the whitelists are 400 bad_request (R2). */
const SettingsPatch = Type.Partial(Settings);

const toBody = (s: SettingsRow) => ({
  currency: s.currency,
  language: s.language,
  pushEnabled: s.push_enabled,
  emailEnabled: s.email_enabled,
});

export function settingsRoutes() {
  return async (scope: FastifyInstance): Promise<void> => {
    const app = scope.withTypeProvider<TypeBoxTypeProvider>();
    const tags = ['settings'];

    app.get(
      '/settings',
      {
        schema: {
          tags,
          summary: 'Created with the defaults on first read',
          response: { 200: SettingsResponse, ...errors(401) },
        },
      },
      async (req) => ({
        data: toBody(await readSettings(scopeOf(req))),
      }),
    );

    app.patch(
      '/settings',
      { schema: { tags, body: SettingsPatch, response: { 200: SettingsResponse, ...errors(400, 401, 403) } } },
      async (req) => {
        const b = req.body;
        const patch: Partial<SettingsRow> = {};
        if (b.currency !== undefined) patch.currency = b.currency;
        if (b.language !== undefined) patch.language = b.language;
        if (b.pushEnabled !== undefined) patch.push_enabled = b.pushEnabled;
        if (b.emailEnabled !== undefined) patch.email_enabled = b.emailEnabled;
        return { data: toBody(await changeSettings(scopeOf(req), patch)) };
      },
    );
  };
}

import { Type } from 'typebox';
import { UserBody } from '../auth/auth.schemas.js';

export const WebStartResponse = Type.Object({ redirectUrl: Type.String() });

/** RFC 7636: 43-128 characters of [A-Za-z0-9-._~]; an S256 challenge is 43 base64url characters. */
const PKCE_VERIFIER = '^[A-Za-z0-9._~-]{43,128}$';

export const MobileInitiateQuery = Type.Object({
  platform: Type.Optional(Type.Literal('mobile')),
  code_challenge: Type.String({
    pattern: '^[A-Za-z0-9_-]{43}$',
    description:
      'BASE64URL(SHA-256(code_verifier)) of a verifier the app created and keeps (RFC 7636, RFC 8252); the app sends the verifier with the callback',
  }),
  code_challenge_method: Type.Optional(Type.Literal('S256')),
});
export const MobileInitiateResponse = Type.Object({ redirectUrl: Type.String(), state: Type.String() });

export const WebCallbackQuery = Type.Object({
  code: Type.Optional(Type.String({ maxLength: 2048 })),
  state: Type.Optional(Type.String({ maxLength: 512 })),
  iss: Type.Optional(Type.String({ maxLength: 500 })),
  error: Type.Optional(Type.String({ maxLength: 200 })),
});

export const MobileCallbackBody = Type.Object({
  code: Type.String({ minLength: 1, maxLength: 2048 }),
  state: Type.String({ minLength: 1, maxLength: 512 }),
  iss: Type.Optional(
    Type.String({ maxLength: 500, description: 'the iss parameter of the redirect (RFC 9207), when present' }),
  ),
  platform: Type.Optional(Type.Literal('mobile')),
  code_verifier: Type.String({
    pattern: PKCE_VERIFIER,
    description: 'the verifier whose S256 the app sent as code_challenge at initiate',
  }),
});
export const MobileCallbackResponse = Type.Object({ token: Type.String(), data: UserBody });

export const MockAuthorizeQuery = Type.Object({
  response_type: Type.Literal('code'),
  client_id: Type.String({ maxLength: 200 }),
  redirect_uri: Type.String({ maxLength: 2048 }),
  state: Type.String({ minLength: 1, maxLength: 512 }),
  nonce: Type.Optional(Type.String({ maxLength: 512 })),
  scope: Type.Optional(Type.String({ maxLength: 500 })),
  code_challenge: Type.String({ minLength: 43, maxLength: 128 }),
  code_challenge_method: Type.Literal('S256'),
  pid: Type.Optional(
    Type.String({ maxLength: 20, description: 'national id to sign in as (default: a fixed adult test number)' }),
  ),
  given_name: Type.Optional(Type.String({ maxLength: 100 })),
  family_name: Type.Optional(Type.String({ maxLength: 100 })),
  email: Type.Optional(Type.String({ maxLength: 254 })),
  birthdate: Type.Optional(Type.String({ maxLength: 10 })),
});

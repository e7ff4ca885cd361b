// The tool server's authorization server (OAuth 2.1, docs/oauth.md): the registration of
// applications (RFC 7591), the codes a signed-in person's consent issues, their exchange for
// tokens (PKCE is checked by the SDK's token handler before `exchangeAuthorizationCode` runs),
// rotating refresh tokens, revocation (RFC 7009) and the bearer check of the tool server.
// Failures of the OAuth endpoints are the SDK's OAuthError kinds, which its handlers answer in
// OAuth's own error body; failures of the console's operations are DomainErrors.
import { randomUUID } from 'node:crypto';
import {
  CustomOAuthError,
  InvalidClientMetadataError,
  InvalidGrantError,
  InvalidScopeError,
  InvalidTargetError,
} from '@modelcontextprotocol/sdk/server/auth/errors.js';
import type { OAuthClientInformationFull, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { Prisma } from '../../generated/prisma/client.js';
import type { Actor, RequestContext, Services } from '../context.js';
import { requireConsoleUser } from '../context.js';
import type { KeyScope } from '../api-keys/key-scopes.js';
import { DomainError, notFound } from '../errors.js';
import { randomToken, sha256Hex } from '../shared/tokens.js';
import { directSql } from '../../db/sql-client.js';
import { findActiveAccessToken } from './oauth.store.js';
import {
  ACCESS_TOKEN_PREFIX,
  ACCESS_TOKEN_TTL_MS,
  CODE_PREFIX,
  CODE_TTL_MS,
  isOAuthScope,
  OAUTH_SCOPES,
  type OAuthScope,
  REFRESH_TOKEN_PREFIX,
  REFRESH_TOKEN_TTL_MS,
  redirectUriProblem,
} from './oauth.rules.js';

/** The grant's last use is written at most this often, so a bearer check stays one read. */
const LAST_USED_RESOLUTION_MS = 60_000;
const newSecret = (prefix: string) => prefix + randomToken();

// ── Registration ────────────────────────────────────────────────────────────────────────────

/**
 * Registers an application as the SDK's registration handler parsed it. Every client is public
 * (RFC 7591 lets the server replace requested values): no secret is issued, since PKCE proves
 * who asked for each code and a stored secret would be one more thing to leak.
 */
export async function registerClient(
  services: Services,
  requested: Omit<OAuthClientInformationFull, 'client_id' | 'client_id_issued_at'>,
): Promise<OAuthClientInformationFull> {
  if (requested.redirect_uris.length === 0)
    throw new CustomOAuthError('invalid_redirect_uri', 'Register at least one redirect URI');
  for (const uri of requested.redirect_uris) {
    const problem = redirectUriProblem(uri);
    if (problem) throw new CustomOAuthError('invalid_redirect_uri', problem);
  }
  const grantTypes = requested.grant_types ?? ['authorization_code', 'refresh_token'];
  const unsupportedGrant = grantTypes.find((g) => g !== 'authorization_code' && g !== 'refresh_token');
  if (unsupportedGrant)
    throw new InvalidClientMetadataError(
      `grant_types: ${unsupportedGrant} is not supported (authorization_code, refresh_token)`,
    );
  if ((requested.response_types ?? ['code']).some((r) => r !== 'code'))
    throw new InvalidClientMetadataError('response_types: only code is supported');
  const now = services.clock.now();
  // What the SDK's handler generated is replaced: the id by ours, the secret by none.
  const {
    client_secret: _secret,
    client_secret_expires_at: _expires,
    ...metadata
  } = requested as OAuthClientInformationFull;
  const scope = requested.scope?.split(' ').filter(isOAuthScope).join(' ');
  const client: OAuthClientInformationFull = {
    ...metadata,
    client_id: randomUUID(),
    client_id_issued_at: Math.floor(now.getTime() / 1000),
    token_endpoint_auth_method: 'none',
    grant_types: grantTypes,
    response_types: ['code'],
    scope: scope || undefined,
  };
  await services.db.prisma.oAuthClient.create({
    data: {
      id: client.client_id,
      name: client.client_name?.slice(0, 200) ?? null,
      redirectUris: client.redirect_uris,
      metadata: client as unknown as Prisma.InputJsonValue,
      createdAt: now,
    },
  });
  return client;
}

/** The registered application with this client_id, or undefined. */
export async function findClient(
  services: Services,
  clientId: string,
): Promise<OAuthClientInformationFull | undefined> {
  if (clientId.length > 100) return undefined;
  const row = await services.db.prisma.oAuthClient.findUnique({ where: { id: clientId } });
  return row ? (row.metadata as unknown as OAuthClientInformationFull) : undefined;
}

// ── Authorization ───────────────────────────────────────────────────────────────────────────

export interface AuthorizationRequest {
  clientId: string;
  redirectUri: string;
  codeChallenge: string;
  /** The scopes asked for; none: every scope an application may ask for. */
  scopes: string[];
  /** The resource named (RFC 8707); absent: the tool server, the only resource there is. */
  resource?: string;
  state?: string;
}

export interface CheckedAuthorization {
  client: OAuthClientInformationFull;
  scopes: OAuthScope[];
  resource: string;
}

/**
 * Checks an authorization request, as the authorize endpoint and the consent page both must (the
 * page's address can be edited). Failures before the redirect address is known good are thrown
 * as `redirect: false` (answered on the page itself); the rest may be sent to the application.
 */
export async function checkAuthorizationRequest(
  services: Services,
  request: AuthorizationRequest,
  expectedResource: string,
): Promise<CheckedAuthorization> {
  const client = await findClient(services, request.clientId);
  if (!client)
    throw new AuthorizationRefused('invalid_client', 'No application is registered with this client_id', false);
  // Exact match: a redirect address registered is the only one codes go to (no port relaxation).
  if (!client.redirect_uris.includes(request.redirectUri))
    throw new AuthorizationRefused('invalid_request', 'The redirect_uri is not one the application registered', false);
  if (!/^[A-Za-z0-9_-]{43}$/.test(request.codeChallenge))
    throw new AuthorizationRefused(
      'invalid_request',
      'code_challenge must be an S256 challenge (43 base64url characters)',
    );
  const unknown = request.scopes.find((s) => !isOAuthScope(s));
  if (unknown !== undefined)
    throw new AuthorizationRefused(
      'invalid_scope',
      `Unknown scope ${unknown}: the scopes are ${OAUTH_SCOPES.join(', ')}`,
    );
  const scopes =
    request.scopes.length === 0 ? [...OAUTH_SCOPES] : OAUTH_SCOPES.filter((s) => request.scopes.includes(s));
  if (request.resource !== undefined && request.resource !== expectedResource)
    throw new AuthorizationRefused('invalid_target', `Tokens are issued for ${expectedResource} only`);
  return { client, scopes, resource: expectedResource };
}

/** An authorization request refused; `redirect`: whether the application may be told at its redirect address. */
export class AuthorizationRefused extends Error {
  constructor(
    readonly error: string,
    message: string,
    readonly redirect = true,
  ) {
    super(message);
  }
}

/** The signed-in person consents: a single-use code for the application, valid CODE_TTL_MS. */
export async function issueAuthorizationCode(
  ctx: RequestContext,
  request: AuthorizationRequest,
  expectedResource: string,
): Promise<string> {
  const person = requireConsoleUser(ctx);
  const { client, scopes, resource } = await checkAuthorizationRequest(ctx, request, expectedResource);
  const code = newSecret(CODE_PREFIX);
  const now = ctx.clock.now();
  // Codes long expired go as new ones come: an expired code is refused whether its row is kept or not.
  await ctx.db.prisma.oAuthCode.deleteMany({ where: { expiresAt: { lt: new Date(now.getTime() - CODE_TTL_MS) } } });
  await ctx.db.prisma.oAuthCode.create({
    data: {
      codeHash: sha256Hex(code),
      clientId: client.client_id,
      accountId: person.accountId,
      userId: person.userId,
      redirectUri: request.redirectUri,
      codeChallenge: request.codeChallenge,
      scopes,
      resource,
      createdAt: now,
      expiresAt: new Date(now.getTime() + CODE_TTL_MS),
    },
  });
  return code;
}

// ── Tokens ──────────────────────────────────────────────────────────────────────────────────

/** The PKCE challenge of a code this client holds (a used code's too: its reuse is judged on exchange). */
export async function challengeForCode(services: Services, clientId: string, code: string): Promise<string> {
  const row = await services.db.prisma.oAuthCode.findUnique({ where: { codeHash: sha256Hex(code) } });
  if (!row || row.clientId !== clientId) throw new InvalidGrantError('Unknown authorization code');
  return row.codeChallenge;
}

type Tx = Prisma.TransactionClient;

async function issueTokens(tx: Tx, grantId: string, scopes: string[], now: Date): Promise<OAuthTokens> {
  const access = newSecret(ACCESS_TOKEN_PREFIX);
  const refresh = newSecret(REFRESH_TOKEN_PREFIX);
  // What has expired of this grant goes as new tokens come (a used refresh token stays until it
  // expires, so that its reuse is recognised).
  await tx.oAuthToken.deleteMany({ where: { grantId, expiresAt: { lte: now } } });
  await tx.oAuthToken.createMany({
    data: [
      {
        tokenHash: sha256Hex(access),
        grantId,
        kind: 'access',
        scopes,
        createdAt: now,
        expiresAt: new Date(now.getTime() + ACCESS_TOKEN_TTL_MS),
      },
      {
        tokenHash: sha256Hex(refresh),
        grantId,
        kind: 'refresh',
        scopes,
        createdAt: now,
        expiresAt: new Date(now.getTime() + REFRESH_TOKEN_TTL_MS),
      },
    ],
  });
  return {
    access_token: access,
    token_type: 'Bearer',
    expires_in: ACCESS_TOKEN_TTL_MS / 1000,
    refresh_token: refresh,
    scope: scopes.join(' '),
  };
}

/** A second use of a code or refresh token: whatever the first use started is revoked (RFC 9700 §4.14). */
async function revokeGrantOnReuse(services: Services, grantId: string | null): Promise<never> {
  if (grantId)
    await services.db.prisma.oAuthGrant.updateMany({
      where: { id: grantId, revokedAt: null },
      data: { revokedAt: services.clock.now() },
    });
  throw new InvalidGrantError('This code or refresh token was already used: the tokens issued from it are revoked');
}

/**
 * Exchanges a code (its PKCE verifier already checked) for the first tokens of a new grant.
 * Single-use: the code is claimed in the same transaction; a second exchange revokes the grant.
 */
export async function exchangeAuthorizationCode(
  services: Services,
  clientId: string,
  code: string,
  redirectUri: string | undefined,
  resource: string | undefined,
): Promise<OAuthTokens> {
  const codeHash = sha256Hex(code);
  const now = services.clock.now();
  const tokens = await services.db.prisma.$transaction(async (tx) => {
    const claimed = await tx.oAuthCode.updateMany({
      where: { codeHash, clientId, usedAt: null, expiresAt: { gt: now } },
      data: { usedAt: now },
    });
    if (claimed.count === 0) return null;
    const row = await tx.oAuthCode.findUniqueOrThrow({ where: { codeHash }, include: { user: true } });
    if (redirectUri !== undefined && redirectUri !== row.redirectUri)
      throw new InvalidGrantError('redirect_uri differs from the one the code was issued for');
    if (resource !== undefined && resource !== row.resource)
      throw new InvalidTargetError(`This code is for ${row.resource}`);
    if (row.user.removedAt || row.user.accountId !== row.accountId)
      throw new InvalidGrantError('The person who consented is no longer in the Account');
    const grant = await tx.oAuthGrant.create({
      data: {
        clientId,
        accountId: row.accountId,
        userId: row.userId,
        scopes: row.scopes,
        resource: row.resource,
        createdAt: now,
        lastUsedAt: now,
      },
    });
    await tx.oAuthCode.update({ where: { codeHash }, data: { grantId: grant.id } });
    return issueTokens(tx, grant.id, row.scopes, now);
  });
  if (tokens) return tokens;
  const row = await services.db.prisma.oAuthCode.findUnique({ where: { codeHash } });
  if (row?.clientId === clientId && row.usedAt) return revokeGrantOnReuse(services, row.grantId);
  throw new InvalidGrantError('The authorization code is unknown or expired');
}

/**
 * Rotates a refresh token: the one sent is used up, a new access and refresh token are issued
 * (with the scopes asked for, no more than the grant's). A refresh token used twice revokes the
 * grant: one of the two users of it is not the application.
 */
export async function exchangeRefreshToken(
  services: Services,
  clientId: string,
  refreshToken: string,
  scopes: string[] | undefined,
  resource: string | undefined,
): Promise<OAuthTokens> {
  const tokenHash = sha256Hex(refreshToken);
  const now = services.clock.now();
  const row = await services.db.prisma.oAuthToken.findUnique({
    where: { tokenHash },
    include: { grant: { include: { user: true } } },
  });
  if (row?.kind !== 'refresh' || row.grant.clientId !== clientId) throw new InvalidGrantError('Unknown refresh token');
  if (row.usedAt) return revokeGrantOnReuse(services, row.grantId);
  if (row.expiresAt.getTime() <= now.getTime() || row.grant.revokedAt)
    throw new InvalidGrantError('The refresh token expired or was revoked');
  const { grant } = row;
  if (grant.user.removedAt || grant.user.accountId !== grant.accountId)
    throw new InvalidGrantError('The person who consented is no longer in the Account');
  if (resource !== undefined && resource !== grant.resource)
    throw new InvalidTargetError(`This grant is for ${grant.resource}`);
  const wider = scopes?.find((s) => !row.scopes.includes(s));
  if (wider !== undefined) throw new InvalidScopeError(`${wider} was not granted`);
  const tokens = await services.db.prisma.$transaction(async (tx) => {
    const claimed = await tx.oAuthToken.updateMany({ where: { tokenHash, usedAt: null }, data: { usedAt: now } });
    if (claimed.count === 0) return null;
    await tx.oAuthGrant.update({ where: { id: grant.id }, data: { lastUsedAt: now } });
    return issueTokens(tx, grant.id, scopes ?? row.scopes, now);
  });
  // Another request used it between the read and the claim: that is a reuse too.
  return tokens ?? revokeGrantOnReuse(services, row.grantId);
}

/**
 * RFC 7009: a refresh token revokes its grant (every token of it); an access token only itself.
 * A token that is unknown, or another application's, is ignored: the answer is the same.
 */
export async function revokeToken(services: Services, clientId: string, token: string): Promise<void> {
  const row = await services.db.prisma.oAuthToken.findUnique({
    where: { tokenHash: sha256Hex(token) },
    include: { grant: true },
  });
  if (!row || row.grant.clientId !== clientId) return;
  const now = services.clock.now();
  if (row.kind === 'refresh')
    await services.db.prisma.oAuthGrant.updateMany({
      where: { id: row.grantId, revokedAt: null },
      data: { revokedAt: now },
    });
  else await services.db.prisma.oAuthToken.deleteMany({ where: { tokenHash: row.tokenHash } });
}

/** Whether a bearer credential is an OAuth access token (rather than an API key). */
export const isAccessToken = (bearer: string | undefined) => bearer?.startsWith(ACCESS_TOKEN_PREFIX) ?? false;

/**
 * Resolves an access token to the person who consented, in their Account, with the token's
 * scopes; 401 when it is unknown, expired, revoked, for another resource, or its person was
 * removed. One indexed read; the grant's last use is written at most once a minute.
 */
export async function authenticateAccessToken(
  services: Services,
  token: string,
  expectedResource: string,
): Promise<{ actor: Actor; grantId: string }> {
  const row = await findActiveAccessToken(directSql(services.db.sql), sha256Hex(token));
  const now = services.clock.now();
  if (!row || row.expiresAt.getTime() <= now.getTime() || row.resource !== expectedResource)
    throw new DomainError('unauthenticated', 'Unknown, expired or revoked access token');
  if (!row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() > LAST_USED_RESOLUTION_MS)
    services.db.prisma.oAuthGrant.update({ where: { id: row.grantId }, data: { lastUsedAt: now } }).catch(() => {});
  return {
    grantId: row.grantId,
    actor: {
      accountId: row.accountId,
      userId: row.userId,
      apiKeyId: null,
      scopes: row.scopes as KeyScope[],
      account: { id: row.accountId, defaultLocation: row.defaultLocation, dedupFields: row.dedupFields },
    },
  };
}

// ── The console's connected applications ───────────────────────────────────────────────────

export interface ConnectedApplication {
  id: string;
  clientId: string;
  clientName: string | null;
  userEmail: string;
  scopes: string[];
  createdAt: Date;
  lastUsedAt: Date | null;
}

/** The applications connected to the signed-in person's Account and not revoked, newest first. */
export async function listConnectedApplications(ctx: RequestContext): Promise<ConnectedApplication[]> {
  const { accountId } = requireConsoleUser(ctx);
  const grants = await ctx.db.prisma.oAuthGrant.findMany({
    where: { accountId, revokedAt: null },
    include: { client: { select: { name: true } }, user: { select: { email: true } } },
    orderBy: { createdAt: 'desc' },
  });
  return grants.map((g) => ({
    id: g.id,
    clientId: g.clientId,
    clientName: g.client.name,
    userEmail: g.user.email,
    scopes: g.scopes,
    createdAt: g.createdAt,
    lastUsedAt: g.lastUsedAt,
  }));
}

/** Revokes a connected application of the signed-in person's Account: its tokens are refused from now on. */
export async function revokeConnectedApplication(ctx: RequestContext, id: string): Promise<{ id: string }> {
  const { accountId } = requireConsoleUser(ctx);
  const revoked = await ctx.db.prisma.oAuthGrant.updateMany({
    where: { id, accountId, revokedAt: null },
    data: { revokedAt: ctx.clock.now() },
  });
  if (revoked.count === 0) throw notFound(`No connected application ${id}`);
  return { id };
}

// monday's OAuth token endpoint: the authorization code exchanged for the account's access
// token (the install page's and the console's links both end here).

const MONDAY_TIMEOUT_MS = 10_000;

export type InstallSettings = { clientId: string; clientSecret: string; tokenKey: Buffer };

export type TokenAnswer = { ok: true; accessToken: string } | { ok: false; status: 400 | 502 };

/** POST {oauthUrl}/oauth2/token (form-encoded, as monday's examples send it). */
export async function exchangeCode(
  settings: InstallSettings,
  oauthUrl: string,
  code: string,
  redirectUri: string,
): Promise<TokenAnswer> {
  let response: globalThis.Response;
  try {
    response = await fetch(`${oauthUrl}/oauth2/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams({
        client_id: settings.clientId,
        client_secret: settings.clientSecret,
        code,
        redirect_uri: redirectUri,
      }),
      signal: AbortSignal.timeout(MONDAY_TIMEOUT_MS),
    });
  } catch {
    return { ok: false, status: 502 };
  }
  const body = (await response.json().catch(() => null)) as { access_token?: unknown } | null;
  if (response.ok && typeof body?.access_token === 'string' && body.access_token)
    return { ok: true, accessToken: body.access_token };
  return { ok: false, status: response.status >= 400 && response.status < 500 ? 400 : 502 };
}

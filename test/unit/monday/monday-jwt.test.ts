import jwt from 'jsonwebtoken';
import { describe, expect, it } from 'vitest';
import { MondayAuthError, signTriggerAuthorization, verifyMondayJwt } from '../../../integration/monday/monday-jwt.js';
import { automationBroken, retryLater, runFailed } from '../../../integration/monday/action-failure.js';

const SECRET = 'signing-secret-0123456789';
const AUD = 'https://contactline.test/integrations/monday/actions/enroll';
const now = new Date('2026-11-22T10:00:00.000Z');
const iat = Math.floor(now.getTime() / 1000);
const token = (claims: object, secret = SECRET, options: jwt.SignOptions = {}) =>
  jwt.sign(
    { accountId: 1825529, userId: 4012689, aud: AUD, iat, exp: iat + 300, shortLivedToken: 'slt', ...claims },
    secret,
    options,
  );

describe('verifyMondayJwt', () => {
  it('accepts a raw or Bearer token signed with the Signing Secret for this URL', () => {
    for (const header of [token({}), `Bearer ${token({})}`]) {
      expect(verifyMondayJwt(header, SECRET, { audience: AUD, now })).toMatchObject({
        accountId: 1825529,
        userId: 4012689,
        shortLivedToken: 'slt',
      });
    }
    expect(verifyMondayJwt(token({}, SECRET, { algorithm: 'HS512' }), SECRET, { audience: AUD, now }).accountId).toBe(
      1825529,
    );
  });

  it.each([
    ['missing', undefined, 'missing'],
    ['another secret (e.g. the Client Secret)', token({}, 'client-secret-0123456789'), 'invalid'],
    ['expired', token({ iat: iat - 600, exp: iat - 300 }), 'expired'],
    ['another URL', token({ aud: 'https://contactline.test/other' }), 'wrong_audience'],
    ['garbage', 'not.a.jwt', 'invalid'],
    ['unsigned (alg none)', jwt.sign({ accountId: 1, exp: iat + 300 }, '', { algorithm: 'none' }), 'invalid'],
    ['no accountId', jwt.sign({ userId: 1, iat, exp: iat + 300, aud: AUD }, SECRET), 'invalid'],
  ])('refuses a token: %s', (_name, header, reason) => {
    try {
      verifyMondayJwt(header as string | undefined, SECRET, { audience: AUD, now });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(MondayAuthError);
      expect((error as MondayAuthError).reason).toBe(reason);
    }
  });
});

describe('signTriggerAuthorization', () => {
  it('signs { appId } with the Signing Secret for one minute', () => {
    const header = signTriggerAuthorization(10155, SECRET, now);
    expect(header).toMatch(/^Bearer /);
    const claims = jwt.verify(header.slice(7), SECRET, { clockTimestamp: iat }) as jwt.JwtPayload;
    expect(claims.appId).toBe(10155);
    expect(claims.exp! - claims.iat!).toBe(60);
  });
});

describe('action failures', () => {
  it('builds monday severity bodies and retryable answers', () => {
    expect(runFailed('Phone number missing', 'Fill the Phone column', 'item 1: phone empty')).toMatchObject({
      status: 400,
      body: { severityCode: 4000 },
    });
    const broken = automationBroken('Mapping out of date', 'Column phone_1 was deleted', 'column phone_1 missing');
    expect(broken.body).toMatchObject({ severityCode: 6000, disableErrorDescription: 'Column phone_1 was deleted' });
    const retry = retryLater('monday API rate limit', 503);
    expect(retry.status).toBe(503);
    expect('severityCode' in retry.body).toBe(false);
  });
});

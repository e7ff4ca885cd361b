// POST /api/telephony/{provider}/{accountId}: webhooks from Vapi and Retell for an Account's
// calls. The Account comes from the path, never from the body; the webhook is authenticated
// with that Account's own credentials, exactly as the provider documents it (the adapter's
// readWebhook, over the raw bytes), before anything in it is believed. Order:
//   1. unknown provider, malformed Account id, or no credentials stored  -> 404 not_found
//   2. none of the provider's credential headers                          -> 401 (body not read)
//   3. authentication fails (wrong secret, stale, body changed)           -> 401, nothing applied
//   4. the events the message carries are applied in order, in one transaction (all or none:
//      applyTelephonyEvents, scoped to the Account); a call or agent of another Account is a 404
//      like an unknown one. A message saying the provider refused the call for capacity before
//      dialling it carries no events: the call is withdrawn instead (withdrawNotPlaced: not an
//      attempt, due again shortly), or, not one of the Account's open calls with that provider
//      id, ignored (a 404 would only make the provider retry it)
//   5. 200 { status: applied | duplicate | ignored (a message we do not use), events: [applied|duplicate…] }
// Redeliveries and out-of-order messages are absorbed by the events' deterministic ids.
import express, { type Request, type Response } from 'express';
import type { Services } from '../domain/context.js';
import { DomainError } from '../domain/errors.js';
import { UUID_PATTERN } from '../domain/shared/ids.js';
import { applyTelephonyEvents } from '../domain/calls/call-events.service.js';
import { withdrawNotPlaced } from '../jobs/provider-placement.js';
import { bodyTooLarge, declaresMoreThan } from './edge/body-limits.js';
import { loadProviderCredentials, REMOTE_VOICE_PROVIDERS } from '../domain/providers/provider-credentials.service.js';
import type { RemoteVoiceProvider } from '../calls/telephony/voice-provider.port.js';
import { HMAC_SIGNATURE_HEADER, SECRET_HEADER } from '../calls/telephony/vapi/webhook-auth.js';
import { SIGNATURE_HEADER as RETELL_SIGNATURE_HEADER } from '../calls/telephony/retell/webhook-signature.js';

export const PROVIDER_WEBHOOKS_PATH = '/api/telephony';

// Providers send transcripts inline: allow as much as the generic events endpoint.
export const PROVIDER_WEBHOOK_BODY_LIMIT_BYTES = 2 * 1024 * 1024;
const rawBody = express.raw({ type: () => true, limit: PROVIDER_WEBHOOK_BODY_LIMIT_BYTES });
const readRawBody = (req: Request, res: Response) =>
  new Promise<void>((resolve, reject) => {
    if (declaresMoreThan(req, PROVIDER_WEBHOOK_BODY_LIMIT_BYTES))
      reject(bodyTooLarge(PROVIDER_WEBHOOK_BODY_LIMIT_BYTES));
    else rawBody(req, res, (error?: unknown) => (error ? reject(error) : resolve()));
  });

/**
 * The headers that can carry each provider's credential (./vapi/webhook-auth.ts,
 * ./retell/webhook-signature.ts): a request with none of them is refused before its body is read.
 */
const CREDENTIAL_HEADERS: Record<RemoteVoiceProvider, string[]> = {
  vapi: [HMAC_SIGNATURE_HEADER, SECRET_HEADER, 'authorization'],
  retell: [RETELL_SIGNATURE_HEADER],
};

const isProvider = (value: string): value is RemoteVoiceProvider =>
  (REMOTE_VOICE_PROVIDERS as readonly string[]).includes(value);

export function providerWebhooksRouter(services: Services): express.Router {
  const router = express.Router();
  router.post('/:provider/:accountId', async (req: Request, res: Response) => {
    const provider = String(req.params.provider);
    const accountId = String(req.params.accountId);
    const adapter = isProvider(provider) ? services.voice?.adapters[provider] : undefined;
    if (!isProvider(provider) || !adapter || !UUID_PATTERN.test(accountId))
      throw new DomainError('not_found', 'No such provider webhook');
    const credentials = await loadProviderCredentials(services, accountId, provider);
    if (!credentials) throw new DomainError('not_found', `No ${provider} credentials for this Account`);
    if (!CREDENTIAL_HEADERS[provider].some((name) => req.headers[name] !== undefined)) {
      throw new DomainError(
        'unauthenticated',
        `The ${provider} webhook carries no credential (${CREDENTIAL_HEADERS[provider].join(', ')})`,
      );
    }
    await readRawBody(req, res);

    const headers = Object.fromEntries(
      Object.entries(req.headers).map(([name, value]) => [
        name.toLowerCase(),
        Array.isArray(value) ? value.join(',') : value,
      ]),
    );
    const body: Buffer = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    const read = await adapter.readWebhook(credentials, { rawBody: body, headers }, services.clock.now());
    if (!read.ok)
      throw new DomainError('unauthenticated', `The ${provider} webhook's authentication failed: ${read.reason}`);

    if (read.notPlaced) {
      const { notPlaced } = read;
      const withdrawn =
        UUID_PATTERN.test(notPlaced.callId) && (await withdrawNotPlaced(services, { accountId, provider }, notPlaced));
      res.status(200).json({ status: withdrawn ? 'applied' : 'ignored', events: [] });
      return;
    }
    for (const event of read.events) {
      if (!UUID_PATTERN.test(event.callId)) throw new DomainError('not_found', `No call ${event.callId}`);
    }
    const applied = await applyTelephonyEvents(services, read.events, { accountId, provider });
    res.status(200).json({
      status: applied.length === 0 ? 'ignored' : applied.includes('applied') ? 'applied' : 'duplicate',
      events: applied,
    });
  });
  return router;
}

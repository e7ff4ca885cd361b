// The voice providers the service places real calls through: one adapter per provider, and the
// configuration they share (the credentials key, API base URLs, the public base URL for
// webhooks), read from the environment in one place for the service and the CLI.
import type { Env } from '../../config/env.js';
import type { VoiceProviders } from '../../domain/context.js';
import { parseSecretKey } from '../../domain/shared/secret-box.js';
import type { RemoteVoiceProvider, VoiceProviderAdapter } from './voice-provider.port.js';
import { createVapiAdapter } from './vapi/vapi.adapter.js';
import { createRetellAdapter } from './retell/retell.adapter.js';

/** Both adapters, on their official SDKs (`timeoutMs`: the create-call timeout, default the SDK's). */
export function createVoiceProviderAdapters(
  options: { timeoutMs?: number } = {},
): Record<RemoteVoiceProvider, VoiceProviderAdapter> {
  return { vapi: createVapiAdapter(options), retell: createRetellAdapter(options) };
}

type VoiceEnv = Partial<Pick<Env, 'PROVIDER_CREDENTIALS_KEY' | 'VAPI_API_URL' | 'RETELL_API_URL' | 'PUBLIC_BASE_URL'>>;

/** The voice configuration from the environment; publicBaseUrl stays empty until the server knows its address. */
export function voiceProvidersFromEnv(
  env: VoiceEnv,
  adapters: VoiceProviders['adapters'] = createVoiceProviderAdapters(),
): VoiceProviders {
  return {
    adapters,
    credentialsKey: env.PROVIDER_CREDENTIALS_KEY
      ? parseSecretKey(env.PROVIDER_CREDENTIALS_KEY, 'PROVIDER_CREDENTIALS_KEY')
      : null,
    apiUrls: {
      ...(env.VAPI_API_URL ? { vapi: env.VAPI_API_URL } : {}),
      ...(env.RETELL_API_URL ? { retell: env.RETELL_API_URL } : {}),
    },
    publicBaseUrl: env.PUBLIC_BASE_URL ?? '',
  };
}

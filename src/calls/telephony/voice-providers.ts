// The voice provider adapters the service places real calls through, one per provider.
import type { RemoteVoiceProvider, VoiceProviderAdapter } from './voice-provider.port.js';

export function createVoiceProviderAdapters(): Partial<Record<RemoteVoiceProvider, VoiceProviderAdapter>> {
  return {};
}

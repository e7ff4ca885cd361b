// Vapi's SDK, loaded at the first request to Vapi rather than at start.
//
// Why: @vapi-ai/server-sdk is about 2,500 modules (every resource and type of Vapi's API); loading
// it costs about 1 s and 1.4 s of CPU, which every CLI command and service start paid, including
// the many that never call Vapi. Only the adapter's requests need it.
export type VapiSdk = typeof import('@vapi-ai/server-sdk');

let loading: Promise<VapiSdk> | undefined;

/** The SDK's module, imported once per process on first use. */
export function vapiSdk(): Promise<VapiSdk> {
  loading ??= import('@vapi-ai/server-sdk');
  return loading;
}

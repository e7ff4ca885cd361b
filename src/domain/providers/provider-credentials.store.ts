// The SQL of reading an Account's provider secrets on the driver (a prepared statement): every
// provider webhook and every dialer pass reads them, and Prisma's findUnique took about 1 ms more
// than the query itself (bench/voice.ts).
import type { SqlClient } from '../../db/sql-client.js';
import type { RemoteVoiceProvider } from '../../calls/telephony/voice-provider.port.js';

/** A ProviderCredential row's encrypted secrets, as a query read them. */
export interface StoredProviderSecrets {
  apiKeyEncrypted: string;
  webhookSecretEncrypted: string | null;
}

/** The Account's encrypted secrets for a provider; null: none stored. */
export async function findProviderSecrets(
  db: SqlClient,
  accountId: string,
  provider: RemoteVoiceProvider,
): Promise<StoredProviderSecrets | null> {
  const [row] = await db.$queryRaw<
    StoredProviderSecrets[]
  >`SELECT "apiKeyEncrypted", "webhookSecretEncrypted" FROM "ProviderCredential"
    WHERE "accountId" = ${accountId}::uuid AND "provider" = ${provider}::"VoiceProvider"`;
  return row ?? null;
}

// Comparing a secret someone sent with the one we hold, in time that does not depend on where
// they differ (so the comparison leaks nothing about the secret).
import { timingSafeEqual } from 'node:crypto';

export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

// The console's sign-in inputs (zod): the bounds of an email, a password and a link's token.
import { z } from 'zod';

/** Long enough for a passphrase, short enough that hashing it costs nothing extra. */
export const PASSWORD_MIN = 12;
export const PASSWORD_MAX = 200;

export const EmailSchema = z.string().trim().toLowerCase().pipe(z.email().max(254));

export const InviteUserSchema = z.strictObject({
  accountId: z.uuid(),
  email: EmailSchema,
  name: z.string().trim().max(200).optional(),
});

export const PasswordSchema = z
  .string()
  .min(PASSWORD_MIN, `must be at least ${PASSWORD_MIN} characters`)
  .max(PASSWORD_MAX, `must be at most ${PASSWORD_MAX} characters`);

export const AcceptInvitationSchema = z.strictObject({
  token: z.string().min(1).max(200),
  password: PasswordSchema,
});

export const SignInSchema = z.strictObject({
  email: z.string().trim().toLowerCase().max(254),
  password: z.string().max(PASSWORD_MAX),
});

import { describeEnvError, StorefrontEnvSchema } from './lib/env.ts';

// Imported by instrumentation.ts in the Node.js runtime only (process.exit has no Edge equivalent).
const parsed = StorefrontEnvSchema.safeParse(process.env);
if (!parsed.success) {
  console.error(`config error: ${describeEnvError(parsed.error)}`);
  process.exit(1);
}

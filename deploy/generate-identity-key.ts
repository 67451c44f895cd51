// Prints a new private P-256 (ES256) JWK (one line of JSON) for KEYGATE_IDENTITY_PRIVATE_JWK, which
// every gateway replica must share:
//   echo "KEYGATE_IDENTITY_PRIVATE_JWK=$(node deploy/generate-identity-key.ts)" >> .env
// Keep the output secret: whoever holds it can sign identities commerce accepts.
import { generateIdentityKeyPair } from '../packages/identity/src/index.ts';

const { privateJwk } = await generateIdentityKeyPair();
process.stdout.write(`${JSON.stringify(privateJwk)}\n`);

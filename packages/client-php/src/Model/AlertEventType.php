<?php

// Generated from packages/openapi/openapi.json by generator/generate.php; do not edit.
// Regenerate with `pnpm --filter @keygate/client-php generate`.

declare(strict_types=1);

namespace Keygate\Client\Model;

enum AlertEventType: string
{
    case KeyCreated = 'key.created';
    case KeyRotated = 'key.rotated';
    case KeySecretClosed = 'key.secret_closed';
    case KeyRevoked = 'key.revoked';
    case KeyScopesChanged = 'key.scopes_changed';
    case KeyExpiring = 'key.expiring';
    case KeyExpired = 'key.expired';
    case QuotaThreshold = 'quota.threshold';
    case CreditsLow = 'credits.low';
    case CreditsExhausted = 'credits.exhausted';
    case KeyRateLimited = 'key.rate_limited';
}

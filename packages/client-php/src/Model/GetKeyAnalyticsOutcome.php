<?php

// Generated from packages/openapi/openapi.json by generator/generate.php; do not edit.
// Regenerate with `pnpm --filter @keygate/client-php generate`.

declare(strict_types=1);

namespace Keygate\Client\Model;

enum GetKeyAnalyticsOutcome: string
{
    case VALID = 'VALID';
    case RATELIMITED = 'RATE_LIMITED';
    case QUOTAEXCEEDED = 'QUOTA_EXCEEDED';
    case CREDITSEXHAUSTED = 'CREDITS_EXHAUSTED';
    case FORBIDDENSCOPE = 'FORBIDDEN_SCOPE';
    case FORBIDDENIP = 'FORBIDDEN_IP';
    case EXPIRED = 'EXPIRED';
    case REVOKED = 'REVOKED';
    case INVALIDSECRET = 'INVALID_SECRET';
    case UPSTREAMERROR = 'UPSTREAM_ERROR';
}

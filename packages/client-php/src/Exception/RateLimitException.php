<?php

declare(strict_types=1);

namespace Keygate\Client\Exception;

/** The key's rate limit is spent (429): `retryAfter` says when to try again, `rateLimit` holds the state. */
final class RateLimitException extends ApiException
{
}

<?php

declare(strict_types=1);

namespace Keygate\Client\Exception;

/** The key is missing, malformed, unknown, revoked, closed or expired (401). */
final class AuthenticationException extends ApiException
{
}

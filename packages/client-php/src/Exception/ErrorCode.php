<?php

declare(strict_types=1);

namespace Keygate\Client\Exception;

/**
 * Problem codes (`ApiException::$errorCode`) a caller may want to act on, by name; the API's error
 * registry has them all. 429s are `RateLimitException`, 404s and 409s `InvalidRequestException`.
 */
final class ErrorCode
{
    public const RATE_LIMITED = 'RATE_LIMITED';
    public const QUOTA_EXCEEDED = 'QUOTA_EXCEEDED';
    public const CREDITS_EXHAUSTED = 'CREDITS_EXHAUSTED';
    public const IDEMPOTENCY_KEY_IN_USE = 'IDEMPOTENCY_KEY_IN_USE';
    public const PLAN_NOT_FOUND = 'PLAN_NOT_FOUND';
    public const IDENTITY_NOT_FOUND = 'IDENTITY_NOT_FOUND';
    public const PLAN_IN_USE = 'PLAN_IN_USE';
    public const IDENTITY_HAS_KEYS = 'IDENTITY_HAS_KEYS';
    public const IDENTITY_EXISTS = 'IDENTITY_EXISTS';
    public const CREDITS_NOT_HELD = 'CREDITS_NOT_HELD';

    private function __construct()
    {
    }
}

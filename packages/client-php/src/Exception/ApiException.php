<?php

declare(strict_types=1);

namespace Keygate\Client\Exception;

use Keygate\Client\RateLimitState;
use Psr\Http\Message\ResponseInterface;

/**
 * An error answer of the API, carrying its `application/problem+json` body (RFC 9457). Thrown as
 * the subclass for its status: 401 `AuthenticationException`, 403 `PermissionException`, 429
 * `RateLimitException`, other 4xx `InvalidRequestException`; 5xx and anything else as this class.
 */
class ApiException extends KeygateException
{
    /** The `code` of the problem made up when an error answer carries no problem body. */
    public const UNEXPECTED_RESPONSE = 'UNEXPECTED_RESPONSE';

    /**
     * @param array<string, mixed> $problem the problem body as sent, extension members included
     * @param list<array{detail: string, pointer: string}> $errors what is wrong in a validation problem
     */
    final public function __construct(
        /** The problem's `type` URI (`about:blank` when it had none). */
        public readonly string $type,
        public readonly string $title,
        /** The HTTP status. */
        public readonly int $status,
        public readonly string $detail,
        /** Stable upper-snake error code, e.g. `MISSING_SCOPE`. */
        public readonly string $errorCode,
        /** The scope the call needed (403 for a missing scope), else null. */
        public readonly ?string $requiredScope,
        /** Seconds to wait before trying again (429, some 503), else null. */
        public readonly ?int $retryAfter,
        /** The gateway's `X-Request-Id` of the answer, for support requests. */
        public readonly ?string $requestId,
        public readonly array $errors,
        public readonly array $problem,
        /** The key's rate-limit state as this answer announced it, when it did. */
        public readonly ?RateLimitState $rateLimit,
        public readonly ResponseInterface $response,
    ) {
        parent::__construct("{$status} {$errorCode}: {$detail}", $status);
    }

    /** The exception for an error answer, of the subclass its status calls for. */
    public static function fromResponse(ResponseInterface $response, ?RateLimitState $rateLimit): self
    {
        $status = $response->getStatusCode();
        $body = (string) $response->getBody();
        $decoded = json_decode($body, true);
        $isProblem = is_array($decoded) && is_string($decoded['type'] ?? null) && is_string($decoded['title'] ?? null)
            && is_int($decoded['status'] ?? null) && is_string($decoded['code'] ?? null);
        $problem = $isProblem ? $decoded : [
            'type' => 'about:blank',
            'title' => $response->getReasonPhrase() !== '' ? $response->getReasonPhrase() : "HTTP {$status}",
            'status' => $status,
            'detail' => $body !== '' ? mb_substr($body, 0, 500) : "HTTP {$status} without a problem body",
            'code' => self::UNEXPECTED_RESPONSE,
        ];
        $class = match (true) {
            $status === 401 => AuthenticationException::class,
            $status === 403 => PermissionException::class,
            $status === 429 => RateLimitException::class,
            $status >= 400 && $status < 500 => InvalidRequestException::class,
            default => self::class,
        };
        $retryAfter = $problem['retryAfter'] ?? null;
        if (!is_int($retryAfter) && preg_match('/^\d+$/', trim($response->getHeaderLine('Retry-After'))) === 1) {
            $retryAfter = (int) trim($response->getHeaderLine('Retry-After'));
        }
        $requestId = $response->getHeaderLine('X-Request-Id');
        return new $class(
            (string) $problem['type'],
            (string) $problem['title'],
            $status,
            (string) ($problem['detail'] ?? ''),
            (string) $problem['code'],
            is_string($problem['requiredScope'] ?? null) ? $problem['requiredScope'] : null,
            is_int($retryAfter) ? $retryAfter : null,
            $requestId !== '' ? $requestId : null,
            is_array($problem['errors'] ?? null) ? array_values($problem['errors']) : [],
            $problem,
            $rateLimit,
            $response,
        );
    }
}

<?php

declare(strict_types=1);

namespace Keygate\Client\Internal;

/** The `Idempotency-Key` the client sends with each POST and PATCH, so a retry never acts twice. */
final class IdempotencyKey
{
    public const HEADER = 'Idempotency-Key';

    /** A random UUID (version 4, RFC 9562). */
    public static function create(): string
    {
        $bytes = random_bytes(16);
        $bytes[6] = chr(ord($bytes[6]) & 0x0f | 0x40);
        $bytes[8] = chr(ord($bytes[8]) & 0x3f | 0x80);
        return vsprintf('%s%s-%s-%s-%s-%s%s%s', str_split(bin2hex($bytes), 4));
    }

    /**
     * `$headers` with an `Idempotency-Key` for a POST or PATCH: the caller's own (any spelling of
     * the name, not null), else a fresh one. Other methods get theirs unchanged.
     *
     * @param array<string, string|null> $headers
     * @return array<string, string|null>
     */
    public static function addTo(string $method, array $headers): array
    {
        if (!in_array(strtoupper($method), ['POST', 'PATCH'], true) || self::isIn($headers)) {
            return $headers;
        }
        return [...$headers, self::HEADER => self::create()];
    }

    /**
     * True when `$headers` hold an `Idempotency-Key` (any spelling of the name) that is not null.
     *
     * @param array<string, string|null> $headers
     */
    public static function isIn(array $headers): bool
    {
        foreach ($headers as $name => $value) {
            if (strcasecmp($name, self::HEADER) === 0 && $value !== null) {
                return true;
            }
        }
        return false;
    }
}

<?php

declare(strict_types=1);

namespace Keygate\Client;

use Keygate\Client\Exception\WebhookVerificationException;

/**
 * Verifies Standard Webhooks 1.0 requests as keygate sends them: HMAC-SHA256 over
 * `{webhook-id}.{webhook-timestamp}.{raw body}` with the bytes of a `whsec_` secret, header
 * `webhook-signature: v1,<base64> [v1,<base64> …]` (several while a secret rotates).
 */
final class Webhook
{
    /** How far `webhook-timestamp` may be from now, either way (the reference libraries' value). */
    public const DEFAULT_TOLERANCE_SECONDS = 300;

    /**
     * Checks that the three headers are there, the timestamp is within the tolerance of `$now`, and
     * one `v1,` signature matches one of `$secrets` (pass every secret you accept during a rotation),
     * compared with `hash_equals`. Returns the id (dedupe on it), timestamp and decoded body.
     *
     * @param list<string> $secrets `whsec_…` secrets
     * @param array<string, string|list<string>> $headers request headers, any case (`getallheaders()`,
     *        a PSR-7 `getHeaders()`, or `$_SERVER`-style `HTTP_WEBHOOK_ID` keys)
     * @param string $body the raw request body, exactly as received
     * @param int|null $now Unix seconds (default: the system clock)
     * @throws WebhookVerificationException when any check fails
     */
    public static function verify(
        #[\SensitiveParameter]
        array $secrets,
        array $headers,
        string $body,
        ?int $now = null,
        int $toleranceSeconds = self::DEFAULT_TOLERANCE_SECONDS,
    ): VerifiedWebhook {
        $id = self::header($headers, 'webhook-id');
        $rawTimestamp = self::header($headers, 'webhook-timestamp');
        $signatures = self::header($headers, 'webhook-signature');
        if ($id === null || $rawTimestamp === null || $signatures === null) {
            throw new WebhookVerificationException('MISSING_HEADERS', 'webhook-id, -timestamp and -signature are required');
        }
        if (preg_match('/^\d{1,12}$/', $rawTimestamp) !== 1) {
            throw new WebhookVerificationException('INVALID_TIMESTAMP', 'webhook-timestamp is not Unix seconds');
        }
        $timestamp = (int) $rawTimestamp;
        $now ??= time();
        if ($timestamp < $now - $toleranceSeconds) {
            throw new WebhookVerificationException('TIMESTAMP_TOO_OLD', 'webhook-timestamp is too old');
        }
        if ($timestamp > $now + $toleranceSeconds) {
            throw new WebhookVerificationException('TIMESTAMP_TOO_NEW', 'webhook-timestamp is too far in the future');
        }
        $candidates = [];
        foreach (explode(' ', $signatures) as $entry) {
            if (str_starts_with($entry, 'v1,')) {
                $candidates[] = substr($entry, 3);
            }
        }
        $signed = "{$id}.{$timestamp}.{$body}";
        // Every secret is compared with every candidate, so the time taken does not tell which matched.
        $matched = false;
        foreach ($secrets as $secret) {
            $expected = base64_encode(hash_hmac('sha256', $signed, self::key($secret), true));
            foreach ($candidates as $candidate) {
                $matched = hash_equals($expected, $candidate) || $matched;
            }
        }
        if (!$matched) {
            throw new WebhookVerificationException('NO_MATCHING_SIGNATURE', 'no signature matches');
        }
        try {
            $payload = json_decode($body, true, 512, JSON_THROW_ON_ERROR);
        } catch (\JsonException) {
            throw new WebhookVerificationException('INVALID_PAYLOAD', 'the body is not JSON');
        }
        if (!is_array($payload)) {
            throw new WebhookVerificationException('INVALID_PAYLOAD', 'the body is not a JSON object');
        }
        return new VerifiedWebhook($id, $timestamp, $payload);
    }

    /** The HMAC key of a secret: the base64 bytes after `whsec_` (the prefix is optional). */
    private static function key(string $secret): string
    {
        $encoded = str_starts_with($secret, 'whsec_') ? substr($secret, 6) : $secret;
        $key = base64_decode($encoded, true);
        if ($key === false || $key === '') {
            throw new WebhookVerificationException('INVALID_SECRET', 'a webhook secret is not `whsec_` + base64');
        }
        return $key;
    }

    /** @param array<string, string|list<string>> $headers */
    private static function header(array $headers, string $name): ?string
    {
        $server = 'HTTP_' . strtoupper(str_replace('-', '_', $name));
        foreach ($headers as $key => $value) {
            if (strcasecmp((string) $key, $name) === 0 || $key === $server) {
                $text = is_array($value) ? implode(' ', $value) : (string) $value;
                return $text === '' ? null : $text;
            }
        }
        return null;
    }
}

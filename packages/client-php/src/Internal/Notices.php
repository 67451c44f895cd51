<?php

declare(strict_types=1);

namespace Keygate\Client\Internal;

use Keygate\Client\DeprecationNotice;
use Keygate\Client\KeyExpiryNotice;
use Keygate\Client\KeygateNotice;
use Psr\Http\Message\ResponseInterface;
use Psr\Log\LoggerInterface;

/**
 * Reads deprecation and key-expiry notices off answers and hands each to the callback and the
 * logger once per client: once per operation (deprecation) and per announced expiry day, so a loop
 * of calls does not repeat the same warning.
 *
 * @internal
 */
final class Notices
{
    /** @var array<string, true> */
    private array $seen = [];

    /** @param (callable(KeygateNotice): void)|null $onNotice */
    public function __construct(private readonly mixed $onNotice, private readonly ?LoggerInterface $logger)
    {
    }

    /** Looks at one answer of `$operation` (`METHOD /path/{template}`). */
    public function observe(ResponseInterface $response, string $operation): void
    {
        if ($this->onNotice === null && $this->logger === null) {
            return;
        }
        $deprecation = self::deprecationOf($response, $operation);
        if ($deprecation !== null) {
            $this->once("deprecation {$operation}", $deprecation);
        }
        $expiry = self::keyExpiryOf($response);
        if ($expiry !== null) {
            $this->once("key-expiry {$expiry->expiresOn}", $expiry);
        }
    }

    private function once(string $id, KeygateNotice $notice): void
    {
        if (isset($this->seen[$id])) {
            return;
        }
        $this->seen[$id] = true;
        if ($this->onNotice !== null) {
            ($this->onNotice)($notice);
        }
        $this->logger?->warning($notice->message(), ['notice' => $notice]);
    }

    public static function deprecationOf(ResponseInterface $response, string $operation): ?DeprecationNotice
    {
        if (!$response->hasHeader('Deprecation') && !$response->hasHeader('Sunset')) {
            return null;
        }
        $links = $response->getHeaderLine('Link');
        return new DeprecationNotice(
            $operation,
            $response->hasHeader('Deprecation') ? self::date($response->getHeaderLine('Deprecation')) : null,
            $response->hasHeader('Sunset') ? self::date($response->getHeaderLine('Sunset')) : null,
            self::link($links, 'deprecation') ?? self::link($links, 'sunset'),
        );
    }

    public static function keyExpiryOf(ResponseInterface $response): ?KeyExpiryNotice
    {
        $item = FieldList::parse($response->getHeaderLine('Keygate-Key-Expires'))[0] ?? null;
        if ($item === null || preg_match('/^\d{4}-\d{2}-\d{2}$/', $item['value']) !== 1) {
            return null;
        }
        return new KeyExpiryNotice($item['value'], FieldList::integer($item, 'days-left'));
    }

    /** `@1767225600` (RFC 9745) or an HTTP date; null for `?1` or anything unreadable. */
    private static function date(string $raw): ?\DateTimeImmutable
    {
        $text = trim($raw);
        if (preg_match('/^@-?\d+$/', $text) === 1) {
            return new \DateTimeImmutable($text);
        }
        $at = \DateTimeImmutable::createFromFormat(\DATE_RFC7231, $text);
        return $at === false ? null : $at;
    }

    /** The target of the first `Link` whose `rel` includes `$rel`. */
    private static function link(string $header, string $rel): ?string
    {
        preg_match_all('/<([^>]*)>([^<]*)/', $header, $matches, PREG_SET_ORDER);
        foreach ($matches as [, $target, $params]) {
            if (preg_match('/;\s*rel\s*=\s*(?:"([^"]*)"|([^\s;,]+))/i', $params, $rels) === 1) {
                $names = explode(' ', strtolower(($rels[1] ?? '') !== '' ? $rels[1] : ($rels[2] ?? '')));
                if (in_array($rel, $names, true)) {
                    return $target;
                }
            }
        }
        return null;
    }
}

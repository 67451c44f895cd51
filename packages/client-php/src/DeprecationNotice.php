<?php

declare(strict_types=1);

namespace Keygate\Client;

/** An operation answered with `Deprecation` (RFC 9745) and possibly `Sunset` (RFC 8594). */
final class DeprecationNotice implements KeygateNotice
{
    public function __construct(
        /** `METHOD /path/{template}` as documented, e.g. `GET /v2/channels`. */
        public readonly string $operation,
        /** When the operation was (or will be) deprecated; null when the header gave no date. */
        public readonly ?\DateTimeImmutable $deprecatedAt,
        /** When the operation stops answering, from `Sunset`; null without one. */
        public readonly ?\DateTimeImmutable $sunsetAt,
        /** The deprecation (else sunset) policy link from `Link`, when given. */
        public readonly ?string $link,
    ) {
    }

    public function message(): string
    {
        return "keygate: {$this->operation} is deprecated"
            . ($this->sunsetAt === null ? '' : '; sunset ' . $this->sunsetAt->format('Y-m-d'))
            . ($this->link === null ? '' : "; see {$this->link}");
    }
}

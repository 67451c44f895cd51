<?php

declare(strict_types=1);

namespace Keygate\Client;

/** The key used for a call expires soon (`Keygate-Key-Expires: 2026-03-31; days-left=5`). */
final class KeyExpiryNotice implements KeygateNotice
{
    public function __construct(
        /** The key's last valid day, `YYYY-MM-DD`. */
        public readonly string $expiresOn,
        /** Days left, rounded up (1 on the last day); null when the header did not say. */
        public readonly ?int $daysLeft,
    ) {
    }

    public function message(): string
    {
        return "keygate: the API key expires after {$this->expiresOn}"
            . ($this->daysLeft === null ? '' : " ({$this->daysLeft} days left)") . '; rotate or replace it';
    }
}

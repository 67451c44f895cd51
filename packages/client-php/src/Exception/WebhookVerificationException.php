<?php

declare(strict_types=1);

namespace Keygate\Client\Exception;

/** A webhook request that must not be trusted: `errorCode` says which check it failed. */
final class WebhookVerificationException extends KeygateException
{
    public function __construct(
        /** `MISSING_HEADERS`, `INVALID_TIMESTAMP`, `TIMESTAMP_TOO_OLD`, `TIMESTAMP_TOO_NEW`, `NO_MATCHING_SIGNATURE`, `INVALID_SECRET` or `INVALID_PAYLOAD` (the codes of `@keygate/webhooks`). */
        public readonly string $errorCode,
        string $message,
    ) {
        parent::__construct($message);
    }
}

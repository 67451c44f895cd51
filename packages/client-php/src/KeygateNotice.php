<?php

declare(strict_types=1);

namespace Keygate\Client;

/** Something an answer told the integrator to act on: a `DeprecationNotice` or a `KeyExpiryNotice`. */
interface KeygateNotice
{
    /** One line for a log, e.g. `keygate: GET /v2/channels is deprecated; sunset 2027-07-01`. */
    public function message(): string;
}

<?php

declare(strict_types=1);

namespace Keygate\Client\Exception;

/** The key may not do this (403): a missing scope (see `requiredScope`), a disallowed IP or an environment mismatch. */
final class PermissionException extends ApiException
{
}

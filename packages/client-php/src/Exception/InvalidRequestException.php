<?php

declare(strict_types=1);

namespace Keygate\Client\Exception;

/** The request was refused as it stands (400, 404, 409, 413, 415, 422): fix it before sending it again. */
final class InvalidRequestException extends ApiException
{
}

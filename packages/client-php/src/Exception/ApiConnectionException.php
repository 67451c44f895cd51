<?php

declare(strict_types=1);

namespace Keygate\Client\Exception;

/**
 * The request did not get an HTTP answer (DNS, refused connection, TLS, timeout): the PSR-18
 * client threw. The original exception is `getPrevious()`.
 */
final class ApiConnectionException extends KeygateException
{
}

<?php

declare(strict_types=1);

namespace Keygate\Client\Exception;

/** The base of every exception the keygate client throws, so one `catch` covers them all. */
abstract class KeygateException extends \RuntimeException
{
}
